// Use cases of a crawl's text statistics (docs/reference.md#crawl-records): the crawl-text job's work (main text of each stored
// HTML page, its words added to the crawl's counter exactly once), the word statistics with Zipf's r·f/N, the
// rank–frequency and timing plots, and one page's main text. Knows nothing of HTTP; the job calls countText.

import type { NormalizedCrawlRequest } from '../../crawler/crawl-request.js';
import { PARSE_MAX_BYTES } from '../../crawler/engine/crawl-runner.js';
import type { ExtractionMethod } from '../../crawler/extract/index.js';
import { distributionPlotSvg, WordCounter, zipfPlotSvg } from '../../crawler/stats/index.js';
import { pgSafeText } from '../../crawler/text/pg-safe.js';
import { isFinished } from '../../crawler/vocabulary.js';
import type { CrawlRow, CrawlsRepository } from '../../db/crawls-repo.js';
import type { PageText, StatsRepository, WordStatsVersion } from '../../db/stats-repo.js';
import { INTERNAL_SCOPE, type TenantScope } from '../../db/tenant-scope.js';
import { TrawlError } from '../../errors.js';
import { queueCrawlText } from '../../jobs/producers.js';
import type { JobBackend } from '../../jobs/queues.js';
import type { WordStats } from '../../schemas/stats.js';
import { type StoredBody, storedBody, storedPrefixBytes } from '../content/stored-body.js';
import type { CpuPool } from '../pools/cpu-pool.js';
import type { StoredTextResult } from '../pools/cpu-tasks.js';
import { requireCrawl } from './crawl-reader.js';

/** Pages per transaction of the text job: the counter document is rewritten once per batch. */
export const DEFAULT_TEXT_BATCH_PAGES = 100;

/**
 * A page's main text is read from its body's first PARSE_MAX_BYTES, the bytes the crawl parsed for its links,
 * title and score, whatever fetch.maxBytes kept: so is its stored text bounded, and the job's memory with it.
 */
const TEXT_BODY_MAX_BYTES = PARSE_MAX_BYTES;
/** The stored body's first bytes that hold at least TEXT_BODY_MAX_BYTES of the body, raw or gzip. */
const TEXT_STORED_MAX_BYTES = storedPrefixBytes(TEXT_BODY_MAX_BYTES);
/**
 * Characters of main text a batch holds before it stores them: its texts wait for one transaction, where the
 * database driver copies them once more, so a batch of large pages is stored in several.
 */
const TEXT_SAVE_MAX_CHARS = 16 * 1024 * 1024;
/**
 * A page's extraction on the CPU pool may take this long before the page is recorded as not counted: minutes,
 * as a job's deadline, not a request's, since it waits behind the pool's other tasks on a busy machine.
 */
const TEXT_TASK_TIMEOUT_MS = 300_000;

export interface CrawlStatsServiceOptions {
  repository: StatsRepository;
  crawls: CrawlsRepository;
  jobs: JobBackend;
  /** Where a stored body is inflated, decoded, extracted and its words counted: never the event loop. */
  cpu: CpuPool;
  batchPages?: number;
}

export interface TextSettings {
  enabled: boolean;
  method: ExtractionMethod;
  storeHtml: boolean;
}

/** The text settings of a crawl's request. */
export function textSettings({ extract, store }: NormalizedCrawlRequest): TextSettings {
  return { enabled: extract.enabled, method: extract.method, storeHtml: store.html };
}

export interface CountTextResult {
  /** Pages whose text this run extracted and counted (a concurrent run may have taken others). */
  pagesCounted: number;
  /**
   * Pages this run could not count: a body that could not be decoded or extracted, or a page the database
   * would not store. Marked done without words (not counted) so no run retries them; the rest go on.
   */
  pagesFailed: number;
}

/** Why a page is not counted, as the word statistics show it: the details of an internal fault are logged. */
export const TEXT_FAILURE = { unreadable: 'unreadable body', internal: 'internal' } as const;

/** Failed pages the word statistics list by id (all are counted in pagesFailed). */
const FAILED_PAGES_LISTED = 100;

/** Told of each page the text job gives up on, with the cause, for the log. */
export type TextFaultListener = (fault: { pageId: number; reason: string; error: unknown }) => void;

/** The crawl's counter as one run last stored it: reused while no other run has stored since. */
interface CounterCache {
  counter: WordCounter | null;
  version: WordStatsVersion | null;
}

export class CrawlStatsService {
  private readonly batchPages: number;

  constructor(private readonly options: CrawlStatsServiceOptions) {
    this.batchPages = options.batchPages ?? DEFAULT_TEXT_BATCH_PAGES;
  }

  /** A crawl of another owner is "not found", as in CrawlService. */
  private async require(id: string, scope: TenantScope): Promise<CrawlRow> {
    return requireCrawl(this.options.crawls, id, scope);
  }

  /**
   * Main text of one stored body's first TEXT_BODY_MAX_BYTES (`body` may be only the first
   * TEXT_STORED_MAX_BYTES of it), decoded the way the crawl decodes it (BOM, header, meta, UTF-8), on the CPU
   * pool; with its words counted when `countWords`.
   */
  private mainText(
    body: StoredBody,
    contentType: string | null,
    method: ExtractionMethod,
    countWords: boolean,
  ): Promise<StoredTextResult> {
    return this.options.cpu.run(
      'storedText',
      { body, contentType, method, maxBytes: TEXT_BODY_MAX_BYTES, countWords },
      'html',
      { timeoutMs: TEXT_TASK_TIMEOUT_MS },
    );
  }

  /**
   * The crawl-text job: extracts the main text of every stored HTML page not yet done, in batches keyed by page
   * id, and adds each page's words to the crawl's counter once. Safe to run twice or concurrently. A page that
   * cannot be read or stored is marked as not counted (onFault hears why) and the job goes on with the rest.
   */
  async countText(
    crawlId: string,
    signal?: AbortSignal,
    onFault?: TextFaultListener,
  ): Promise<CountTextResult> {
    const result: CountTextResult = { pagesCounted: 0, pagesFailed: 0 };
    const crawl = await this.options.crawls.get(crawlId, INTERNAL_SCOPE);
    if (!crawl || crawl.status === 'purging') return result;
    const { enabled, method } = textSettings(crawl.request);
    // near-duplicates are marked as texts are stored: within this many bits, or not at all (null)
    const { duplicates } = crawl.request;
    const nearDistance = duplicates.near ? duplicates.maxDistance : null;
    if (!enabled) return result;
    const { repository } = this.options;
    const cache: CounterCache = { counter: null, version: null };
    let afterId = 0;
    while (!signal?.aborted) {
      const rows = await repository.pendingText(crawlId, afterId, this.batchPages, TEXT_STORED_MAX_BYTES);
      if (rows.length === 0) break;
      afterId = rows[rows.length - 1]!.id;
      let texts: PageText[] = [];
      let textChars = 0;
      let words = new Map<number, WordCounter>();
      const unreadable: number[] = [];
      const save = async () => {
        await this.saveBatch(crawlId, nearDistance, texts, words, cache, result, onFault);
        texts = [];
        textChars = 0;
        words = new Map();
      };
      while (rows.length > 0) {
        // taken out of the batch as it is read, so a body's bytes are let go once its text is out
        const row = rows.shift()!;
        try {
          // A page's text read as it was fetched (a document's, most HTML pages') is counted as stored and
          // stays unwritten; the main text of an HTML page whose text was not read is extracted here.
          let text: string | null;
          let counts: unknown;
          // the simhash of an HTML page's main text (docs/reference.md#near-duplicates), documents have none
          let hash: string | null = null;
          const body = storedBody(row.html, row.html_gzip);
          if (body === null) {
            const stored = row.main_text ?? '';
            text = null;
            ({ words: counts, simhash: hash } = await this.options.cpu.run(
              'textFigures',
              { text: stored, simhash: row.type === 'HTML' },
              'text',
              { timeoutMs: TEXT_TASK_TIMEOUT_MS },
            ));
          } else {
            ({
              text,
              words: counts,
              simhash: hash,
            } = await this.mainText(body, row.content_type, method, true));
          }
          words.set(row.id, WordCounter.fromJSON(counts));
          texts.push({ pageId: row.id, text, simhash: hash });
          textChars += text?.length ?? 0;
        } catch (error) {
          // a pool that is closing or full is this process's state, not the page's: the job is retried
          if (error instanceof TrawlError && error.code === 'unavailable') throw error;
          unreadable.push(row.id);
          onFault?.({ pageId: row.id, reason: TEXT_FAILURE.unreadable, error });
        }
        if (textChars >= TEXT_SAVE_MAX_CHARS) await save();
      }
      result.pagesFailed += await repository.markTextFailed(unreadable, TEXT_FAILURE.unreadable);
      await save();
    }
    // a recrawl's changed pages whose texts could not be compared as they were stored
    if (crawl.request.recrawl) await repository.compareLeftChangedTexts(crawlId, signal);
    return result;
  }

  /** Stores a batch's texts and counts their words; a page the database refuses is marked as not counted. */
  private async saveBatch(
    crawlId: string,
    nearDistance: number | null,
    texts: PageText[],
    words: Map<number, WordCounter>,
    cache: CounterCache,
    result: CountTextResult,
    onFault: TextFaultListener | undefined,
  ): Promise<void> {
    try {
      result.pagesCounted += await this.saveTexts(crawlId, nearDistance, texts, words, cache);
    } catch {
      // One page the database refuses must not hold back its batch: store them one by one, and mark the
      // page that still fails as not counted. (When the database itself is away, marking fails too, and
      // the job is retried later.)
      for (const text of texts) {
        try {
          result.pagesCounted += await this.saveTexts(crawlId, nearDistance, [text], words, cache);
        } catch (error) {
          onFault?.({ pageId: text.pageId, reason: TEXT_FAILURE.internal, error });
          result.pagesFailed += await this.options.repository.markTextFailed(
            [text.pageId],
            TEXT_FAILURE.internal,
          );
        }
      }
    }
  }

  /** Stores `texts` and adds their words to the crawl's counter, once per page; returns the pages counted. */
  private async saveTexts(
    crawlId: string,
    nearDistance: number | null,
    texts: PageText[],
    words: Map<number, WordCounter>,
    cache: CounterCache,
  ): Promise<number> {
    if (texts.length === 0) return 0;
    try {
      const saved = await this.options.repository.saveTexts(
        crawlId,
        texts,
        nearDistance,
        new WordCounter().toJSON(),
        async ({ version, load, markedPageIds }) => {
          // pagesCounted grows with every store, so it versions the row: reload when another run stored
          if (!cache.counter || cache.version?.pagesCounted !== version.pagesCounted) {
            cache.counter = WordCounter.fromJSON(await load());
          }
          const counter = cache.counter;
          for (const pageId of markedPageIds) {
            const pageWords = words.get(pageId);
            if (pageWords) counter.merge(pageWords);
          }
          return {
            totalWords: counter.totalWords,
            distinctWords: counter.distinctWords,
            counts: counter.toJSON(),
          };
        },
      );
      if (saved.marked > 0) cache.version = saved.version;
      return saved.marked;
    } catch (error) {
      // the transaction rolled back: the in-memory counter may hold words that were not stored
      cache.counter = null;
      throw error;
    }
  }

  /** Word counter, progress and completeness of a crawl; queues the text job when pages wait for it. */
  private async current(crawlId: string, scope: TenantScope) {
    const crawl = await this.require(crawlId, scope);
    const settings = textSettings(crawl.request);
    if (!settings.enabled) {
      throw new TrawlError('conflict', `crawl ${crawlId} was started with extract.enabled: false`, {
        field: 'extract.enabled',
      });
    }
    if (!settings.storeHtml) {
      throw new TrawlError('conflict', `crawl ${crawlId} keeps no page bodies (store.html: false)`, {
        field: 'store.html',
      });
    }
    // Progress first, then the counter: a page not pending at the first read is in the counter at the second,
    // since marking a page and counting its words commit together.
    const progress = await this.options.repository.textProgress(crawlId);
    const row = await this.options.repository.wordStats(crawlId);
    const counter = row ? WordCounter.fromJSON(row.counts) : new WordCounter();
    const pagesCounted = row?.pages_counted ?? 0;
    if (progress.pendingPages > 0) {
      await queueCrawlText(this.options.jobs, crawlId, 'refresh');
    }
    const failedPages =
      progress.failedPages > 0 ? await this.options.repository.failedTexts(crawlId, FAILED_PAGES_LISTED) : [];
    return {
      counter,
      method: settings.method,
      pagesCounted,
      htmlPages: progress.htmlPages,
      documentPages: progress.documentPages,
      pagesFailed: progress.failedPages,
      failedPages,
      complete: isFinished(crawl.status) && progress.pendingPages === 0,
    };
  }

  async words(crawlId: string, top: number, scope: TenantScope): Promise<WordStats> {
    const { counter, method, pagesCounted, htmlPages, documentPages, pagesFailed, failedPages, complete } =
      await this.current(crawlId, scope);
    return {
      totalWords: counter.totalWords,
      distinctWords: counter.distinctWords,
      pagesCounted,
      htmlPages,
      documentPages,
      pagesFailed,
      failedPages,
      complete,
      method,
      words: counter.top(top),
    };
  }

  /** Rank–frequency of the top `top` words on log–log axes, with Zipf's ideal 0.1·N/r. */
  async wordsSvg(crawlId: string, top: number, scope: TenantScope): Promise<string> {
    const { counter } = await this.current(crawlId, scope);
    return zipfPlotSvg(counter.top(top), counter.totalWords);
  }

  /** Load time and queue wait (fetched − queued) distributions of the crawl's fetched pages. */
  async loadTimesSvg(crawlId: string, scope: TenantScope): Promise<string> {
    await this.require(crawlId, scope);
    const { loadMs, queueWaitMs } = await this.options.repository.loadTimes(crawlId);
    return distributionPlotSvg(
      [
        { name: 'load time', valuesMs: loadMs },
        { name: 'queue wait', valuesMs: queueWaitMs },
      ],
      { title: `Load time and queue wait (${loadMs.length} pages fetched)`, xLabel: 'time' },
    );
  }

  /**
   * Main text of one page: as stored (by the crawl as it fetched the page, or by the text job), or extracted now
   * (and not stored, so the job still counts it once) when neither has. Null when the page has no stored body.
   */
  async pageText(crawl: CrawlRow, pageId: number): Promise<string | null> {
    const row = await this.options.repository.pageText(crawl.id, pageId, TEXT_STORED_MAX_BYTES);
    if (!row) throw new TrawlError('not_found', `crawl ${crawl.id} has no page ${pageId}`);
    if (row.text_extracted_at) return row.main_text ?? '';
    // A text read as the page was fetched (a document's, an HTML page's), waiting to be counted: the statement
    // reads no body beside it. Null: a page with no stored body.
    const body = storedBody(row.html, row.html_gzip);
    if (body === null || row.type === 'BINARY') return row.main_text;
    // as the job would store it
    const { method } = textSettings(crawl.request);
    return pgSafeText((await this.mainText(body, row.content_type, method, false)).text);
  }
}
