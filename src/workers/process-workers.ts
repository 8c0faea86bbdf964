// This process's job workers (runtime.ts's startWorker): Chromium when it is found, the worker's row in the
// workers table, the engine's event sinks, the orphan and retention sweepers, the quota check and a worker per
// row of the table (table.ts).
// Stopped in two steps, so the API's own last webhook events are written between them.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { HtmlPageReader, TextComparer } from '../crawler/engine/ports.js';
import { Fetcher, fetcherGuard } from '../crawler/fetch/index.js';
import { ChromiumRenderer } from '../crawler/render/chromium.js';
import type { CorporaRepository } from '../db/corpora-repo.js';
import type { Database } from '../db/database.js';
import type { WebhooksRepository } from '../db/webhooks-repo.js';
import { ANNOUNCE_EVERY_MS, type WorkersRepository } from '../db/workers-repo.js';
import { type CrawlEventBus, fanOutEventSink, PublishingEventSink } from '../jobs/crawl-events.js';
import { type Metrics, metricsEventSink, metricsRenderObserver } from '../jobs/metrics.js';
import { startOrphanSweeper } from '../jobs/orphan-sweeper.js';
import { type JobBackend, WEBHOOK_QUEUE } from '../jobs/queues.js';
import { WebhookEventSink } from '../jobs/webhook-events.js';
import type { DocumentPool } from '../services/pools/document-pool.js';
import type { CrawlStatsService } from '../services/use-cases/crawl-stats.js';
import type { CrawlService } from '../services/use-cases/crawls.js';
import type { PurgeService } from '../services/use-cases/purge.js';
import type { QuotaService } from '../services/use-cases/quotas.js';
import type { RankingService } from '../services/use-cases/rankings.js';
import type { RetentionSweeper } from '../services/use-cases/retention.js';
import type { ScheduleService } from '../services/use-cases/schedules.js';
import { type WebhookDeliverer, webhookCrawlSnapshot } from '../services/use-cases/webhooks.js';
import { type StartedWorker, startWorkers, workerTable } from './table.js';

export interface ProcessWorkersDeps {
  config: Config;
  log: Logger;
  db: Database;
  jobs: JobBackend;
  metrics: Metrics;
  /** Where live progress hears of written pages. */
  bus: CrawlEventBus;
  /** Aborted when this process shuts down. */
  shutdown: AbortSignal;
  crawls: CrawlService;
  crawlStats: CrawlStatsService;
  rankings: RankingService;
  webhooks: WebhookDeliverer;
  purges: PurgeService;
  /** Purges ended crawls past their retention, one process at a time. */
  retention: RetentionSweeper;
  /** Stops running crawls whose key reached its page or byte quota. */
  quotas: QuotaService;
  schedules: ScheduleService;
  corpora: CorporaRepository;
  documentPool: DocumentPool;
  /** Reads crawled pages for links and main text off the crawl's event loop. */
  pageReader: HtmlPageReader;
  textComparer: TextComparer;
  webhooksRepository: WebhooksRepository;
  workersRepository: WorkersRepository;
}

export class ProcessWorkers {
  /** In the order of the table, once started. */
  readonly #workers: StartedWorker[] = [];
  #renderer: ChromiumRenderer | null = null;
  #publishing: PublishingEventSink | null = null;
  #webhookEvents: WebhookEventSink | null = null;
  #orphanSweeper: { stop(): void } | null = null;
  #fetcher: Fetcher | null = null;
  /** This worker's row in the workers table (what it can do), refreshed while it runs. */
  readonly #announcedId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  #announcer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: ProcessWorkersDeps) {}

  /** Whether this process found Chromium when its workers started (so it can render pages). */
  get canRender(): boolean {
    return this.#renderer !== null;
  }

  /** Starts every worker of the table (idempotent). */
  start(): void {
    if (this.#workers.length > 0) return;
    const { config, log, db, jobs, metrics, deps } = { ...this.deps, deps: this.deps };
    const workerFetcher = new Fetcher(fetcherGuard(config));
    this.#fetcher = workerFetcher;
    const workerLog = log.child({ component: 'crawl-worker' });
    // Chromium found at start → this worker can render (it launches only when a crawl asks)
    const canRender = ChromiumRenderer.available(config.chromiumPath);
    this.#renderer = canRender
      ? new ChromiumRenderer({
          executablePath: config.chromiumPath,
          concurrency: config.renderConcurrency,
          recyclePages: config.renderRecyclePages,
          memoryBudgetBytes: config.renderMemoryBudgetBytes,
          log: log.child({ component: 'renderer' }),
          observer: metricsRenderObserver(
            metrics,
            () => this.#renderer?.memoryBytes() ?? Promise.resolve(null),
          ),
        })
      : null;
    if (!canRender)
      workerLog.info({ chromiumPath: config.chromiumPath }, 'no Chromium: this worker cannot render pages');
    const announce = () =>
      deps.workersRepository
        .announce(this.#announcedId, canRender)
        .catch((err: unknown) => workerLog.warn({ err }, 'announcing the worker failed'));
    void announce();
    this.#announcer = setInterval(announce, ANNOUNCE_EVERY_MS);
    this.#announcer.unref();
    // The engine's events: metrics, wake-ups for live streams (batched every 250 ms), webhook events.
    const onSinkError = (err: unknown) => workerLog.warn({ err }, 'crawl event sink');
    this.#publishing = new PublishingEventSink(deps.bus, { intervalMs: 250, onError: onSinkError });
    this.#webhookEvents = new WebhookEventSink({
      repository: deps.webhooksRepository,
      jobs,
      pageBatchMs: 1000,
      snapshot: (crawlId) => webhookCrawlSnapshot(deps.crawls, crawlId),
      onError: onSinkError,
    });
    const events = fanOutEventSink(
      [metricsEventSink(metrics), this.#publishing, this.#webhookEvents],
      onSinkError,
    );
    // a crawl counts as orphaned after three lease periods without a runner's heartbeat
    this.#orphanSweeper = startOrphanSweeper({
      pool: db.pool,
      jobs,
      log: log.child({ component: 'orphan-sweeper' }),
      staleSecs: Math.max(30, 3 * config.leaseSecs),
      intervalMs: 15_000,
    });
    deps.retention.start();
    deps.quotas.start();
    const table = workerTable({
      config,
      db,
      jobs,
      fetcher: workerFetcher,
      shutdown: deps.shutdown,
      corpora: deps.corpora,
      events,
      documentPool: deps.documentPool,
      pageReader: deps.pageReader,
      textComparer: deps.textComparer,
      renderer: this.#renderer,
      rankings: deps.rankings,
      crawlStats: deps.crawlStats,
      webhooks: deps.webhooks,
      purges: deps.purges,
      schedules: deps.schedules,
    });
    startWorkers(table, this.#workers, { jobs, log, metrics, lockDurationMs: config.jobLockMs });
    // schedules whose job schedulers the queue's store lost (a flushed Redis, another backend) run again
    deps.schedules
      .restoreTicks()
      .then((restored) => {
        if (restored > 0) workerLog.info({ restored }, 'job schedulers of schedules made again');
      })
      .catch((err: unknown) => workerLog.warn({ err }, 'restoring the job schedulers of schedules'));
    workerLog.info({ backend: jobs.kind, concurrency: config.workerConcurrency }, 'crawl worker started');
  }

  /**
   * The first step of a stop, once `shutdown` is aborted: no more orphan sweeps or announcements, the workers
   * that produce webhook events closed (crawl runners release their leases), the browser closed, and the
   * last page batches and lifecycle events written as rows (and jobs).
   */
  async stopProducing(): Promise<void> {
    this.#orphanSweeper?.stop();
    this.deps.retention.stop();
    this.deps.quotas.stop();
    if (this.#announcer) {
      clearInterval(this.#announcer);
      await this.deps.workersRepository.retire(this.#announcedId).catch(() => {});
    }
    const producing = this.#workers.filter((entry) => entry.queue !== WEBHOOK_QUEUE);
    await Promise.all(producing.map((entry) => entry.worker.close()));
    // no runner renders any more: the browser goes before the connections its pages were served through
    await this.#renderer?.close();
    this.#publishing?.flush();
    await this.#webhookEvents?.flush();
  }

  /** The second step: the webhook workers, after every event is written. */
  async stopDelivering(): Promise<void> {
    await Promise.all(
      this.#workers.filter((entry) => entry.queue === WEBHOOK_QUEUE).map((entry) => entry.worker.close()),
    );
    this.deps.metrics.activeWorkers.reset();
  }

  /** The crawl fetcher's connections, once the queues are closed. */
  async closeFetcher(): Promise<void> {
    await this.#fetcher?.close();
  }
}
