// Reads of a crawl's pages: a page of its page list (with their text or Markdown when asked), one page in
// full, a rendered page's screenshot and the per-host view. Their stored content comes through the one
// loader (page-content.ts) the export reads too. Knows nothing of HTTP.

import type { NormalizedCrawlRequest } from '../../crawler/crawl-request.js';
import { WordModel } from '../../crawler/text/word-model.js';
import type { CrawlRow, CrawlsRepository } from '../../db/crawls-repo.js';
import type { TenantScope } from '../../db/tenant-scope.js';
import { InputError, TrawlError } from '../../errors.js';
import type { PageListQuery } from '../../schemas/crawls.js';
import type { StoredPageContent } from '../content/page-content.js';
import { isRowIdCursor, paginate } from '../presentation/pagination.js';
import { type DocumentModelView, hostView, pageDetailView, pageSummaryView } from '../presentation/views.js';
import { requireCrawl } from './crawl-reader.js';
import { parseAsCrawled } from './documents.js';

/** Pages a list may carry with their text or Markdown (?include=): what one response holds in memory. */
export const MAX_PAGES_WITH_CONTENT = 100;

export interface CrawlPageReadsOptions {
  repository: CrawlsRepository;
  /** Stored bodies, texts and Markdown (?include=html, text, markdown, model). */
  content?: StoredPageContent;
  /** Main text of a page for ?include=text (CrawlStatsService: stored by the text job, or extracted now). */
  mainText?: { pageText(crawl: CrawlRow, pageId: number): Promise<string | null> };
}

// Tenancy as in CrawlService: every method takes the caller's `scope`; another owner's crawl is not found.
export class CrawlPageReads {
  constructor(private readonly options: CrawlPageReadsOptions) {}

  #content(): StoredPageContent {
    if (!this.options.content) throw new Error('CrawlPageReads was built without a stored-content loader');
    return this.options.content;
  }

  /**
   * A page of the crawl's pages. `include` adds to each its main text (as the text job stored it; null before)
   * and/or its main content as Markdown, for at most MAX_PAGES_WITH_CONTENT pages at once.
   */
  async pages(id: string, query: PageListQuery, scope: TenantScope) {
    const crawl = await requireCrawl(this.options.repository, id, scope);
    const include = new Set(query.include?.split(',') ?? []);
    if (include.size > 0 && query.limit > MAX_PAGES_WITH_CONTENT) {
      throw new InputError(
        `limit must be at most ${MAX_PAGES_WITH_CONTENT} with include=${query.include}`,
        'limit',
        { maximum: MAX_PAGES_WITH_CONTENT },
      );
    }
    const byScore = query.sort === '-score';
    const listed = await paginate({
      limit: query.limit,
      cursor: query.cursor,
      accept: isRowIdCursor,
      read: (after, rows) =>
        this.options.repository.pages(id, {
          afterId: after?.after ?? 0,
          type: query.type ?? null,
          status: query.status ?? null,
          host: query.host?.toLowerCase() ?? null,
          limit: rows,
          byScore,
          afterScore: byScore ? (after?.score ?? null) : null,
          minScore: query.minScore ?? null,
          result: query.result ?? null,
          change: query.change ?? null,
        }),
      view: pageSummaryView,
      positionOf: (row) => (byScore ? { after: row.id, score: row.score } : { after: row.id }),
      link: {
        path: `/v1/crawls/${id}/pages`,
        query: {
          limit: query.limit,
          type: query.type || undefined,
          status: query.status || undefined,
          host: query.host || undefined,
          minScore: query.minScore,
          result: query.result,
          change: query.change || undefined,
          sort: byScore ? '-score' : undefined,
          include: query.include || undefined,
        },
      },
    });
    if (include.size === 0) return listed;
    const items = await this.#content().forList(
      listed.items,
      { text: include.has('text'), markdown: include.has('markdown') },
      crawl.request.extract.method,
    );
    return { ...listed, items };
  }

  /** The PNG of a rendered page (render.screenshot); 404 when the page has none. */
  async screenshot(id: string, pageId: number, scope: TenantScope): Promise<Buffer> {
    await requireCrawl(this.options.repository, id, scope);
    const png = await this.options.repository.pageScreenshot(id, pageId);
    if (!png) throw new TrawlError('not_found', `page ${pageId} of crawl ${id} has no screenshot`);
    return png;
  }

  /**
   * `include`: a comma list of html (the stored body), text (the main text), markdown (the main content as
   * Markdown) and model (the Document).
   */
  async page(id: string, pageId: number, include: string | undefined, scope: TenantScope) {
    const crawl = await requireCrawl(this.options.repository, id, scope);
    const wanted = new Set(include?.split(',') ?? []);
    const { repository } = this.options;
    const row = await repository.page(id, pageId);
    if (!row) throw new TrawlError('not_found', `crawl ${id} has no page ${pageId}`);
    const [outlinks, images, document] = await Promise.all([
      repository.pageOutlinks(pageId),
      repository.pageImages(pageId),
      repository.pageDocument(pageId),
    ]);
    let html: string | null | undefined;
    if (wanted.has('html') || wanted.has('model') || wanted.has('markdown')) {
      html = await this.#content().html(pageId, row.content_type);
    }
    const stored = crawl.request;
    const parsable = html != null && row.type === 'HTML';
    let model: DocumentModelView | null | undefined;
    if (wanted.has('model')) model = parsable ? documentModel(html!, row, stored) : null;
    let markdown: string | null | undefined;
    if (wanted.has('markdown'))
      markdown = await this.#content().markdown(html ?? null, row, stored.extract.method);
    if (!wanted.has('html')) html = undefined;
    let text: string | null | undefined;
    if (wanted.has('text')) {
      if (!this.options.mainText) throw new Error('CrawlPageReads was built without a mainText source');
      text = await this.options.mainText.pageText(crawl, pageId);
    }
    return pageDetailView(row, { outlinks, images, document, html, text, model, markdown });
  }

  /**
   * Per-host view of a crawl (what a dashboard wants to see by host, kept out of Prometheus labels, where
   * one series per host of a large crawl would explode): pages by type, requests, load times, robots.txt.
   */
  async hosts(id: string, limit: number, scope: TenantScope) {
    await requireCrawl(this.options.repository, id, scope);
    return { items: (await this.options.repository.hosts(id, limit)).map(hostView) };
  }
}

/**
 * The reference Document of a stored page (docs/reference.md#document-model), parsed as the crawl parsed it,
 * with the words its TF-IDF settings make: what the scorers read.
 */
function documentModel(
  html: string,
  row: { url: string; final_url: string | null },
  request: NormalizedCrawlRequest,
) {
  const url = row.final_url ?? row.url;
  const parsed = parseAsCrawled(html, url, request.politeness.userAgent);
  return {
    url,
    title: parsed.title,
    h1: parsed.h1,
    h2: parsed.h2,
    words: WordModel.of(request.relevance ?? {}).words(parsed.tokens),
    outwardLinks: [...new Set(parsed.links.map((link) => link.url))],
  };
}
