// The crawl engine's CrawlStore port on PostgreSQL. Workers coordinate only through these rows: leases with
// FOR UPDATE SKIP LOCKED (job-queue's habit), politeness slots per host, and the crawl row's page budget.
// Every string a crawl read from the web passes pgSafeText (or pgSafeJson) here, once, on its way in.
import type pg from 'pg';
import type { SeedPage, SeedReport } from '../crawler/engine/crawl-outcome.js';
import { linksToQueue } from '../crawler/engine/link-selection.js';
import type {
  ChangeRecord,
  ClaimedPage,
  ClaimResult,
  CrawlEndNotes,
  CrawlStore,
  DiscoveredUrl,
  FrontierLimits,
  PageOutcome,
  PageRenderRecord,
  RecordedDisallowed,
  StoredRobots,
} from '../crawler/engine/ports.js';
import type { PreviousVisit } from '../crawler/engine/recrawl.js';
import { LruMap } from '../crawler/lru-map.js';
import { pgSafeJson, pgSafeNullable, pgSafeText } from '../crawler/text/pg-safe.js';
import type { ChangeClass } from '../crawler/vocabulary.js';
import { GroupWriter } from './group-writer.js';
import { prepared, sql } from './sql.js';
import { withTransaction } from './transaction.js';

type Queryable = pg.Pool | pg.PoolClient;

/**
 * Page outcomes one statement writes at most (page_complete_batch.sql), and such statements in flight per
 * crawl runner. A realistic page carries ~100 links, so a full batch is a few thousand rows: large enough to
 * spread a statement's fixed costs, small enough that no page waits long behind it.
 */
const MAX_PAGES_PER_WRITE = 32;
const PAGE_WRITES_IN_FLIGHT = 2;
/**
 * Body bytes one batch statement carries at most: its bodies travel as one value, copied once more on their
 * way, so a batch of huge pages goes in smaller statements (a page past it, alone) rather than as one copy of
 * them all.
 */
const MAX_BODY_BYTES_PER_WRITE = 16 * 1024 * 1024;

const EMPTY = Buffer.alloc(0);

/** One page's outcome on its way to page_complete(.sql) or page_complete_batch.sql. */
interface PageWrite {
  pageId: number;
  outcome: PageOutcome;
  /** The page id of each of outcome.links, where this store knows it (null: the statement looks it up). */
  linkIds: Array<number | null>;
}

/**
 * Crawls whose pages' ids by URL a store remembers, and URLs remembered per crawl. A page's links are
 * mostly its site's menus and footers, the same URLs on every page: known, their ids go into the page write
 * as they are, where each unknown one costs an index probe of the crawl's URL key.
 */
const REMEMBERED_CRAWLS = 4;
const REMEMBERED_PAGE_IDS_PER_CRAWL = 50_000;

/** A request that ended: its politeness slot to free and its body's hash to register (request_done.sql). */
interface RequestDone {
  /** -1: no slot held (only the hash is registered). */
  siteId: number;
  slot: number;
  nextFetchDelayMs: number;
  sha256: string | null;
  pageId: number;
}

/** Ended requests one request_done_batch.sql statement carries at most. */
const MAX_REQUESTS_DONE_PER_WRITE = 64;

/** page_complete.sql's parameters $1…$31, in the order and with the meanings its header lists. */
function pageCompleteValues(crawlId: string, { pageId, outcome, linkIds }: PageWrite): unknown[] {
  return [
    pageId, // $1
    outcome.type, // $2
    outcome.status, // $3
    pgSafeNullable(outcome.contentType), // $4
    outcome.bytes, // $5
    outcome.truncated, // $6
    outcome.sha256, // $7
    outcome.loadMs, // $8
    outcome.fetchedAt, // $9
    pgSafeNullable(outcome.finalUrl), // $10
    pgSafeNullable(outcome.title), // $11
    pgSafeNullable(outcome.error), // $12
    redirectsJson(outcome), // $13
    outcome.duplicateOf, // $14
    outcome.body, // $15
    !outcome.requested, // $16
    outcome.images.map((image) => pgSafeText(image.url)), // $17
    outcome.images.map((image) => pgSafeText(image.alt)), // $18
    outcome.document?.dataType ?? null, // $19
    pgSafeNullable(outcome.document?.contentType ?? null), // $20
    outcome.document?.bytes ?? null, // $21
    outcome.score, // $22
    outcome.relevant, // $23
    outcome.links.map((link, index) => (linkIds[index] === null ? pgSafeText(link.url) : null)), // $24
    outcome.links.map((link) => pgSafeText(link.anchor)), // $25
    crawlId, // $26
    skippedJson(outcome), // $27
    responseHeadersJson(outcome), // $28
    outcome.response?.body ?? null, // $29
    pgSafeNullable(outcome.text), // $30
    linkIds, // $31
  ];
}

/**
 * page_complete_batch.sql's parameters: one array element per page, images and links flattened, bodies one
 * after another in one binary value with each one's length.
 */
function pageCompleteBatchValues(crawlId: string, writes: PageWrite[]): unknown[] {
  const perPage = <T>(value: (outcome: PageOutcome) => T) => writes.map((write) => value(write.outcome));
  const imagePages: number[] = [];
  const imageUrls: string[] = [];
  const imageAlts: string[] = [];
  const linkPages: number[] = [];
  const linkUrls: Array<string | null> = [];
  const linkAnchors: string[] = [];
  const linkIds: Array<number | null> = [];
  const bodies = perPage((o) => o.body);
  const responseBodies = perPage((o) => o.response?.body ?? null);
  writes.forEach(({ outcome, linkIds: ids }, index) => {
    for (const image of outcome.images) {
      imagePages.push(index + 1);
      imageUrls.push(pgSafeText(image.url));
      imageAlts.push(pgSafeText(image.alt));
    }
    outcome.links.forEach((link, linkIndex) => {
      const id = ids[linkIndex] ?? null;
      linkPages.push(index + 1);
      linkUrls.push(id === null ? pgSafeText(link.url) : null);
      linkAnchors.push(pgSafeText(link.anchor));
      linkIds.push(id);
    });
  });
  return [
    writes.map((write) => write.pageId), // $1
    perPage((o) => o.type), // $2
    perPage((o) => o.status), // $3
    perPage((o) => pgSafeNullable(o.contentType)), // $4
    perPage((o) => o.bytes), // $5
    perPage((o) => o.truncated), // $6
    perPage((o) => o.sha256), // $7
    perPage((o) => o.loadMs), // $8
    perPage((o) => o.fetchedAt), // $9
    perPage((o) => pgSafeNullable(o.finalUrl)), // $10
    perPage((o) => pgSafeNullable(o.title)), // $11
    perPage((o) => pgSafeNullable(o.error)), // $12
    perPage(redirectsJson), // $13
    perPage((o) => o.duplicateOf), // $14
    Buffer.concat(bodies.map((body) => body ?? EMPTY)), // $15
    perPage((o) => !o.requested), // $16
    imagePages, // $17
    imageUrls, // $18
    imageAlts, // $19
    perPage((o) => o.document?.dataType ?? null), // $20
    perPage((o) => pgSafeNullable(o.document?.contentType ?? null)), // $21
    perPage((o) => o.document?.bytes ?? null), // $22
    perPage((o) => o.score), // $23
    perPage((o) => o.relevant), // $24
    linkPages, // $25
    linkUrls, // $26
    linkAnchors, // $27
    crawlId, // $28
    perPage(skippedJson), // $29
    perPage(responseHeadersJson), // $30
    Buffer.concat(responseBodies.map((body) => body ?? EMPTY)), // $31
    perPage((o) => pgSafeNullable(o.text)), // $32
    linkIds, // $33
    bodies.map((body) => body?.length ?? null), // $34
    responseBodies.map((body) => body?.length ?? null), // $35
  ];
}

function redirectsJson(outcome: PageOutcome): string | null {
  return outcome.redirects === null ? null : JSON.stringify(pgSafeJson(outcome.redirects));
}

function skippedJson(outcome: PageOutcome): string | null {
  return outcome.skipped.length === 0 ? null : JSON.stringify(pgSafeJson(outcome.skipped));
}

function responseHeadersJson(outcome: PageOutcome): string | null {
  return outcome.response === null ? null : JSON.stringify(pgSafeJson(outcome.response.headers));
}

/** What a store keeps per crawl (a Map or an LruMap of them): `crawlId`'s, made by `make` when first asked for. */
/** A recrawl page's change as recordChange hands it to the group writer. */
interface RecordedChange {
  pageId: number;
  change: ChangeClass | null;
  notModified: boolean;
  textChanged: boolean | null;
  similarity: number | null;
}

function ofCrawl<V>(
  perCrawl: { get(crawlId: string): V | undefined; set(crawlId: string, value: V): unknown },
  crawlId: string,
  make: () => V,
): V {
  let value = perCrawl.get(crawlId);
  if (value === undefined) {
    value = make();
    perCrawl.set(crawlId, value);
  }
  return value;
}

/** The first statistics refresh comes after this many queued pages (see noteInsertedPages). */
const MIN_PAGES_BEFORE_ANALYZE = 500;

/**
 * Statements that lock rows others lock too can meet in a lock cycle in rare orders; PostgreSQL aborts one
 * statement, which is simply run again (an aborted statement changed nothing, and these are idempotent).
 * - Two workers inserting overlapping URL sets.
 * - A claim or a page write, each of which locks the crawl's row and later updates it in the same statement:
 *   when another transaction updated the row in between, the update waits on the row's old version behind a
 *   third statement that is waiting for it (seen on a focused crawl with four fetches in flight).
 */
async function retryOnDeadlock<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= 5 || (code !== '40P01' && code !== '40001')) throw error;
    }
  }
}

export class PgCrawlStore implements CrawlStore {
  /** Site ids never change once created: "<crawl> <origin>" → id, so hot paths skip the lookup. */
  private readonly siteIds = new Map<string, number>();
  /** Pages this store queued since it last refreshed the page table's statistics, and the next mark. */
  private pagesSinceAnalyze = 0;
  private analyzeAfterPages = MIN_PAGES_BEFORE_ANALYZE;
  private analyzing = false;
  private readonly pageWriters = new Map<string, GroupWriter<PageWrite>>();
  private readonly requestDoneWriters = new Map<string, GroupWriter<RequestDone, number | null>>();
  /** A recrawl's change classes, written together as pages end (page_record_change_batch.sql). */
  private readonly changeWriters = new LruMap<string, GroupWriter<RecordedChange>>(REMEMBERED_CRAWLS);
  /** Page ids by canonical URL of the pages this store queued, per crawl (see REMEMBERED_CRAWLS). */
  private readonly pageIds = new LruMap<string, LruMap<string, number>>(REMEMBERED_CRAWLS);

  constructor(
    private readonly pool: pg.Pool,
    private readonly onBackgroundError: (error: Error) => void = () => {},
  ) {}

  async claim(
    crawlId: string,
    workerId: string,
    max: number,
    leaseSecs: number,
    checkFinished = true,
  ): Promise<ClaimResult> {
    const result = await retryOnDeadlock(() =>
      this.pool.query(prepared('claim_frontier', [crawlId, workerId, max, leaseSecs])),
    );
    const first = result.rows[0];
    const crawlStatus: string = first?.crawl_status ?? 'missing';
    const budgetLeft: number = first?.budget ?? 0;
    const pages: ClaimedPage[] = result.rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id,
        url: r.url,
        depth: r.depth,
        priority: r.priority,
        siteId: r.site_id,
        origin: r.origin,
        slot: r.slot,
        queuedAt: r.queued_at,
        attempts: r.attempts,
        suspect: r.suspect,
        leaseExpiries: r.lease_expiries,
      }));
    if (pages.length > 0 || crawlStatus !== 'running' || !checkFinished) {
      return { crawlStatus, pages, finished: false, retryInMs: null };
    }
    const state = await this.pool.query<{ waiting: boolean; in_flight: boolean; retry_in_ms: number | null }>(
      sql('frontier_state'),
      [crawlId],
    );
    const { waiting, in_flight, retry_in_ms } = state.rows[0] ?? {
      waiting: false,
      in_flight: false,
      retry_in_ms: null,
    };
    const finished = !in_flight && (!waiting || budgetLeft === 0);
    return {
      crawlStatus,
      pages,
      finished,
      retryInMs: retry_in_ms === null ? null : Math.max(0, retry_in_ms),
    };
  }

  async renewLeases(_crawlId: string, workerId: string, pageIds: number[], leaseSecs: number): Promise<void> {
    if (pageIds.length > 0) await this.pool.query(sql('pages_renew_leases'), [pageIds, workerId, leaseSecs]);
  }

  async loadRobots(siteId: number): Promise<StoredRobots | null> {
    const result = await this.pool.query(sql('robots_load'), [siteId]);
    const row = result.rows[0];
    if (!row) return null;
    return {
      status: row.robots_status,
      body: row.robots_body,
      error: row.robots_error,
      fetchedAt: row.robots_fetched_at,
    };
  }

  async saveRobots(siteId: number, robots: StoredRobots, crawlDelayMs: number | null, sitemaps: string[]) {
    await this.pool.query(sql('robots_save'), [
      siteId,
      robots.status,
      pgSafeNullable(robots.body),
      pgSafeNullable(robots.error),
      robots.fetchedAt,
      crawlDelayMs,
      sitemaps.map(pgSafeText),
    ]);
  }

  async ensureSites(crawlId: string, origins: string[], slots: number, db: Queryable = this.pool) {
    const ids = new Map<string, number>();
    if (origins.length === 0) return ids;
    const unknown: string[] = [];
    for (const origin of new Set(origins)) {
      const cached = this.siteIds.get(`${crawlId} ${origin}`);
      if (cached === undefined) unknown.push(origin);
      else ids.set(origin, cached);
    }
    if (unknown.length === 0) return ids;
    const readExisting = async (wanted: string[]) => {
      const existing = await db.query<{ id: number; origin: string }>(sql('sites_by_origin'), [
        crawlId,
        wanted,
      ]);
      for (const row of existing.rows) ids.set(row.origin, row.id);
    };
    await readExisting(unknown);
    const missing = unknown.filter((origin) => !ids.has(origin));
    if (missing.length > 0) {
      const created = await db.query<{ id: number; origin: string }>(sql('sites_ensure'), [
        crawlId,
        missing,
        slots,
      ]);
      for (const row of created.rows) ids.set(row.origin, row.id);
      // another worker created some of them between our two statements: read those in a fresh snapshot
      const raced = missing.filter((origin) => !ids.has(origin));
      if (raced.length > 0) await readExisting(raced);
    }
    // only rows known to be committed are cached: inside a transaction a new site may still roll back
    if (db === this.pool) for (const [origin, id] of ids) this.siteIds.set(`${crawlId} ${origin}`, id);
    return ids;
  }

  async reserveRedirectTarget(
    crawlId: string,
    fromPageId: number,
    target: { url: string; origin: string; depth: number },
    slots: number,
  ) {
    const sites = await this.ensureSites(crawlId, [target.origin], slots);
    const result = await this.pool.query<{ reserved: boolean; id: number }>(sql('redirect_reserve'), [
      crawlId,
      fromPageId,
      pgSafeText(target.url),
      sites.get(target.origin),
      target.depth,
    ]);
    const row = result.rows[0];
    if (!row) throw new Error(`redirect target ${target.url} neither reserved nor found`);
    return row.reserved ? { reserved: true as const } : { reserved: false as const, existingPageId: row.id };
  }

  async leaseHostSlot(siteId: number, workerId: string, leaseSecs: number) {
    const result = await this.pool.query<{ slot: number | null; retry_in_ms: number | null }>(
      sql('host_slot_lease'),
      [siteId, workerId, leaseSecs],
    );
    const row = result.rows[0];
    if (row && row.slot !== null) return { slot: row.slot };
    const retry = row?.retry_in_ms ?? null;
    return { slot: null, retryInMs: retry === null ? null : Math.max(0, retry) };
  }

  async releaseHostSlot(siteId: number, slot: number, delayMs: number): Promise<void> {
    await this.pool.query(sql('host_slot_release'), [siteId, slot, delayMs]);
  }

  async previousVisit(crawlId: string, pageId: number): Promise<PreviousVisit | null> {
    const row = (
      await this.pool.query<{
        id: string;
        type: string;
        url: string;
        final_url: string | null;
        sha256: string | null;
        content_type: string | null;
        title: string | null;
        etag: string | null;
        last_modified: string | null;
        link_urls: string[];
        link_anchors: string[];
      }>(prepared('page_previous_visit', [crawlId, pageId]))
    ).rows[0];
    if (!row) return null;
    return {
      pageId: Number(row.id),
      type: row.type,
      url: row.url,
      finalUrl: row.final_url,
      sha256: row.sha256,
      contentType: row.content_type,
      title: row.title,
      etag: row.etag,
      lastModified: row.last_modified,
      links: row.link_urls.map((url, index) => ({ url, anchor: row.link_anchors[index] ?? '' })),
    };
  }

  async earlierMainText(crawlId: string, pageId: number): Promise<string | null> {
    const { rows } = await this.pool.query<{ main_text: string }>(
      prepared('page_earlier_main_text', [crawlId, pageId]),
    );
    return rows[0]?.main_text ?? null;
  }

  async recordChange(crawlId: string, pageId: number, record: ChangeRecord): Promise<void> {
    // a page not requested keeps no class, and stored nothing to point at: nothing to record
    if (record.change === null && !record.notModified) return;
    await ofCrawl(this.changeWriters, crawlId, () => this.changeWriter(crawlId)).write({
      pageId,
      change: record.change,
      notModified: record.notModified,
      textChanged: record.text?.textChanged ?? null,
      similarity: record.text?.similarity ?? null,
    });
  }

  /**
   * The crawl's group writer of change classes: a recrawl records one for every page it fetches, most of them
   * 304s that cost little else, so one statement a page would be most of the recrawl's database work.
   */
  private changeWriter(crawlId: string): GroupWriter<RecordedChange> {
    return new GroupWriter<RecordedChange>({
      writeOne: async (item) => {
        await retryOnDeadlock(() =>
          this.pool.query(
            prepared('page_record_change', [
              crawlId,
              item.pageId,
              item.change,
              item.notModified,
              item.textChanged,
              item.similarity,
            ]),
          ),
        );
      },
      writeMany: async (batch) => {
        await retryOnDeadlock(() =>
          this.pool.query(
            prepared('page_record_change_batch', [
              crawlId,
              batch.map((item) => item.pageId),
              batch.map((item) => item.change),
              batch.map((item) => item.notModified),
              batch.map((item) => item.textChanged),
              batch.map((item) => item.similarity),
            ]),
          ),
        );
      },
      maxItems: MAX_REQUESTS_DONE_PER_WRITE,
      maxInFlight: PAGE_WRITES_IN_FLIGHT,
      onBatchFailed: (error) => this.onBackgroundError(error as Error),
    });
  }

  async requestDone(
    crawlId: string,
    page: ClaimedPage,
    nextFetchDelayMs: number,
    sha256: string | null,
  ): Promise<number | null> {
    const holder = await this.requestDoneWriter(crawlId).write({
      siteId: page.siteId,
      slot: page.slot,
      nextFetchDelayMs,
      sha256,
      pageId: page.id,
    });
    return holder === null || holder === page.id ? null : holder;
  }

  /**
   * The crawl's group writer of ended requests (request_done.sql, request_done_batch.sql): every page's
   * request ends with one, so at 64 requests in flight several end while a statement runs.
   */
  private requestDoneWriter(crawlId: string): GroupWriter<RequestDone, number | null> {
    return ofCrawl(
      this.requestDoneWriters,
      crawlId,
      () =>
        new GroupWriter<RequestDone, number | null>({
          writeOne: async (done) => {
            const result = await retryOnDeadlock(() =>
              this.pool.query<{ page_id: number }>(
                prepared('request_done', [
                  done.siteId,
                  done.slot,
                  done.nextFetchDelayMs,
                  done.sha256,
                  crawlId,
                  done.pageId,
                ]),
              ),
            );
            return result.rows[0]?.page_id ?? null;
          },
          writeMany: async (batch) => {
            const result = await retryOnDeadlock(() =>
              this.pool.query<{ ord: string; page_id: number | null }>(
                prepared('request_done_batch', [
                  batch.map((done) => done.siteId),
                  batch.map((done) => done.slot),
                  batch.map((done) => done.nextFetchDelayMs),
                  batch.map((done) => done.sha256),
                  crawlId,
                  batch.map((done) => done.pageId),
                ]),
              ),
            );
            return result.rows.map((row) => row.page_id);
          },
          maxItems: MAX_REQUESTS_DONE_PER_WRITE,
          maxInFlight: PAGE_WRITES_IN_FLIGHT,
          onBatchFailed: (error) => this.onBackgroundError(error as Error),
        }),
    );
  }

  async completePage(
    crawlId: string,
    page: ClaimedPage,
    outcome: PageOutcome,
    frontier: FrontierLimits,
  ): Promise<RecordedDisallowed[]> {
    // No enclosing transaction: queuing the links is idempotent, and the page's own row (with its links,
    // body and images) is written after it in one statement, so a crash in between only means the page is
    // leased again and redone. Short statements hold row locks briefly, so concurrent workers do not pile up.
    // The images to fetch are queued with the links, but only the links are recorded as links ($24, $25).
    const toQueue = linksToQueue([...outcome.links, ...outcome.queuedImages], frontier);
    const disallowed =
      toQueue.length > 0
        ? await retryOnDeadlock(() => this.enqueue(crawlId, page.id, toQueue, frontier))
        : [];
    if (outcome.render) await this.recordRender(page.id, outcome.render);
    const ids = this.pageIdsOf(crawlId);
    const linkIds = outcome.links.map((link) => ids.get(pgSafeText(link.url)) ?? null);
    await this.pageWriter(crawlId).write({ pageId: page.id, outcome, linkIds });
    return disallowed;
  }

  private pageIdsOf(crawlId: string): LruMap<string, number> {
    return ofCrawl(this.pageIds, crawlId, () => new LruMap<string, number>(REMEMBERED_PAGE_IDS_PER_CRAWL));
  }

  /** The crawl's group writer of page outcomes (db/group-writer.ts), made at its first page. */
  private pageWriter(crawlId: string): GroupWriter<PageWrite> {
    return ofCrawl(
      this.pageWriters,
      crawlId,
      () =>
        new GroupWriter<PageWrite>({
          // A lone page has a statement of its own: for one page page_complete_batch.sql costs more than
          // page_complete.sql (its unnest, window and array parameters), and a crawl that is not fast writes
          // every page alone.
          writeOne: async (write) => {
            await retryOnDeadlock(() =>
              this.pool.query(prepared('page_complete', pageCompleteValues(crawlId, write))),
            );
          },
          writeMany: async (writes) => {
            await retryOnDeadlock(() =>
              this.pool.query(prepared('page_complete_batch', pageCompleteBatchValues(crawlId, writes))),
            );
          },
          maxItems: MAX_PAGES_PER_WRITE,
          itemBytes: ({ outcome }) => (outcome.body?.length ?? 0) + (outcome.response?.body?.length ?? 0),
          maxBytes: MAX_BODY_BYTES_PER_WRITE,
          maxInFlight: PAGE_WRITES_IN_FLIGHT,
          onBatchFailed: (error) => this.onBackgroundError(error as Error),
        }),
    );
  }

  /** How a page of a crawl that renders was read, and its screenshot (page_render_record.sql). */
  private async recordRender(pageId: number, render: PageRenderRecord): Promise<void> {
    await this.pool.query(
      prepared('page_render_record', [
        pageId,
        render.rendered,
        render.reason,
        render.fetchMs,
        render.renderMs,
        pgSafeNullable(render.note),
        pgSafeNullable(render.navigatedFrom),
        render.screenshot,
      ]),
    );
  }

  async releasePage(_crawlId: string, workerId: string, page: ClaimedPage): Promise<void> {
    await this.pool.query(sql('page_release'), [page.id, workerId]);
  }

  async releaseLeases(crawlId: string, workerId: string): Promise<void> {
    await this.pool.query(sql('runner_release_leases'), [crawlId, workerId]);
  }

  async enqueue(
    crawlId: string,
    fromPageId: number | null,
    urls: DiscoveredUrl[],
    frontier: FrontierLimits,
    db: Queryable = this.pool,
  ): Promise<RecordedDisallowed[]> {
    if (urls.length === 0) return [];
    const sites = await this.ensureSites(
      crawlId,
      urls.map((url) => url.origin),
      frontier.slots,
      db,
    );
    const columns = [
      crawlId,
      fromPageId,
      urls.map((url) => pgSafeText(url.url)),
      urls.map((url) => sites.get(url.origin)),
      urls.map((url) => url.depth),
      urls.map((url) => url.priority),
      urls.map((url) => pgSafeNullable(url.disallowed ?? null)),
    ];
    type Inserted = { id: number; url: string; type: string; error: string | null };
    // The cap: the crawl row is locked by a statement of its own first, so the insert's snapshot (taken
    // when it starts, under READ COMMITTED) counts every page queued by the runner that held the lock before.
    const inserted =
      frontier.maxDiscovered === null
        ? await db.query<Inserted>(
            prepared(frontier.raiseOnRediscovery ? 'pages_enqueue_raising' : 'pages_enqueue', columns),
          )
        : await withTransaction(this.pool, async (client) => {
            await client.query(prepared('crawl_lock', [crawlId]));
            return client.query<Inserted>(
              prepared('pages_enqueue_capped', [...columns, frontier.maxDiscovered]),
            );
          });
    this.noteInsertedPages(inserted.rowCount ?? inserted.rows.length);
    const ids = this.pageIdsOf(crawlId);
    for (const row of inserted.rows) ids.set(row.url, row.id);
    return inserted.rows
      .filter((row) => row.type === 'DISALLOWED')
      .map((row) => ({ id: row.id, url: row.url, error: row.error ?? '' }));
  }

  /**
   * The per-page statements are prepared (src/db/sql.ts), so each connection keeps a generic plan, made
   * from the statistics of the moment. On a page table that a crawl is filling, those are soon wrong:
   * planned while it is nearly empty, the link-target probe walks a whole crawl's index entries instead
   * of the unique key, and a page write now and then costs many times its usual time.
   * Autovacuum's ANALYZE comes a minute or more late, so the store runs it whenever the pages it queued
   * reach the table's last estimated size: a handful of times as a table grows by orders of magnitude,
   * each one invalidating the cached plans. ANALYZE takes no lock that blocks writers.
   */
  private noteInsertedPages(count: number): void {
    this.pagesSinceAnalyze += count;
    if (this.analyzing || this.pagesSinceAnalyze < this.analyzeAfterPages) return;
    this.analyzing = true;
    this.pagesSinceAnalyze = 0;
    const refresh = async () => {
      await this.pool.query(sql('pages_analyze'));
      const estimate = await this.pool.query<{ rows: number }>(sql('pages_row_estimate'));
      this.analyzeAfterPages = Math.max(MIN_PAGES_BEFORE_ANALYZE, estimate.rows[0]?.rows ?? 0);
    };
    refresh()
      .catch((error: Error) => this.onBackgroundError(error))
      .finally(() => {
        this.analyzing = false;
      });
  }

  async markRunning(crawlId: string): Promise<void> {
    await this.pool.query(sql('crawl_mark_running'), [crawlId]);
  }

  async finishCrawl(
    crawlId: string,
    status: 'completed' | 'failed',
    error: string | null,
    notes: CrawlEndNotes = { problem: null, warnings: [] },
  ): Promise<void> {
    await this.pool.query(sql('crawl_finish'), [
      crawlId,
      status,
      pgSafeNullable(error),
      notes.problem === null ? null : JSON.stringify(pgSafeJson(notes.problem)),
      notes.warnings.map((warning) => pgSafeText(warning)),
    ]);
  }

  async seedReport(crawlId: string, seedUrls: string[]): Promise<SeedReport> {
    const { rows } = await this.pool.query<{ seeds: SeedPage[]; any_response: boolean }>(
      sql('crawl_seed_report'),
      [crawlId, seedUrls],
    );
    return { seeds: rows[0]?.seeds ?? [], anyResponse: rows[0]?.any_response ?? false };
  }
}
