// A crawl's status view, read as often as clients poll it: a finished crawl's view is kept (it never changes),
// a running crawl's timing percentiles are recomputed at most every RUNNING_TIMINGS_MAX_AGE_MS. One per
// process, inside CrawlService.

import { LruMap } from '../../crawler/lru-map.js';
import { isFinished } from '../../crawler/vocabulary.js';
import type { CrawlsRepository, CrawlTimings } from '../../db/crawls-repo.js';
import { scopeSees, type TenantScope } from '../../db/tenant-scope.js';
import { TrawlError } from '../../errors.js';
import { type CrawlStatusView, crawlStatusView } from '../presentation/views.js';

/** Finished crawls whose status view a process keeps (a view is a few KB). */
const FINISHED_STATUS_VIEWS = 4096;

/**
 * How old a running crawl's load-time and queue-wait percentiles may be when shown: computing them scans the
 * crawl's fetched pages (crawl_totals.sql), so with many pollers on a big crawl they are computed once per
 * interval per process instead of once per read. Counts are always current.
 */
const RUNNING_TIMINGS_MAX_AGE_MS = 2_000;

/** Running crawls whose last timing percentiles a process keeps (a few numbers each). */
const RUNNING_TIMINGS_KEPT = 4096;

export class CrawlStatusReads {
  /** Finished crawls' status views, by id, with the owner the caller's scope is checked against. */
  readonly #finishedViews = new LruMap<string, { owner: string | null; view: CrawlStatusView }>(
    FINISHED_STATUS_VIEWS,
  );
  /** Running crawls' timing percentiles, by id. */
  readonly #timings = new LruMap<
    string,
    { value: Promise<CrawlTimings>; computedAt: number; refreshing: boolean }
  >(RUNNING_TIMINGS_KEPT);

  constructor(
    private readonly options: {
      repository: Pick<CrawlsRepository, 'status' | 'timings' | 'saveTimings'>;
    },
  ) {}

  /**
   * A crawl's status view. Polling it is what every client does, so its cost stays flat as a crawl grows: a
   * finished crawl's view never changes and is kept (bounded); a running crawl's counts come from the counters
   * kept as it writes (one statement), and its timing percentiles, a scan of its fetched pages, are recomputed
   * at most every RUNNING_TIMINGS_MAX_AGE_MS in the background while the last ones are served.
   */
  async status(id: string, scope: TenantScope): Promise<CrawlStatusView> {
    const kept = this.#finishedViews.get(id);
    if (kept) {
      if (!scopeSees(scope, kept.owner)) throw new TrawlError('not_found', `no crawl with id ${id}`);
      return kept.view;
    }
    const status = await this.options.repository.status(id, scope);
    if (!status) throw new TrawlError('not_found', `no crawl with id ${id}`);
    const { row, counts, found } = status;
    if (!isFinished(row.status)) {
      return crawlStatusView(row, counts, { ...found, ...(await this.#runningTimings(id)) });
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
    const view = Object.freeze(crawlStatusView(row, counts, { ...found, ...timings }));
    // near-duplicates are marked by the text job, which may go on after the crawl ends: that view is read anew
    if (!row.request.duplicates.near) this.#finishedViews.set(id, { owner: row.owner, view });
    return view;
  }

  /** A running crawl's timing percentiles: the last computed, refreshed in the background once stale. */
  async #runningTimings(id: string): Promise<CrawlTimings> {
    const known = this.#timings.get(id);
    if (!known) {
      const value = this.options.repository.timings(id);
      this.#timings.set(id, { value, computedAt: Date.now(), refreshing: false });
      value.catch(() => this.#timings.delete(id)); // not kept: the next read tries again
      return value;
    }
    if (!known.refreshing && Date.now() - known.computedAt > RUNNING_TIMINGS_MAX_AGE_MS) {
      known.refreshing = true;
      const next = this.options.repository.timings(id);
      next.then(
        () => this.#timings.set(id, { value: next, computedAt: Date.now(), refreshing: false }),
        () => {
          known.refreshing = false; // the last value stays; a later read tries again
        },
      );
    }
    return known.value;
  }
}
