// A crawl's status view, read as often as clients poll it: a finished crawl's view is kept (it changes only when
// the crawl is purged, which a cheap look at its status tells, at most every FINISHED_VIEW_RECHECK_MS), a
// running crawl's timing percentiles are recomputed at most every RUNNING_TIMINGS_MAX_AGE_MS. One per process,
// inside CrawlService.

import { retentionDaysOf } from '../../crawler/crawl-request.js';
import { LruMap } from '../../crawler/lru-map.js';
import { isFinished } from '../../crawler/vocabulary.js';
import {
  type CrawlRow,
  type CrawlStorage,
  type CrawlsRepository,
  type CrawlTimings,
  storageOf,
} from '../../db/crawls-repo.js';
import { scopeSees, type TenantScope } from '../../db/tenant-scope.js';
import { TrawlError } from '../../errors.js';
import { type CrawlStatusView, crawlStatusView } from '../presentation/views.js';

const DAY_MS = 86_400_000;

/** What a storage figure depends on of the crawl's row (a row without its request is taken to extract text). */
type StorageRow = Pick<CrawlRow, 'status' | 'storage'> & {
  finished_at?: Date | null;
  request?: { extract: { enabled: boolean } };
};

/** Finished crawls whose status view a process keeps (a view is a few KB). */
const FINISHED_STATUS_VIEWS = 4096;

/**
 * How long a kept view is served without a look at the crawl's row: a purge started through another process
 * shows here at most this late. The look is one primary-key read, not the status statement.
 */
const FINISHED_VIEW_RECHECK_MS = 1_000;

/**
 * How old a running crawl's load-time and queue-wait percentiles may be when shown: computing them scans the
 * crawl's fetched pages (crawl_totals.sql), so with many pollers on a big crawl they are computed once per
 * interval per process instead of once per read. Counts are always current.
 */
const RUNNING_TIMINGS_MAX_AGE_MS = 2_000;

/** Running crawls whose last timing percentiles a process keeps (a few numbers each). */
const RUNNING_TIMINGS_KEPT = 4096;

/**
 * How old a running crawl's storage may be when shown: measuring it probes each of the crawl's pages in four
 * tables (crawl_storage.sql), so it is done once per interval per process, in the background.
 */
const RUNNING_STORAGE_MAX_AGE_MS = 10_000;

export class CrawlStatusReads {
  /** Finished crawls' status views, by id, with the owner the caller's scope is checked against. */
  readonly #finishedViews = new LruMap<
    string,
    { owner: string | null; view: CrawlStatusView; checkedAtMs: number }
  >(FINISHED_STATUS_VIEWS);
  /** Running crawls' timing percentiles, by id. */
  readonly #timings = new Refreshed<CrawlTimings>(RUNNING_TIMINGS_KEPT, RUNNING_TIMINGS_MAX_AGE_MS);
  /** Running crawls' storage, by id. */
  readonly #storage = new Refreshed<CrawlStorage>(RUNNING_TIMINGS_KEPT, RUNNING_STORAGE_MAX_AGE_MS);

  constructor(
    private readonly options: {
      repository: Pick<
        CrawlsRepository,
        'status' | 'timings' | 'saveTimings' | 'currentStatus' | 'storage' | 'saveStorage'
      >;
      /** CRAWL_RETENTION_DAYS, for a crawl's expiresAt. */
      retentionDays: number | null;
    },
  ) {}

  /**
   * What the crawl stores: kept once it has finished and the text job is done with its bodies (measured at the
   * first read after), measured at most every RUNNING_STORAGE_MAX_AGE_MS before (running, purging, or its text
   * still being read: the text job rewrites a body's row, which may compress a body stored inline).
   */
  async storage(id: string, row: StorageRow): Promise<CrawlStorage> {
    return (await this.#storageOf(id, row)).storage;
  }

  /** The crawl's storage, and whether it is the kept, final figure. */
  async #storageOf(id: string, row: StorageRow): Promise<{ storage: CrawlStorage; kept: boolean }> {
    const { repository } = this.options;
    if (row.storage) return { storage: storageOf(row.storage), kept: true };
    const finished = isFinished(row.status) && row.status !== 'purging';
    // an ended crawl is never shown a figure measured while it still ran
    const notBeforeMs = finished && row.finished_at ? row.finished_at.getTime() : 0;
    const measured = await this.#storage.get(id, () => repository.storage(id), notBeforeMs);
    // only a completed crawl gets its final text job: a cancelled or failed one's pending bodies may wait for
    // good, and its figure is kept as it stands
    const textWillChange =
      measured.text_pending !== 0 && row.request?.extract.enabled !== false && row.status === 'completed';
    if (!finished || textWillChange) {
      return { storage: measured, kept: false };
    }
    this.#storage.delete(id);
    const { text_pending: _pending, ...final } = measured;
    await repository.saveStorage(id, final);
    return { storage: final, kept: true };
  }

  /**
   * A crawl's status view. Polling it is what every client does, so its cost stays flat as a crawl grows: a
   * finished crawl's view never changes and is kept (bounded); a running crawl's counts come from the counters
   * kept as it writes (one statement), and its timing percentiles, a scan of its fetched pages, are recomputed
   * at most every RUNNING_TIMINGS_MAX_AGE_MS in the background while the last ones are served.
   */
  async status(id: string, scope: TenantScope): Promise<CrawlStatusView> {
    const kept = await this.#keptView(id);
    if (kept) {
      if (!scopeSees(scope, kept.owner)) throw new TrawlError('not_found', `no crawl with id ${id}`);
      return kept.view;
    }
    const status = await this.options.repository.status(id, scope);
    if (!status) throw new TrawlError('not_found', `no crawl with id ${id}`);
    const { row, counts, found } = status;
    // a purging crawl's view is not kept: the crawl is on its way to 404
    if (!isFinished(row.status) || row.status === 'purging') {
      const [timings, storage] = await Promise.all([
        this.#timings.get(id, () => this.options.repository.timings(id)),
        this.storage(id, row),
      ]);
      return crawlStatusView(row, counts, { ...found, ...timings }, { storage, expiresAt: null });
    }
    this.#timings.delete(id);
    const timings = await this.options.repository.timings(id, row.timings ?? null);
    // a finished crawl's percentiles never change: kept, so its next reads do not scan its pages
    if (timings.computed) {
      const { load_p50, load_p95, wait_p50, wait_p95, last_fetched_at } = timings;
      await this.options.repository.saveTimings(id, {
        load_p50,
        load_p95,
        wait_p50,
        wait_p95,
        last_fetched_at,
      });
    }
    const { storage, kept: storageFinal } = await this.#storageOf(id, row);
    const days = retentionDaysOf(row.request, this.options.retentionDays);
    const expiresAt =
      days === null || row.finished_at === null ? null : new Date(row.finished_at.getTime() + days * DAY_MS);
    const view = Object.freeze(
      crawlStatusView(row, counts, { ...found, ...timings }, { storage, expiresAt }),
    );
    // kept once nothing in it changes any more: its storage (the text job may still be rewriting bodies), and
    // its near-duplicates (marked by the text job, which may go on after the crawl ends)
    if (storageFinal && !row.request.duplicates.near)
      this.#finishedViews.set(id, { owner: row.owner, view, checkedAtMs: Date.now() });
    return view;
  }

  /** Drops a kept view (the crawl is being purged). */
  forget(id: string): void {
    this.#finishedViews.delete(id);
    this.#timings.delete(id);
    this.#storage.delete(id);
  }

  /** The kept view of a finished crawl, if it still holds (looked at once it is older than the recheck). */
  async #keptView(id: string) {
    const kept = this.#finishedViews.get(id);
    if (!kept || Date.now() - kept.checkedAtMs <= FINISHED_VIEW_RECHECK_MS) return kept;
    if ((await this.options.repository.currentStatus(id)) === kept.view.status) {
      kept.checkedAtMs = Date.now();
      return kept;
    }
    this.#finishedViews.delete(id);
    return undefined;
  }
}

/**
 * Per crawl, a value that is costly to compute and may be shown somewhat old: the last computed is served, and
 * once older than `maxAgeMs` a new one is computed in the background (one at a time per crawl).
 */
class Refreshed<T> {
  readonly #kept: LruMap<string, { value: Promise<T>; computedAt: number; refreshing: boolean }>;

  constructor(
    size: number,
    private readonly maxAgeMs: number,
  ) {
    this.#kept = new LruMap(size);
  }

  /** The value of `id`; one computed before `notBeforeMs` (epoch ms) is not served but computed anew. */
  get(id: string, compute: () => Promise<T>, notBeforeMs = 0): Promise<T> {
    const known = this.#kept.get(id);
    if (!known || known.computedAt < notBeforeMs) {
      const value = compute();
      this.#kept.set(id, { value, computedAt: Date.now(), refreshing: false });
      value.catch(() => this.#kept.delete(id)); // not kept: the next read tries again
      return value;
    }
    if (!known.refreshing && Date.now() - known.computedAt > this.maxAgeMs) {
      known.refreshing = true;
      const next = compute();
      next.then(
        () => this.#kept.set(id, { value: next, computedAt: Date.now(), refreshing: false }),
        () => {
          known.refreshing = false; // the last value stays; a later read tries again
        },
      );
    }
    return known.value;
  }

  delete(id: string): void {
    this.#kept.delete(id);
  }
}
