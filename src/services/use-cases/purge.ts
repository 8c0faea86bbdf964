// Purging what trawl stores (docs/guide.md#deleting-crawls-rankings-and-corpora): a crawl is marked `purging`
// at once (its pages, exports and reports answer 404 from then on) and a `purge` job removes every row it owns
// in bounded batches (db/purge-repo.ts), then its webhook hears `purged`, then its row goes and its status is
// 404 too. A ranking or a corpus is 404 at once (its row goes first) and the job deletes its vertices or terms.
// Every step deletes what is left, so a purge run twice, or cut by a restart and taken up again, ends the same.
import type { PurgeRepository } from '../../db/purge-repo.js';
import { INTERNAL_SCOPE, type TenantScope } from '../../db/tenant-scope.js';
import type { WebhooksRepository } from '../../db/webhooks-repo.js';
import { TrawlError } from '../../errors.js';
import { queuePurge, queueWebhookDelivery } from '../../jobs/producers.js';
import type { JobBackend, PurgeJobData } from '../../jobs/queues.js';
import type { CrawlStatusView } from '../presentation/views.js';
import { webhookCrawlSnapshot } from './webhooks.js';

/** Rows per delete statement: few enough that a batch holds its row locks and its snapshot only briefly. */
const DEFAULT_BATCH_ROWS = 500;

/**
 * After each batch the purge waits as long as the batch took, times this: a purge takes at most about a third
 * of the time of the connection it runs on, so crawls running beside it keep most of PostgreSQL (figures in
 * docs/benchmarks.md#purge).
 */
const DEFAULT_PAUSE_RATIO = 2;

/** How long a crawl's purge waits for its webhook to be delivered before it looks again. */
const WEBHOOK_WAIT_MS = 2_000;

const ACTIVE = new Set(['queued', 'running']);

export interface PurgeServiceOptions {
  repository: PurgeRepository;
  jobs: JobBackend;
  webhooks: Pick<WebhooksRepository, 'config' | 'insertEvent'>;
  /** The crawl's status (for the DELETE's answer and the `purged` event's snapshot); forgetting a kept view. */
  crawls: {
    get(id: string, scope: TenantScope): Promise<{ status: string } | null>;
    status(id: string, scope: TenantScope): Promise<CrawlStatusView>;
    forgetStatus(id: string): void;
  };
  rankings: { get(id: string, scope: TenantScope): Promise<{ status: string } | null> };
  corpora: { get(id: string, scope: TenantScope): Promise<{ status: string } | null> };
  /** Told when a queued or running crawl is stopped by its purge (its `cancelled` webhook event). */
  onCancelled?: (crawlId: string) => void;
  batchRows?: number;
  /** The pause after each batch, as a multiple of the batch's time (0: none). */
  pauseRatio?: number;
}

/** What one run of a purge job removed, and whether the purge is over or waits for its webhook. */
export interface PurgeOutcome {
  done: boolean;
  pages: number;
  sites: number;
  contentHashes: number;
  /** Bodies that later crawls' pages read from this crawl, handed to them before its pages went. */
  bodiesHandedOver: number;
  rankingVertices: number;
  corpusTerms: number;
}

export class PurgeService {
  constructor(private readonly options: PurgeServiceOptions) {}

  /**
   * DELETE /v1/crawls/:id?purge=true: marks the crawl purging (a queued or running crawl is stopped first, as
   * a cancel stops it) and queues the job. Purging a crawl being purged again changes nothing.
   */
  async purgeCrawl(id: string, scope: TenantScope): Promise<CrawlStatusView> {
    const { crawls, repository, jobs } = this.options;
    const row = await crawls.get(id, scope);
    if (!row) throw new TrawlError('not_found', `no crawl with id ${id}`);
    const previous = await repository.markCrawl(id);
    crawls.forgetStatus(id);
    if (previous !== null && ACTIVE.has(previous)) this.options.onCancelled?.(id);
    // a crawl being purged already: its first job may have ended (given up, or its id still kept as done), so
    // asking again queues a new one (a purge removes what is left; two at once only delete the same rows)
    await queuePurge(jobs, { kind: 'crawl', id }, previous === null ? `.again-${Date.now()}` : '');
    return crawls.status(id, scope);
  }

  /** DELETE /v1/rankings/:id: 404 from now on; its vertices go by a job. A ranking still computed: 409. */
  async deleteRanking(id: string, scope: TenantScope): Promise<void> {
    const row = await this.options.rankings.get(id, scope);
    if (!row) throw new TrawlError('not_found', `no ranking with id ${id}`);
    if (ACTIVE.has(row.status)) {
      throw new TrawlError('conflict', `ranking ${id} is ${row.status}; delete it once it has ended`, {
        detail: { rankingStatus: row.status },
      });
    }
    if (!(await this.options.repository.deleteRanking(id, scope))) {
      throw new TrawlError('not_found', `no ranking with id ${id}`);
    }
    await queuePurge(this.options.jobs, { kind: 'ranking', id });
  }

  /**
   * DELETE /v1/corpora/:id: 404 from now on; its terms go by a job. A corpus still being built, or one a
   * queued or running crawl scores with: 409, naming that crawl.
   */
  async deleteCorpus(id: string, scope: TenantScope): Promise<void> {
    const row = await this.options.corpora.get(id, scope);
    if (!row) throw new TrawlError('not_found', `no corpus with id ${id}`);
    if (ACTIVE.has(row.status)) {
      throw new TrawlError('conflict', `corpus ${id} is ${row.status}; delete it once it has ended`, {
        detail: { corpusStatus: row.status },
      });
    }
    const crawlId = await this.options.repository.corpusUsedBy(id);
    if (crawlId !== null) {
      throw new TrawlError('conflict', `corpus ${id} is used by crawl ${crawlId}, which has not ended`, {
        detail: { crawlId },
      });
    }
    if (!(await this.options.repository.deleteCorpus(id, scope))) {
      throw new TrawlError('not_found', `no corpus with id ${id}`);
    }
    await queuePurge(this.options.jobs, { kind: 'corpus', id });
  }

  /**
   * The `purge` job: removes what is left, batch by batch, until `signal` (shutdown) stops it between two
   * batches. `done: false` when it stopped early or waits for the crawl's webhook events to go out.
   */
  async run(data: PurgeJobData, signal: AbortSignal): Promise<PurgeOutcome> {
    const outcome: PurgeOutcome = {
      done: false,
      pages: 0,
      sites: 0,
      contentHashes: 0,
      bodiesHandedOver: 0,
      rankingVertices: 0,
      corpusTerms: 0,
    };
    const { repository } = this.options;
    if (data.kind === 'ranking') {
      outcome.rankingVertices = await this.#drain(signal, (rows) =>
        repository.rankingVertices(data.id, rows),
      );
    } else if (data.kind === 'corpus') {
      outcome.corpusTerms = await this.#drain(signal, (rows) => repository.corpusTerms(data.id, rows));
    } else {
      await this.#crawl(data.id, signal, outcome);
      return outcome;
    }
    outcome.done = !signal.aborted;
    return outcome;
  }

  async #crawl(id: string, signal: AbortSignal, outcome: PurgeOutcome): Promise<void> {
    const { repository } = this.options;
    const beat = () => repository.beat(id);
    outcome.contentHashes = await this.#drain(signal, (rows) => repository.contentHashes(id, rows), beat);
    for (const rankingId of await repository.crawlRankings(id)) {
      outcome.rankingVertices += await this.#drain(signal, (rows) =>
        repository.rankingVertices(rankingId, rows),
      );
      if (signal.aborted) return;
      await repository.deleteRanking(rankingId, INTERNAL_SCOPE);
    }
    // a later recrawl that found pages unchanged reads their bodies from this crawl: they go to it first
    outcome.bodiesHandedOver = await this.#drain(signal, (rows) => repository.handOverBodies(id, rows), beat);
    let afterId = 0;
    outcome.pages = await this.#drain(
      signal,
      async (rows) => {
        const batch = await repository.pages(id, afterId, rows);
        if (batch.lastId !== null) afterId = batch.lastId;
        return batch.n;
      },
      beat,
    );
    outcome.sites = await this.#drain(signal, (rows) => repository.sites(id, rows), beat);
    if (signal.aborted) return;
    await repository.idempotencyRecords(id);
    await this.#recordPurged(id);
    if (await repository.webhooksPending(id)) {
      await beat();
      return;
    }
    await repository.finishCrawl(id);
    this.options.crawls.forgetStatus(id);
    outcome.done = true;
  }

  /** The crawl's `purged` webhook event, once (lifecycle events are unique per crawl), if its webhook wants it. */
  async #recordPurged(id: string): Promise<void> {
    const { webhooks, crawls, jobs } = this.options;
    const config = await webhooks.config(id);
    if (!config?.events.includes('purged')) return;
    const crawl = await webhookCrawlSnapshot(crawls, id).catch(() => null);
    if (crawl === null) return; // the row is gone: a purge that ran beside this one finished it
    const eventId = await webhooks.insertEvent(id, 'purged', { crawl });
    if (eventId !== null) await queueWebhookDelivery(jobs, id, String(eventId));
  }

  /** Runs `batch` until it deletes nothing (or `signal` aborts); the rows it deleted in all. */
  async #drain(
    signal: AbortSignal,
    batch: (rows: number) => Promise<number>,
    afterEach?: () => Promise<void>,
  ): Promise<number> {
    const rows = this.options.batchRows ?? DEFAULT_BATCH_ROWS;
    const pauseRatio = this.options.pauseRatio ?? DEFAULT_PAUSE_RATIO;
    let total = 0;
    while (!signal.aborted) {
      const startedMs = performance.now();
      const n = await batch(rows);
      total += n;
      if (n === 0) break;
      await afterEach?.();
      const pauseMs = (performance.now() - startedMs) * pauseRatio;
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    return total;
  }

  /** When a crawl's purge that stopped early should be taken up again. */
  static readonly webhookWaitMs = WEBHOOK_WAIT_MS;
}
