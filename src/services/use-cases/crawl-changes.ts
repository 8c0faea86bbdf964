// What a recrawl found against the earlier crawl, beyond each page's change class: the earlier pages it never
// reached (GET /v1/crawls/:id/changes/missing) and a page's main-text diff against its earlier version
// (GET /v1/crawls/:id/pages/:pageId/diff). docs/reference.md#change-classes says what the classes mean.

import { createTwoFilesPatch, diffWords } from 'diff';
import { compareTexts } from '../../crawler/text/simhash.js';
import type { CrawlRow, CrawlsRepository, MissingPageRow } from '../../db/crawls-repo.js';
import { INTERNAL_SCOPE, type TenantScope } from '../../db/tenant-scope.js';
import { TrawlError } from '../../errors.js';
import type { MissingPagesQuery } from '../../schemas/crawls.js';
import { iso, isRowIdCursor, paginate } from '../presentation/pagination.js';
import { requireCrawl } from './crawl-reader.js';

/**
 * Characters of each main text a diff compares: a diff is computed on the request's thread, so a pair of huge
 * texts must not hold it; past this the diff says it compared only the beginnings.
 */
export const DIFF_MAX_CHARS = 200_000;
/** A diff whose texts differ more than this many edits is refused (the texts are not versions of each other). */
const DIFF_MAX_EDITS = 20_000;
/** Words of each side the summary lists; the counts are whole. */
const SUMMARY_MAX_WORDS = 200;

export interface CrawlChangeReadsOptions {
  repository: Pick<CrawlsRepository, 'get' | 'page' | 'missingPages'>;
  /** Main text of a page (CrawlStatsService: stored by the text job, or extracted now). */
  mainText?: { pageText(crawl: CrawlRow, pageId: number): Promise<string | null> };
}

export class CrawlChangeReads {
  constructor(private readonly options: CrawlChangeReadsOptions) {}

  /** The earlier pages a recrawl never reached, paginated in id order. */
  async missing(id: string, query: MissingPagesQuery, scope: TenantScope) {
    const crawl = await requireCrawl(this.options.repository, id, scope);
    requireRecrawl(crawl);
    return paginate({
      limit: query.limit,
      cursor: query.cursor,
      accept: isRowIdCursor,
      read: (after, rows) => this.options.repository.missingPages(id, after?.after ?? 0, rows),
      view: missingPageView,
      positionOf: (row) => ({ after: row.id }),
      link: { path: `/v1/crawls/${id}/changes/missing`, query: { limit: query.limit } },
    });
  }

  /**
   * A recrawled page's main text against its earlier version: a unified diff (line by line) and a word-level
   * summary (words added and removed), with textChanged and similarity as the text job computes them.
   */
  async diff(id: string, pageId: number, scope: TenantScope) {
    const crawl = await requireCrawl(this.options.repository, id, scope);
    const earlierCrawlId = requireRecrawl(crawl);
    const page = await this.options.repository.page(id, pageId);
    if (!page) throw new TrawlError('not_found', `crawl ${id} has no page ${pageId}`);
    if (page.previous_page === null) {
      throw new TrawlError('conflict', `page ${pageId} is new: the earlier crawl did not fetch it`);
    }
    // the earlier crawl may have been deleted since: its page then is not found
    const earlier = await this.options.repository.get(earlierCrawlId, INTERNAL_SCOPE);
    if (!earlier) throw new TrawlError('not_found', `the earlier crawl ${earlierCrawlId} is gone`);
    const mainText = this.options.mainText;
    if (!mainText) throw new Error('CrawlChangeReads was built without a mainText source');
    const [before, after] = await Promise.all([
      mainText.pageText(earlier, page.previous_page),
      mainText.pageText(crawl, pageId),
    ]);
    if (before === null || after === null) {
      throw new TrawlError(
        'conflict',
        `page ${pageId} has no main text to compare ${before === null ? 'in the earlier crawl' : 'in this crawl'} (no body stored, or not an HTML page or document)`,
      );
    }
    const cut = before.length > DIFF_MAX_CHARS || after.length > DIFF_MAX_CHARS;
    const a = withLineBreaks(before.slice(0, DIFF_MAX_CHARS));
    const b = withLineBreaks(after.slice(0, DIFF_MAX_CHARS));
    const words = diffWords(a, b, { maxEditLength: DIFF_MAX_EDITS });
    if (words === undefined) {
      throw new TrawlError(
        'unprocessable',
        `the two texts differ in more than ${DIFF_MAX_EDITS} places: too many to diff`,
      );
    }
    const added: string[] = [];
    const removed: string[] = [];
    let addedWords = 0;
    let removedWords = 0;
    for (const part of words) {
      if (!part.added && !part.removed) continue;
      const tokens = part.value.split(/\s+/).filter((token) => token !== '');
      if (part.added) {
        addedWords += tokens.length;
        added.push(...tokens.slice(0, SUMMARY_MAX_WORDS - added.length));
      } else {
        removedWords += tokens.length;
        removed.push(...tokens.slice(0, SUMMARY_MAX_WORDS - removed.length));
      }
    }
    const unified = createTwoFilesPatch(
      `crawl/${earlierCrawlId}/pages/${page.previous_page}`,
      `crawl/${id}/pages/${pageId}`,
      a,
      b,
      undefined,
      undefined,
      { context: 3 },
    );
    const compared = compareTexts(before, after);
    return {
      pageId,
      previousPage: page.previous_page,
      change: page.change,
      textChanged: compared.textChanged,
      similarity: compared.similarity,
      unified,
      summary: { addedWords, removedWords, added, removed },
      truncated: cut,
    };
  }
}

/** The earlier crawl's id; a 404 for a crawl that recrawls none (the resource exists only for recrawls). */
function requireRecrawl(crawl: CrawlRow): string {
  const of = crawl.request.recrawl?.of;
  if (!of) throw new TrawlError('not_found', `crawl ${crawl.id} is not a recrawl: it has no changes`);
  return of;
}

/** Main text with its sentences on lines of their own, so a unified diff shows the sentence that changed. */
function withLineBreaks(text: string): string {
  const lines = text.replace(/([.!?])\s+/g, '$1\n');
  return lines.endsWith('\n') ? lines : `${lines}\n`;
}

function missingPageView(row: MissingPageRow) {
  return {
    id: row.id,
    url: row.url,
    type: row.type,
    error: row.error,
    previousPage: row.previous_page,
    previousCrawl: row.previous_crawl,
    previousType: row.previous_type,
    previousStatus: row.previous_status,
    previousFetchedAt: iso(row.previous_fetched_at),
  };
}
