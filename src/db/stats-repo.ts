// Reads and writes of a crawl's text statistics: the main text of its pages (page_contents.main_text) and its
// word counter (crawl_word_stats). Counting is exactly-once: a page's text is marked and its words are added in
// one transaction that holds the counter row's lock, and only the pages that transaction marked are added.
import type pg from 'pg';
import { pgSafeText } from '../crawler/text/pg-safe.js';
import { compareTexts } from '../crawler/text/simhash.js';
import { sql } from './sql.js';
import { withTransaction } from './transaction.js';

/**
 * Stored body bytes one text batch reads at most, past its first page: a hundred huge pages in one result
 * would take the worker out of memory, and then each worker that retakes the job.
 */
const TEXT_BATCH_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Changed recrawl pages compared per statement when the text job sweeps those left (two main texts each). */
const COMPARE_BATCH_PAGES = 100;

/** A page waiting for the text job: an HTML page's stored body (its first bytes), or a document's text read as it was fetched. */
export interface PendingTextRow {
  id: number;
  type: 'HTML' | 'BINARY';
  content_type: string | null;
  /** The stored body's first bytes: raw, or gzip for a row written before raw bodies (the other is null). */
  html: Buffer | null;
  html_gzip: Buffer | null;
  main_text: string | null;
}

export interface WordStatsRow {
  total_words: number;
  distinct_words: number;
  pages_counted: number;
  /** WordCounter.toJSON() as stored. */
  counts: unknown;
  updated_at: Date;
}

/** Where the stored counter stands: a writer that last saw this state may reuse its in-memory counter. */
export interface WordStatsVersion {
  pagesCounted: number;
  totalWords: number;
  updatedAt: number;
}

export interface PageTextRow {
  type: string;
  content_type: string | null;
  main_text: string | null;
  text_extracted_at: Date | null;
  /** The stored body's first bytes (raw, or gzip for older rows), only while its text is not extracted yet. */
  html: Buffer | null;
  html_gzip: Buffer | null;
}

export interface CounterUpdate {
  /** Total words, distinct words and the counts document after adding `pages`. */
  totalWords: number;
  distinctWords: number;
  counts: unknown;
}

function versionOf(row: { pages_counted: number; total_words: number; updated_at: Date }): WordStatsVersion {
  return {
    pagesCounted: row.pages_counted,
    totalWords: row.total_words,
    updatedAt: row.updated_at.getTime(),
  };
}

/** A page's main text as the text job stores it, with its simhash (null: a document, or no kept word). */
export interface PageText {
  pageId: number;
  /** Null: the text stored as the page was fetched stays as it is. */
  text: string | null;
  simhash: string | null;
}

export class StatsRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Up to `limit` pages after `afterId` whose text is not counted yet: HTML pages with the first `bodyBytes`
   * of their stored body, documents with their text.
   */
  async pendingText(
    crawlId: string,
    afterId: number,
    limit: number,
    bodyBytes: number,
  ): Promise<PendingTextRow[]> {
    // bigint ids arrive as numbers (database.ts sets the int8 parser)
    return (
      await this.pool.query<PendingTextRow>(sql('stats_text_pending'), [
        crawlId,
        afterId,
        limit,
        TEXT_BATCH_MAX_BODY_BYTES,
        bodyBytes,
      ])
    ).rows;
  }

  /**
   * Stores the texts of pages not yet marked and folds exactly those pages into the crawl's counter, in one
   * transaction under the counter's row lock. `fold` gets the stored counter's version (and loads its counts
   * through `load` only if it needs them) and the ids this call marked; it returns the counter to store.
   */
  async saveTexts(
    crawlId: string,
    texts: PageText[],
    nearDistance: number | null,
    emptyCounts: unknown,
    fold: (input: {
      version: WordStatsVersion;
      load: () => Promise<unknown>;
      markedPageIds: number[];
    }) => Promise<CounterUpdate>,
  ): Promise<{ marked: number; version: WordStatsVersion }> {
    return withTransaction(this.pool, async (client) => {
      await client.query(sql('stats_words_ensure'), [crawlId, JSON.stringify(emptyCounts)]);
      const locked = await client.query<{ pages_counted: number; total_words: number; updated_at: Date }>(
        sql('stats_words_lock'),
        [crawlId],
      );
      const version = versionOf(locked.rows[0]!);
      const marked = await client.query<{ page_id: number }>(sql('stats_text_save'), [
        texts.map((t) => t.pageId),
        texts.map((t) => (t.text === null ? null : pgSafeText(t.text))),
      ]);
      const markedPageIds = marked.rows.map((row) => row.page_id);
      if (markedPageIds.length === 0) return { marked: 0, version };
      await compareChangedTexts(client, markedPageIds);
      await saveSimhashes(client, crawlId, texts, new Set(markedPageIds), nearDistance);
      const update = await fold({
        version,
        load: async () =>
          (await client.query<WordStatsRow>(sql('stats_words_get'), [crawlId])).rows[0]?.counts,
        markedPageIds,
      });
      const saved = await client.query<{ pages_counted: number; total_words: number; updated_at: Date }>(
        sql('stats_words_save'),
        [
          crawlId,
          update.totalWords,
          update.distinctWords,
          JSON.stringify(update.counts),
          markedPageIds.length,
        ],
      );
      return { marked: markedPageIds.length, version: versionOf(saved.rows[0]!) };
    });
  }

  /**
   * Marks pages the text job could not count as done, without text or words, so no run retries them and the
   * statistics can be complete. Returns how many this call marked (a concurrent run may have done others).
   */
  async markTextFailed(pageIds: number[], reason: string): Promise<number> {
    if (pageIds.length === 0) return 0;
    const result = await this.pool.query(sql('stats_text_fail'), [pageIds, reason]);
    return result.rowCount ?? 0;
  }

  /** Up to `limit` pages of the crawl the text job could not count, with the reason. */
  async failedTexts(crawlId: string, limit: number): Promise<Array<{ pageId: number; error: string }>> {
    const result = await this.pool.query<{ page_id: number; text_error: string }>(sql('stats_text_failed'), [
      crawlId,
      limit,
    ]);
    return result.rows.map((row) => ({ pageId: row.page_id, error: row.text_error }));
  }

  /**
   * Compares the changed pages of a recrawl whose texts were not compared as they were stored (their class came
   * after their text, or the earlier text after both), a batch at a time; returns how many it compared.
   */
  async compareLeftChangedTexts(crawlId: string, signal?: AbortSignal): Promise<number> {
    let compared = 0;
    let afterId = 0;
    while (!signal?.aborted) {
      const rows = (
        await this.pool.query<TextsToCompare>(sql('recrawl_texts_uncompared'), [
          crawlId,
          afterId,
          COMPARE_BATCH_PAGES,
        ])
      ).rows;
      if (rows.length === 0) break;
      afterId = rows[rows.length - 1]!.page_id;
      await saveComparisons(this.pool, rows);
      compared += rows.length;
    }
    return compared;
  }

  async wordStats(crawlId: string): Promise<WordStatsRow | null> {
    return (await this.pool.query<WordStatsRow>(sql('stats_words_get'), [crawlId])).rows[0] ?? null;
  }

  async textProgress(
    crawlId: string,
  ): Promise<{ htmlPages: number; documentPages: number; pendingPages: number; failedPages: number }> {
    const row = (
      await this.pool.query<{
        html_pages: number;
        document_pages: number;
        pending_pages: number;
        failed_pages: number;
      }>(sql('stats_text_progress'), [crawlId])
    ).rows[0]!;
    return {
      htmlPages: row.html_pages,
      documentPages: row.document_pages,
      pendingPages: row.pending_pages,
      failedPages: row.failed_pages,
    };
  }

  /** One page's text, or the first `bodyBytes` of its stored body while its text is not extracted. */
  async pageText(crawlId: string, pageId: number, bodyBytes: number): Promise<PageTextRow | null> {
    return (
      (await this.pool.query<PageTextRow>(sql('stats_page_text'), [crawlId, pageId, bodyBytes])).rows[0] ??
      null
    );
  }

  /** Load time and queue wait (ms) of every fetched page, as parallel arrays. */
  async loadTimes(crawlId: string): Promise<{ loadMs: number[]; queueWaitMs: number[] }> {
    const result = await this.pool.query<{ load_ms: number; wait_ms: string | number | null }>(
      sql('stats_load_times'),
      [crawlId],
    );
    const loadMs: number[] = [];
    const queueWaitMs: number[] = [];
    for (const row of result.rows) {
      loadMs.push(row.load_ms);
      if (row.wait_ms !== null) queueWaitMs.push(Math.max(0, Number(row.wait_ms)));
    }
    return { loadMs, queueWaitMs };
  }
}

/**
 * A recrawl's changed pages among `pageIds`, whose main text was just stored, compared with the earlier texts
 * (textChanged, similarity: docs/reference.md#change-classes). A page whose earlier text is not stored yet
 * keeps nulls until compareLeftChangedTexts finds it; the diff endpoint compares the two texts when asked.
 */
async function compareChangedTexts(client: pg.PoolClient, pageIds: number[]): Promise<void> {
  const rows = (await client.query<TextsToCompare>(sql('recrawl_texts_to_compare'), [pageIds])).rows;
  await saveComparisons(client, rows);
}

/**
 * Stores the simhashes of the pages this run marked and, with `nearDistance`, marks the near-duplicates among
 * them and the crawl's pages stored before (docs/reference.md#near-duplicates). Called under the crawl's counter
 * lock, so every page is compared with every page stored before it.
 */
async function saveSimhashes(
  client: pg.PoolClient,
  crawlId: string,
  texts: PageText[],
  marked: ReadonlySet<number>,
  nearDistance: number | null,
): Promise<void> {
  const hashed = texts.filter((t) => t.simhash !== null && marked.has(t.pageId));
  if (hashed.length === 0) return;
  const pageIds = hashed.map((t) => t.pageId);
  await client.query(sql('simhashes_save'), [crawlId, pageIds, hashed.map((t) => t.simhash)]);
  if (nearDistance !== null)
    await client.query(sql('near_duplicates_mark'), [crawlId, pageIds, nearDistance]);
}

/** Both main texts of a changed recrawl page. */
interface TextsToCompare {
  page_id: number;
  main_text: string;
  earlier_text: string;
}

async function saveComparisons(client: pg.Pool | pg.PoolClient, rows: TextsToCompare[]): Promise<void> {
  if (rows.length === 0) return;
  const compared = rows.map((row) => compareTexts(row.earlier_text, row.main_text));
  await client.query(sql('recrawl_text_changes_save'), [
    rows.map((row) => row.page_id),
    compared.map((c) => c.textChanged),
    compared.map((c) => c.similarity),
  ]);
}
