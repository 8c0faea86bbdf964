// The composition root both entries share: database, job backend, services, and (when asked) the crawl
// worker. server.ts and worker.ts differ only in whether they also listen for HTTP.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { BodyBudget, Fetcher, fetcherGuard } from './crawler/fetch/index.js';
import { ChromiumRenderer } from './crawler/render/chromium.js';
import { CorporaRepository } from './db/corpora-repo.js';
import { CrawlsRepository } from './db/crawls-repo.js';
import { type Database, openDatabase } from './db/database.js';
import { KeysRepository } from './db/keys-repo.js';
import { LiveRepository } from './db/live-repo.js';
import { RankingsRepository } from './db/rankings-repo.js';
import { ReportRepository } from './db/report-repo.js';
import { StatsRepository } from './db/stats-repo.js';
import { INTERNAL_SCOPE } from './db/tenant-scope.js';
import { WebhooksRepository } from './db/webhooks-repo.js';
import { ANNOUNCE_EVERY_MS, WorkersRepository } from './db/workers-repo.js';
import {
  type CrawlEventBus,
  fanOutEventSink,
  PublishingEventSink,
  postgresEventBus,
  redisEventBus,
} from './jobs/crawl-events.js';
import { Metrics, metricsEventSink, metricsRenderObserver } from './jobs/metrics.js';
import { startOrphanSweeper } from './jobs/orphan-sweeper.js';
import {
  CORPUS_QUEUE,
  CRAWL_QUEUE,
  CRAWL_TEXT_QUEUE,
  type JobBackend,
  openJobBackend,
  RANK_QUEUE,
  WEBHOOK_QUEUE,
} from './jobs/queues.js';
import { WebhookEventSink } from './jobs/webhook-events.js';
import { outageLog } from './outage.js';
import { CorpusService } from './services/corpora.js';
import { CpuPool } from './services/cpu-pool.js';
import { CrawlExportService } from './services/crawl-export.js';
import { CrawlReportService } from './services/crawl-report.js';
import { CrawlStatsService } from './services/crawl-stats.js';
import { CrawlService } from './services/crawls.js';
import { DocumentPool } from './services/document-pool.js';
import { DocumentFetcher } from './services/documents.js';
import { ExtractionService } from './services/extraction.js';
import { KeyService } from './services/keys.js';
import { LiveProgressService } from './services/live-progress.js';
import { StoredPageContent } from './services/page-content.js';
import { RankingService } from './services/rankings.js';
import { ScoringService } from './services/scoring.js';
import { WebhookDeliverer, webhookCrawlSnapshot } from './services/webhooks.js';
import { corpusProcessor } from './workers/corpus.js';
import { crawlProcessor } from './workers/crawl.js';
import { crawlTextProcessor } from './workers/crawl-text.js';
import { rankProcessor } from './workers/rank.js';
import { webhookProcessor } from './workers/webhook.js';

export interface Runtime {
  config: Config;
  db: Database;
  jobs: JobBackend;
  crawls: CrawlService;
  /** Main text and word statistics of crawls (and the crawl-text job's work). */
  crawlStats: CrawlStatsService;
  rankings: RankingService;
  /** GET /v1/crawls/:id/report and report.html. */
  reports: CrawlReportService;
  /** GET /v1/crawls/:id/export. */
  exports: CrawlExportService;
  extraction: ExtractionService;
  scoring: ScoringService;
  /** The worker threads of extraction and scoring (CPU_POOL_THREADS). */
  cpu: CpuPool;
  corpora: CorpusService;
  keys: KeyService;
  /** This process's Prometheus registry (GET /metrics; a worker's METRICS_PORT server). */
  metrics: Metrics;
  /** GET /v1/crawls/:id/events. */
  live: LiveProgressService;
  /** Webhook deliveries of a crawl (GET /v1/crawls/:id/webhooks) and the `webhook` job's work. */
  webhooks: WebhookDeliverer;
  /** Starts this process's crawl and rank workers (idempotent). */
  startWorker(): void;
  close(): Promise<void>;
}

/** One row of startWorker()'s table: a queue, its processor (given the worker's logger) and concurrency. */
interface WorkerEntry {
  queue: string;
  /** The `component` of the worker's logger. */
  component: string;
  concurrency: number;
  processor(log: Logger): (job: Job<never>, token?: string) => Promise<unknown>;
}

/** Runtimes opened in this process so far: a second one (tests) gets its own application_name. */
let runtimesOpened = 0;

/**
 * `role` names the process in pg_stat_activity: `trawl-<role>:<pid>` is the application_name of every
 * PostgreSQL connection it holds.
 */
export async function openRuntime(
  config: Config,
  log: Logger,
  options: { role?: string } = {},
): Promise<Runtime> {
  runtimesOpened++;
  const applicationName = `trawl-${options.role ?? 'api'}:${process.pid}${runtimesOpened > 1 ? `.${runtimesOpened}` : ''}`;
  const db = await openDatabase({ ...config, applicationName }, (message) =>
    log.child({ component: 'postgres' }).info(message),
  );
  // one line per dependency every few seconds while it is down, not one per reconnect of every client
  const outage = outageLog(log.child({ component: 'outage' }));
  const queueDependency = config.redisUrl ? 'redis' : 'postgres';
  let jobs: JobBackend;
  try {
    jobs = await openJobBackend({
      pool: db.pool,
      clientConfig: db.clientConfig,
      redisUrl: config.redisUrl,
      namespace: config.dbSchema,
      onError: (error, source) => outage(queueDependency, error, source),
    });
  } catch (error) {
    await db.close();
    throw error;
  }
  // Parsing, extraction, scoring and Markdown for requests (/v1/extract, /v1/score, ?include=markdown) and the
  // crawl-text job's extraction and word counts: on worker threads, so the event loop stays free.
  const cpu = new CpuPool({
    threads: config.cpuPoolThreads,
    timeoutMs: config.cpuTaskTimeoutMs,
    heapMb: config.cpuPoolHeapMb,
    onError: (err) => log.child({ component: 'cpu-pool' }).error({ err }, 'CPU worker thread'),
  });
  const crawlStats = new CrawlStatsService({
    repository: new StatsRepository(db.pool),
    crawls: new CrawlsRepository(db.pool),
    jobs,
    cpu,
  });
  // the live workers and whether they can render (each worker announces itself while it runs)
  const workersRepository = new WorkersRepository(db.pool);
  /** Headless Chromium for crawls that render: launched by the first page that needs it, closed last. */
  let renderer: ChromiumRenderer | null = null;
  // A crawl cancelled while still queued never reaches a runner, so the API itself records its
  // `cancelled` webhook event (lifecycle events are unique per crawl: a runner seeing it too adds nothing).
  let apiWebhookEvents: WebhookEventSink | null = null;
  // a crawl's stored bodies, texts and Markdown, for its page reads and its export alike
  const pageContent = new StoredPageContent({ repository: new CrawlsRepository(db.pool), cpu });
  const crawls = new CrawlService({
    onCancelled: (crawlId) => apiWebhookEvents?.crawlEnded({ crawlId, status: 'cancelled', error: null }),
    mainText: crawlStats,
    content: pageContent,
    repository: new CrawlsRepository(db.pool),
    corpora: new CorporaRepository(db.pool),
    jobs,
    defaultUserAgent: config.userAgent,
    maxRunningCrawlsPerKey: config.maxRunningCrawlsPerKey,
    // this process's own worker first (it may not have announced itself yet), then every live worker's row
    renderers: { anyCanRender: async () => renderer !== null || workersRepository.anyCanRender() },
  });
  const rankings = new RankingService({
    repository: new RankingsRepository(db.pool),
    crawls,
    jobs,
    limits: {
      maxUploadBytes: config.rankMaxUploadBytes,
      maxVertices: config.rankMaxVertices,
      maxEdges: config.rankMaxEdges,
    },
    jobThresholds: { uploadBytes: config.rankJobUploadBytes, crawlLinks: config.rankJobCrawlLinks },
    jobTimeoutMs: config.rankJobTimeoutMs,
    cpu,
  });

  const reports = new CrawlReportService({
    crawls,
    stats: crawlStats,
    rankings,
    repository: new ReportRepository(db.pool),
  });
  // The API's own fetches (/v1/extract, /v1/score {url} documents), apart from the crawl worker's connections.
  const apiFetcher = new Fetcher(fetcherGuard(config));
  // Documents' text, for the crawl runners of this process and the API's document URLs: reader processes of
  // their own, with a heap limit and a deadline, since a document is a hostile file until read.
  const documentPool = new DocumentPool({
    processes: config.documentPoolThreads,
    timeoutMs: config.documentTimeoutMs,
    heapMb: config.documentHeapMb,
    memoryMb: config.documentMemoryMb,
    maxUncompressedBytes: config.documentMaxUncompressedBytes,
    onError: (err) => log.child({ component: 'document-pool' }).error({ err }, 'document reader process'),
  });
  const documents = new DocumentFetcher({
    fetcher: apiFetcher,
    userAgent: config.userAgent,
    documentText: documentPool,
  });
  const extraction = new ExtractionService(documents, cpu);
  const exports = new CrawlExportService({
    crawls,
    repository: new CrawlsRepository(db.pool),
    maxConcurrent: config.exportConcurrency,
    content: pageContent,
    bodyMaxBytes: config.exportBodyMaxBytes,
  });
  // Stored TF-IDF corpora: /v1/score (and the crawl engine) read them through the repository's loadCorpus.
  const corporaRepository = new CorporaRepository(db.pool);
  const corpora = new CorpusService({
    repository: corporaRepository,
    crawls: new CrawlsRepository(db.pool),
    jobs,
  });
  const scoring = new ScoringService(documents, corporaRepository, cpu);
  const metrics = new Metrics({
    pool: db.pool,
    jobs,
    queues: [CRAWL_QUEUE, CRAWL_TEXT_QUEUE, RANK_QUEUE, CORPUS_QUEUE, WEBHOOK_QUEUE],
  });
  const onBusError = (err: unknown) => outage(queueDependency, err, 'crawl event bus');
  const bus: CrawlEventBus = config.redisUrl
    ? redisEventBus({ url: config.redisUrl, prefix: config.dbSchema, onError: onBusError })
    : postgresEventBus({ listen: jobs.listenConnection!, pool: db.pool, onError: onBusError });
  const live = new LiveProgressService({
    crawls,
    repository: new LiveRepository(db.pool),
    bus,
    progressIntervalMs: 500,
    pollMs: 2000,
  });
  const webhooksRepository = new WebhooksRepository(db.pool);
  apiWebhookEvents = new WebhookEventSink({
    repository: webhooksRepository,
    jobs,
    pageBatchMs: 1000,
    snapshot: (crawlId) => webhookCrawlSnapshot(crawls, crawlId),
    onError: (err) => log.warn({ err }, 'webhook event of a cancel'),
  });
  const shutdown = new AbortController();
  // Deliveries go through an SSRF-guarded client of their own: a receiver's slowness never holds crawl sockets.
  const webhookFetcher = new Fetcher(fetcherGuard(config));
  const webhooks = new WebhookDeliverer({
    repository: webhooksRepository,
    crawls,
    jobs,
    fetcher: webhookFetcher,
    userAgent: config.userAgent,
    maxAttempts: config.webhookMaxAttempts,
    baseDelayMs: config.webhookRetryBaseMs,
    timeoutMs: config.webhookTimeoutMs,
    onAttempt: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
    shutdown: shutdown.signal,
    shutdownGraceMs: config.shutdownGraceMs,
  });
  let publishing: PublishingEventSink | null = null;
  let webhookEvents: WebhookEventSink | null = null;
  /** This process's workers once startWorker() ran, in the order of its table. */
  const workers: Array<{ queue: string; worker: { close(): Promise<void> } }> = [];
  let orphanSweeper: { stop(): void } | null = null;
  let fetcher: Fetcher | null = null;
  /** This worker's row in the workers table (what it can do), refreshed while it runs. */
  const announcedId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let announcer: NodeJS.Timeout | null = null;
  return {
    config,
    db,
    jobs,
    crawls,
    crawlStats,
    rankings,
    reports,
    exports,
    extraction,
    scoring,
    cpu,
    corpora,
    keys: new KeyService(new KeysRepository(db.pool)),
    metrics,
    live,
    webhooks,
    startWorker() {
      if (workers.length > 0) return;
      const workerFetcher = new Fetcher(fetcherGuard(config));
      fetcher = workerFetcher;
      const workerLog = log.child({ component: 'crawl-worker' });
      // Chromium found at start → this worker can render (it launches only when a crawl asks)
      const canRender = ChromiumRenderer.available(config.chromiumPath);
      renderer = canRender
        ? new ChromiumRenderer({
            executablePath: config.chromiumPath,
            concurrency: config.renderConcurrency,
            recyclePages: config.renderRecyclePages,
            memoryBudgetBytes: config.renderMemoryBudgetBytes,
            log: log.child({ component: 'renderer' }),
            observer: metricsRenderObserver(metrics, () => renderer?.memoryBytes() ?? Promise.resolve(null)),
          })
        : null;
      if (!canRender)
        workerLog.info({ chromiumPath: config.chromiumPath }, 'no Chromium: this worker cannot render pages');
      const announce = () =>
        workersRepository
          .announce(announcedId, canRender)
          .catch((err: unknown) => workerLog.warn({ err }, 'announcing the worker failed'));
      void announce();
      announcer = setInterval(announce, ANNOUNCE_EVERY_MS);
      announcer.unref();
      // The engine's events: metrics, wake-ups for live streams (batched every 250 ms), webhook events.
      const onSinkError = (err: unknown) => workerLog.warn({ err }, 'crawl event sink');
      publishing = new PublishingEventSink(bus, { intervalMs: 250, onError: onSinkError });
      webhookEvents = new WebhookEventSink({
        repository: webhooksRepository,
        jobs,
        pageBatchMs: 1000,
        snapshot: (crawlId) => webhookCrawlSnapshot(crawls, crawlId),
        onError: onSinkError,
      });
      const events = fanOutEventSink([metricsEventSink(metrics), publishing, webhookEvents], onSinkError);
      // a crawl counts as orphaned after three lease periods without a runner's heartbeat
      orphanSweeper = startOrphanSweeper({
        pool: db.pool,
        jobs,
        log: log.child({ component: 'orphan-sweeper' }),
        staleSecs: Math.max(30, 3 * config.leaseSecs),
        intervalMs: 15_000,
      });
      // Every worker of this process, in the order close() stops them: the ones that produce webhook events
      // (crawl, corpus, rank, crawl-text) first, the webhook worker after their last events are flushed.
      // Each processor gets its worker's logger and hands every job a child naming the job and its row.
      const table: WorkerEntry[] = [
        {
          queue: CRAWL_QUEUE,
          component: 'crawl-worker',
          concurrency: config.workerConcurrency,
          processor: (crawlLog) =>
            crawlProcessor({
              pool: db.pool,
              jobs,
              fetcher: workerFetcher,
              bodyBudget: new BodyBudget(config.fetchMemoryBudgetBytes),
              log: crawlLog,
              workerId: `${hostname()}:${process.pid}`,
              leaseSecs: config.leaseSecs,
              shutdown: shutdown.signal,
              shutdownGraceMs: config.shutdownGraceMs,
              corpora: { load: (id) => corporaRepository.loadCorpus(id, INTERNAL_SCOPE, 'relevance.corpus') },
              events,
              documentText: documentPool,
              ...(renderer ? { renderer } : {}),
            }),
        },
        // Corpus builds fetch through this process's worker fetcher (robots.txt, SSRF guard), two at a time.
        {
          queue: CORPUS_QUEUE,
          component: 'corpus-worker',
          concurrency: 2,
          processor: (corpusLog) =>
            corpusProcessor({
              repository: corporaRepository,
              jobs,
              documents: new DocumentFetcher({ fetcher: workerFetcher, userAgent: config.userAgent }),
              log: corpusLog,
              shutdown: shutdown.signal,
            }),
        },
        // Ranking is CPU- and memory-bound (a big graph holds its CSR arrays): one job at a time per process.
        {
          queue: RANK_QUEUE,
          component: 'rank-worker',
          concurrency: 1,
          processor: (rankLog) => rankProcessor({ rankings, log: rankLog }),
        },
        // Text extraction is CPU-bound and runs beside the crawl's fetches: one job at a time per process.
        {
          queue: CRAWL_TEXT_QUEUE,
          component: 'crawl-text-worker',
          concurrency: 1,
          processor: (textLog) =>
            crawlTextProcessor({ stats: crawlStats, log: textLog, shutdown: shutdown.signal }),
        },
        // Webhook deliveries wait on receivers, not on CPU: several at once, apart from the crawl's fetches. Each
        // holds a pooled connection for its crawl's delivery lock (a session advisory lock) while it needs more
        // from the same pool, which the store and BullMQ share: at most a quarter of the pool, so deliveries
        // can never take every connection and wait on each other.
        {
          queue: WEBHOOK_QUEUE,
          component: 'webhook-worker',
          concurrency: Math.max(1, Math.floor(config.dbPoolSize / 4)),
          processor: () => webhookProcessor({ deliverer: webhooks }),
        },
      ];
      for (const entry of table) {
        const entryLog = log.child({ component: entry.component });
        const started = jobs.worker(entry.queue, entry.processor(entryLog), {
          concurrency: entry.concurrency,
          lockDurationMs: config.jobLockMs,
        });
        started.on('failed', (job, error) =>
          entryLog.error({ err: error, jobId: job?.id }, `${entry.queue} job failed`),
        );
        metrics.activeWorkers.set({ queue: entry.queue }, entry.concurrency);
        workers.push({ queue: entry.queue, worker: started });
      }
      workerLog.info({ backend: jobs.kind, concurrency: config.workerConcurrency }, 'crawl worker started');
    },
    async close() {
      // Stop taking jobs: crawl runners stop claiming, let in-flight fetches finish (SHUTDOWN_GRACE_MS, then
      // abort them), release their leases and go back to the queue; then the queues, pools, embedded server.
      shutdown.abort();
      orphanSweeper?.stop();
      if (announcer) {
        clearInterval(announcer);
        await workersRepository.retire(announcedId).catch(() => {});
      }
      const producing = workers.filter((entry) => entry.queue !== WEBHOOK_QUEUE);
      await Promise.all(producing.map((entry) => entry.worker.close()));
      // no runner renders any more: the browser goes before the connections its pages were served through
      await renderer?.close();
      // the last page batches and lifecycle events become rows (and jobs) before the queues close
      publishing?.flush();
      await webhookEvents?.flush();
      await apiWebhookEvents?.flush();
      await Promise.all(
        workers.filter((entry) => entry.queue === WEBHOOK_QUEUE).map((entry) => entry.worker.close()),
      );
      metrics.activeWorkers.reset();
      await bus.close();
      await jobs.close();
      await fetcher?.close();
      await apiFetcher.close();
      await cpu.close();
      await documentPool.close();
      await webhookFetcher.close();
      await db.close();
    },
  };
}
