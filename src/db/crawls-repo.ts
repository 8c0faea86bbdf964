// Reads and writes of the crawl aggregate that the API needs (the engine's writes are in crawl-store.ts).
// A crawl's request is read back normalized here, once, so no reader re-fills a default.
import type pg from 'pg';
import { type NormalizedCrawlRequest, readStoredCrawlRequest } from '../crawler/crawl-request.js';
import type { CrawlProblem } from '../crawler/engine/crawl-outcome.js';
import type { SkippedUrl } from '../crawler/engine/ports.js';
import { CHANGE_CLASSES, type ChangeClass } from '../crawler/vocabulary.js';
import { prepared, sql } from './sql.js';
import { INTERNAL_SCOPE, scopeParams, type TenantScope } from './tenant-scope.js';
import { withTransaction } from './transaction.js';

export interface CrawlRow {
  id: string;
  /** As normalizeCrawlRequest stored it; a row stored before a field existed reads with its default. */
  request: NormalizedCrawlRequest;
  strategy: string;
  status: string;
  max_pages: number;
  error: string | null;
  /** A failed crawl's RFC 9457 problem, with the reason for each seed, when no seed could be fetched. */
  problem: CrawlProblem | null;
  /** Why a completed crawl fetched nothing, or stopped early. */
  warnings: string[];
  /** Why it stopped before its frontier ran out when its request did not say so (`quota`); null otherwise. */
  stop_reason?: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  /** The API key that made the crawl; null when it was made while the service ran open. */
  owner: string | null;
  /** Pages scored at or above the crawl's relevance threshold (focused crawls). */
  relevant_pages: number;
  /** A finished crawl's timing percentiles, kept after its first status read (crawl_timings_save.sql). */
  timings?: CrawlTimings | null;
  /** The schedule whose run made it (null: none, or the schedule was deleted). */
  schedule_id?: string | null;
  /** A finished crawl's storage, kept after its first status read (crawl_storage_save.sql). */
  storage?: CrawlStorage | null;
}

/** What a crawl stores (crawl_storage.sql): bytes as stored (compressed), rows of pages and links. */
export interface CrawlStorage {
  page_rows: number;
  link_rows: number;
  body_bytes: number;
  warc_body_bytes: number;
  screenshot_bytes: number;
  measured_at: Date;
  /** Bodies the text job has not read yet (it rewrites their rows); absent in a kept figure (it was 0). */
  text_pending?: number;
}

/** Load-time and queue-wait medians and p95 (ms) of a crawl's fetched pages, and its last fetch. */
export interface CrawlTimings {
  load_p50: number | null;
  load_p95: number | null;
  wait_p50: number | null;
  wait_p95: number | null;
  last_fetched_at: Date | null;
}

/** Pages of a crawl with one type and HTTP status (null: none). */
export interface CrawlCountRow {
  type: string;
  status: number | null;
  n: number;
}

/** One crawl of the list: how it ended, and its pages by type and status. */
export type CrawlListRow = Pick<
  CrawlRow,
  'id' | 'request' | 'status' | 'created_at' | 'finished_at' | 'owner' | 'error' | 'warnings'
> & { counts: CrawlCountRow[] };

/** Links, images and binary documents a crawl's pages hold, and a recrawl's pages by change class. */
export interface CrawlFound {
  links: number;
  images: number;
  documents: number;
  /** Null: not a recrawl. */
  changes?: ChangeCounts | null;
  /** Pages marked nearDuplicateOf an earlier page; null: the crawl does not look for near-duplicates. */
  nearDuplicates?: number | null;
}

/** A recrawl's pages by change class (docs/reference.md#change-classes). */
export type ChangeCounts = Record<ChangeClass, number>;

/** Every class counted, those with no page at 0. */
function changeCounts(stored: Partial<ChangeCounts>): ChangeCounts {
  return Object.fromEntries(CHANGE_CLASSES.map((change) => [change, stored[change] ?? 0])) as ChangeCounts;
}

/** Thrown by create() when the key already has its cap of queued and running crawls. */
export class ActiveCrawlLimitError extends Error {
  constructor(readonly active: number) {
    super(`the key already has ${active} crawls queued or running`);
    this.name = 'ActiveCrawlLimitError';
  }
}

export interface PageRow {
  id: number;
  url: string;
  canonical_url: string;
  final_url: string | null;
  type: string;
  status: number | null;
  content_type: string | null;
  bytes: number | null;
  depth: number;
  sha256: string | null;
  load_ms: number | null;
  queued_at: Date;
  fetched_at: Date | null;
  duplicate_of: number | null;
  discovered_from: number | null;
  title: string | null;
  error: string | null;
  score: number | null;
  /** One of the first maxResults relevant pages of a focused crawl (its result list). */
  result: boolean;
  /** The weight it was queued with (docs/reference.md#weighted-queue): the frontier's order. */
  priority: number;
  crawl_id: string;
  /** How it was read in a crawl that renders (docs/reference.md#rendering). */
  rendered: boolean;
  render_reason: string | null;
  fetch_ms: number | null;
  render_ms: number | null;
  render_note: string | null;
  navigated_from: string | null;
  has_screenshot: boolean;
  /** A recrawl's page: the earlier crawl's page of its URL, and what changed (migrations/0045). */
  previous_page: number | null;
  body_of: number | null;
  change: ChangeClass | null;
  text_changed: boolean | null;
  similarity: number | null;
  /** Its main text's simhash (16 hex digits) and the earlier page it nearly duplicates (migrations/0050). */
  simhash: string | null;
  near_duplicate_of: number | null;
}

/** A recrawl's page it never reached, with the earlier crawl's page (recrawl_missing.sql). */
export interface MissingPageRow {
  id: number;
  url: string;
  type: string;
  error: string | null;
  previous_page: number;
  previous_crawl: string;
  previous_type: string;
  previous_status: number | null;
  previous_fetched_at: Date | null;
}

/** What a WARC export reads of a page beside its row (export_responses.sql). */
export interface StoredResponseRow {
  id: string;
  truncated: boolean;
  /** The redirects followed (or refused) on the way, in order: each hop's URL and 3xx status. */
  redirects: Array<{ url: string; status: number }> | null;
  /** [[name, value], …] as received; null: not kept (store.html and store.warc off, or before they were) */
  headers: Array<[string, string]> | null;
  /** The stored body: raw, or gzip for a row written before raw bodies (the other is null). */
  body: Buffer | null;
  body_gzip: Buffer | null;
  /** A copy of another page's body: that page (id, URL after redirects, fetch time). */
  original_id: string | null;
  original_url: string | null;
  original_fetched_at: Date | null;
  /** A recrawl's 304, which stored no body: the page whose body it has (id, URL after redirects, fetch time). */
  body_of: string | null;
  body_of_url: string | null;
  body_of_fetched_at: Date | null;
}

/** A row as PostgreSQL gives it: the request as it was stored, perhaps by an older release. */
type AsStored<Row extends { request: NormalizedCrawlRequest }> = Omit<Row, 'request'> & { request: unknown };

/** The row with its request read back (readStoredCrawlRequest): every field there, defaults filled in. */
function readRequest<Row extends { request: NormalizedCrawlRequest }>(row: AsStored<Row>): Row {
  return { ...row, request: readStoredCrawlRequest(row.request) } as Row;
}

export class CrawlsRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Creates the crawl with its seed sites, slots and FRONTIER pages in one transaction. */
  async create(crawl: {
    id: string;
    request: NormalizedCrawlRequest;
    strategy: string;
    maxPages: number;
    seeds: Array<{ url: string; origin: string }>;
    slotsPerHost: number;
    /** A recrawl: the earlier crawl, and the priority its pages are queued at (seeds included). */
    recrawl?: { of: string; priority: number } | null;
    /** The key making it (null when open) and, for a key, its cap of queued + running crawls (0: none). */
    owner?: string | null;
    maxActivePerOwner?: number;
    /** The schedule whose run this crawl is (null: none). */
    scheduleId?: string | null;
  }): Promise<CrawlRow> {
    await withTransaction(this.pool, async (client) => {
      const owner = crawl.owner ?? null;
      if (owner && crawl.maxActivePerOwner) {
        await client.query(sql('crawl_owner_lock'), [owner]);
        const active = (await client.query<{ n: number }>(sql('crawl_count_active'), [owner])).rows[0]!.n;
        if (active >= crawl.maxActivePerOwner) throw new ActiveCrawlLimitError(active);
      }
      await client.query(sql('crawl_insert'), [
        crawl.id,
        JSON.stringify(crawl.request),
        crawl.strategy,
        crawl.maxPages,
        owner,
        crawl.recrawl?.of ?? null,
        crawl.scheduleId ?? null,
      ]);
      const recrawl = crawl.recrawl ?? null;
      const earlierOrigins = recrawl
        ? (await client.query<{ origin: string }>(sql('recrawl_origins'), [recrawl.of])).rows.map(
            (r) => r.origin,
          )
        : [];
      const origins = [...new Set([...crawl.seeds.map((seed) => seed.origin), ...earlierOrigins])];
      const created = await client.query<{ id: number; origin: string }>(sql('sites_ensure'), [
        crawl.id,
        origins,
        crawl.slotsPerHost,
      ]);
      const siteIds = new Map(created.rows.map((row) => [row.origin, row.id]));
      await client.query(sql('pages_enqueue'), [
        crawl.id,
        null,
        crawl.seeds.map((seed) => seed.url),
        crawl.seeds.map((seed) => siteIds.get(seed.origin)),
        crawl.seeds.map(() => 0),
        crawl.seeds.map(() => recrawl?.priority ?? 0),
        crawl.seeds.map(() => null),
      ]);
      // a recrawl's seeds come first, then the pages the earlier crawl fetched, in its order
      if (recrawl) await client.query(sql('recrawl_enqueue'), [crawl.id, recrawl.of, recrawl.priority]);
    });
    const row = await this.get(crawl.id, INTERNAL_SCOPE);
    if (!row) throw new Error(`crawl ${crawl.id} vanished after insert`);
    return row;
  }

  /** The crawl, or null when there is none or it belongs to another owner. */
  async get(id: string, scope: TenantScope): Promise<CrawlRow | null> {
    const row = (await this.pool.query<AsStored<CrawlRow>>(sql('crawl_get'), [id, ...scopeParams(scope)]))
      .rows[0];
    return row ? readRequest(row) : null;
  }

  /** Removes a crawl no runner has started; false when one has (it is then left to run). */
  async deleteQueued(id: string): Promise<boolean> {
    return ((await this.pool.query(sql('crawl_delete_queued'), [id])).rowCount ?? 0) > 0;
  }

  async list(limit: number, after: { createdAt: string; id: string } | null, scope: TenantScope) {
    const result = await this.pool.query<AsStored<CrawlListRow>>(sql('crawl_list'), [
      after?.createdAt ?? null,
      after?.id ?? null,
      limit,
      ...scopeParams(scope),
    ]);
    return result.rows.map(readRequest);
  }

  async cancel(id: string): Promise<boolean> {
    const result = await this.pool.query(sql('crawl_cancel'), [id]);
    if (result.rowCount === 0) return false;
    await this.pool.query(sql('crawl_release_leases'), [id]);
    return true;
  }

  /**
   * A crawl's row, its page counts and what its pages hold, in one prepared statement (crawl_status.sql);
   * null when it does not exist or `scope` may not see it.
   */
  async status(id: string, scope: TenantScope) {
    const result = await this.pool.query<
      AsStored<CrawlRow> & {
        counts: CrawlCountRow[];
        changes: ChangeCounts | null;
        near_duplicates: number | null;
      } & Omit<CrawlFound, 'changes' | 'nearDuplicates'>
    >(prepared('crawl_status', [id, ...scopeParams(scope)]));
    const found = result.rows[0];
    if (!found) return null;
    const { counts, links, images, documents, changes, near_duplicates, ...row } = found;
    return {
      row: readRequest<CrawlRow>(row),
      counts,
      found: {
        links,
        images,
        documents,
        changes: changes ? changeCounts(changes) : null,
        nearDuplicates: near_duplicates,
      },
    };
  }

  /** The crawl's status name alone, or null when there is no such crawl (any tenant's). */
  async currentStatus(id: string): Promise<string | null> {
    const result = await this.pool.query<{ status: string }>(prepared('crawl_current_status', [id]));
    return result.rows[0]?.status ?? null;
  }

  /**
   * The timing percentiles: `stored` (a finished crawl's, kept) or computed now from its pages (a scan of its
   * fetched pages). `computed` says which, so the caller can keep them.
   */
  async timings(id: string, stored: CrawlTimings | null = null) {
    if (stored) return { ...stored, last_fetched_at: dateOrNull(stored.last_fetched_at), computed: false };
    const computed = (await this.pool.query<CrawlTimings>(sql('crawl_totals'), [id])).rows[0]!;
    return { ...computed, computed: true };
  }

  /** What the crawl stores, measured now (a scan of its pages: crawl_storage.sql). */
  async storage(id: string): Promise<CrawlStorage> {
    const row = (await this.pool.query<Record<keyof CrawlStorage, string | Date>>(sql('crawl_storage'), [id]))
      .rows[0]!;
    return storageOf(row);
  }

  /** Keeps a finished crawl's storage; a crawl that is not finished is left alone. */
  async saveStorage(id: string, storage: CrawlStorage): Promise<void> {
    await this.pool.query(sql('crawl_storage_save'), [id, JSON.stringify(storage)]);
  }

  /** Keeps a finished crawl's timings; a crawl that is not finished is left alone. */
  async saveTimings(id: string, timings: CrawlTimings): Promise<void> {
    await this.pool.query(sql('crawl_timings_save'), [id, JSON.stringify(timings)]);
  }

  async pages(
    id: string,
    filter: {
      afterId: number;
      type: string | null;
      status: number | null;
      host: string | null;
      limit: number;
      /** Sort by score, best first; the cursor then carries the last score too. */
      byScore: boolean;
      afterScore: number | null;
      minScore: number | null;
      /** Only results (true), only other pages (false), or all (null). */
      result: boolean | null;
      /** A recrawl's pages of one change class (null: all). */
      change?: string | null;
    },
  ): Promise<PageRow[]> {
    const result = await this.pool.query<PageRow>(
      sql(filter.byScore ? 'pages_list_by_score' : 'pages_list'),
      [
        id,
        filter.afterId,
        filter.type,
        filter.status,
        filter.host,
        filter.limit,
        filter.minScore,
        filter.result,
        ...(filter.byScore ? [filter.afterScore] : []),
        filter.change ?? null,
      ],
    );
    return result.rows;
  }

  /** A recrawl's earlier pages it never reached (recrawl_missing.sql), in id order after `afterId`. */
  async missingPages(crawlId: string, afterId: number, limit: number): Promise<MissingPageRow[]> {
    return (await this.pool.query<MissingPageRow>(sql('recrawl_missing'), [crawlId, afterId, limit])).rows;
  }

  async page(crawlId: string, pageId: number) {
    const result = await this.pool.query<
      PageRow & {
        redirects: Array<{ url: string; status: number }> | null;
        truncated: boolean;
        skipped: SkippedUrl[] | null;
      }
    >(sql('page_get'), [crawlId, pageId]);
    return result.rows[0] ?? null;
  }

  async pageOutlinks(pageId: number) {
    return (
      await this.pool.query<{ to_page: number; url: string; anchor: string }>(sql('page_outlinks'), [pageId])
    ).rows;
  }

  async pageImages(pageId: number) {
    return (await this.pool.query<{ url: string; alt: string }>(sql('page_images'), [pageId])).rows;
  }

  async pageDocument(pageId: number) {
    const result = await this.pool.query<{
      data_type: string;
      content_type: string | null;
      bytes: number | null;
    }>(sql('page_document'), [pageId]);
    return result.rows[0] ?? null;
  }

  /** Outgoing links of a batch of pages (an export's include=links). */
  async batchLinks(pageIds: number[]) {
    return (
      await this.pool.query<{ from_page: string; url: string; anchor: string }>(sql('export_links'), [
        pageIds,
      ])
    ).rows;
  }

  async batchImages(pageIds: number[]) {
    return (
      await this.pool.query<{ page_id: string; url: string; alt: string }>(sql('export_images'), [pageIds])
    ).rows;
  }

  /** Stored bodies and main texts of a batch of pages, each only when asked. */
  async batchContents(pageIds: number[], want: { html: boolean; text: boolean }) {
    return (
      await this.pool.query<{
        page_id: string;
        html: Buffer | null;
        html_gzip: Buffer | null;
        main_text: string | null;
      }>(sql('export_contents'), [pageIds, want.html, want.text])
    ).rows;
  }

  /**
   * An export's included bodies and texts, bounded: for pages `pageIds` in id order, as many as fit
   * `limits.batchBytes` past the first, each with its stored body's first `limits.bodyBytes` and its main
   * text's first `limits.textChars` characters (`text_cut`: it went on). The caller asks again for the rest.
   */
  async boundedContents(
    pageIds: number[],
    want: { html: boolean; text: boolean },
    limits: { bodyBytes: number; textChars: number; batchBytes: number },
  ) {
    return (
      await this.pool.query<{
        page_id: string;
        html: Buffer | null;
        html_gzip: Buffer | null;
        main_text: string | null;
        text_cut: boolean;
      }>(sql('export_body_contents'), [
        pageIds,
        want.html,
        want.text,
        limits.bodyBytes,
        limits.textChars,
        limits.batchBytes,
      ])
    ).rows;
  }

  /** A WARC export's batch (export_responses.sql): each page's headers, stored body and the page it repeats. */
  async batchResponses(pageIds: number[]): Promise<StoredResponseRow[]> {
    return (await this.pool.query<StoredResponseRow>(sql('export_responses'), [pageIds])).rows;
  }

  /** A rendered page's screenshot (PNG), or null when none was stored. */
  async pageScreenshot(crawlId: string, pageId: number): Promise<Buffer | null> {
    const result = await this.pool.query<{ png: Buffer }>(sql('page_screenshot'), [crawlId, pageId]);
    return result.rows[0]?.png ?? null;
  }

  /** A page's stored body: raw, or gzip for a row written before raw bodies (the other is null). */
  async pageHtml(pageId: number): Promise<{ html: Buffer | null; html_gzip: Buffer | null } | null> {
    const result = await this.pool.query<{ html: Buffer | null; html_gzip: Buffer | null }>(
      sql('page_html'),
      [pageId],
    );
    return result.rows[0] ?? null;
  }

  async hosts(crawlId: string, limit: number) {
    const result = await this.pool.query<{
      origin: string;
      robots_status: number | null;
      robots_error: string | null;
      crawl_delay_ms: number | null;
      pages: number;
      html: number;
      binary: number;
      duplicate: number;
      invalid: number;
      disallowed: number;
      frontier: number;
      requests: number;
      load_p50: number | null;
      load_p95: number | null;
      first_fetched_at: Date | null;
      last_fetched_at: Date | null;
    }>(sql('crawl_hosts'), [crawlId, limit]);
    return result.rows;
  }

  /**
   * The crawl's link graph, its vertices (in page id order) and then its edges (by source and target id) handed
   * to `sink` in batches of GRAPH_BATCH_ROWS rows: both read through cursors in one read-only snapshot, so a
   * running crawl's edges end at vertices that are listed, and a big crawl's rows are never all in memory at
   * once as objects. `fetchedOnly`: a graph of fetched pages, without the frontier (a topic crawl capped by
   * pages fetched).
   */
  async readGraph(crawlId: string, fetchedOnly: boolean, sink: GraphRowSink): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      await client.query(sql('graph_vertices_declare'), [crawlId, fetchedOnly]);
      await client.query(sql('graph_edges_declare'), [crawlId, fetchedOnly]);
      for (;;) {
        const { rows } = await client.query<GraphVertexRow>(`FETCH ${GRAPH_BATCH_ROWS} FROM graph_vertices`);
        if (rows.length === 0) break;
        sink.vertices(rows);
      }
      for (;;) {
        const { rows } = await client.query<GraphEdgeRow>(`FETCH ${GRAPH_BATCH_ROWS} FROM graph_edges`);
        if (rows.length === 0) break;
        sink.edges(rows);
      }
    });
  }
}

/** Rows per FETCH of a graph's cursors: a batch's objects are garbage by the next one. */
const GRAPH_BATCH_ROWS = 10_000;

export interface GraphVertexRow {
  id: number;
  url: string;
}

export interface GraphEdgeRow {
  from_page: number;
  to_page: number;
}

/** Where readGraph hands its batches: all vertices first, then all edges. */
export interface GraphRowSink {
  vertices(rows: readonly GraphVertexRow[]): void;
  edges(rows: readonly GraphEdgeRow[]): void;
}

/** A storage row as PostgreSQL (bigint as text) or a kept jsonb document (dates as strings) gives it. */
export function storageOf(row: Partial<Record<keyof CrawlStorage, unknown>>): CrawlStorage {
  return {
    page_rows: Number(row.page_rows),
    link_rows: Number(row.link_rows),
    body_bytes: Number(row.body_bytes),
    warc_body_bytes: Number(row.warc_body_bytes),
    screenshot_bytes: Number(row.screenshot_bytes),
    ...(row.text_pending !== undefined ? { text_pending: Number(row.text_pending) } : {}),
    measured_at: dateOrNull(row.measured_at as Date | string) ?? new Date(0),
  };
}

/** jsonb gives a kept Date back as its ISO string. */
function dateOrNull(value: Date | string | null): Date | null {
  return value === null ? null : value instanceof Date ? value : new Date(value);
}
