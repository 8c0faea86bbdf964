// The composition root both entries share: database, job backend, services, and (when asked) the crawl
// worker. server.ts and worker.ts differ only in whether they also listen for HTTP.
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { Fetcher, fetcherGuard } from './crawler/fetch/index.js';
import { CorporaRepository } from './db/corpora-repo.js';
import { CrawlsRepository } from './db/crawls-repo.js';
import { type Database, openDatabase } from './db/database.js';
import { KeysRepository } from './db/keys-repo.js';
import { LiveRepository } from './db/live-repo.js';
import { PurgeRepository } from './db/purge-repo.js';
import { RankingsRepository } from './db/rankings-repo.js';
import { ReportRepository } from './db/report-repo.js';
import { SchedulesRepository } from './db/schedules-repo.js';
import { StatsRepository } from './db/stats-repo.js';
import { UsageRepository } from './db/usage-repo.js';
import { WebhooksRepository } from './db/webhooks-repo.js';
import { WorkersRepository } from './db/workers-repo.js';
import { type CrawlEventBus, postgresEventBus, redisEventBus } from './jobs/crawl-events.js';
import { Metrics } from './jobs/metrics.js';
import {
  CORPUS_QUEUE,
  CRAWL_QUEUE,
  CRAWL_TEXT_QUEUE,
  type JobBackend,
  openJobBackend,
  PURGE_QUEUE,
  RANK_QUEUE,
  SCHEDULE_QUEUE,
  WEBHOOK_QUEUE,
} from './jobs/queues.js';
import { WebhookEventSink } from './jobs/webhook-events.js';
import { outageLog } from './outage.js';
import { StoredPageContent } from './services/content/page-content.js';
import { CpuPool } from './services/pools/cpu-pool.js';
import { CrawlPageReader } from './services/pools/crawl-page-reader.js';
import { CrawlTextComparer } from './services/pools/crawl-text-comparer.js';
import { DocumentPool } from './services/pools/document-pool.js';
import { CorpusService } from './services/use-cases/corpora.js';
import { CrawlExportService } from './services/use-cases/crawl-export.js';
import { CrawlReportService } from './services/use-cases/crawl-report.js';
import { CrawlStatsService } from './services/use-cases/crawl-stats.js';
import { CrawlService } from './services/use-cases/crawls.js';
import { DocumentFetcher } from './services/use-cases/documents.js';
import { ExtractionService } from './services/use-cases/extraction.js';
import { KeyService } from './services/use-cases/keys.js';
import { LiveProgressService } from './services/use-cases/live-progress.js';
import { PurgeService } from './services/use-cases/purge.js';
import { QuotaService, type RunningCap } from './services/use-cases/quotas.js';
import { RankingService } from './services/use-cases/rankings.js';
import { RetentionSweeper } from './services/use-cases/retention.js';
import { ScheduleService } from './services/use-cases/schedules.js';
import { ScoringService } from './services/use-cases/scoring.js';
import { UsageService } from './services/use-cases/usage.js';
import { WebhookDeliverer, webhookCrawlSnapshot } from './services/use-cases/webhooks.js';
import { ProcessWorkers } from './workers/process-workers.js';

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
  /** /v1/schedules and the `schedule` job's runs. */
  schedules: ScheduleService;
  keys: KeyService;
  /** This process's Prometheus registry (GET /metrics; a worker's METRICS_PORT server). */
  metrics: Metrics;
  /** GET /v1/crawls/:id/events. */
  live: LiveProgressService;
  /** Webhook deliveries of a crawl (GET /v1/crawls/:id/webhooks) and the `webhook` job's work. */
  webhooks: WebhookDeliverer;
  /** Purging crawls, deleting rankings and corpora, and the `purge` job's work. */
  purges: PurgeService;
  /** GET /v1/usage: what tenants fetched and store. */
  usage: UsageService;
  /** Purges ended crawls past their retention (started with the workers; sweep() runs one sweep now). */
  retention: RetentionSweeper;
  /** Per-key quotas: checked at each start, and on running crawls (started with the workers; enforce()). */
  quotas: QuotaService;
  /** Starts this process's crawl and rank workers (idempotent). */
  startWorker(): void;
  close(): Promise<void>;
}

/** How often each worker process looks for crawls past their retention (a sweep reads the crawls table once). */
const RETENTION_SWEEP_INTERVAL_MS = 60_000;

/**
 * How often each worker process checks the running crawls of keys with a page or byte quota: how far past
 * its limit a tenant may go (the pages its crawls fetch in that time).
 */
const QUOTA_CHECK_INTERVAL_MS = 5_000;

/** Runtimes opened in this process so far: a second one (tests) gets its own application_name. */
let runtimesOpened = 0;

/**
 * The database and the job backend of a runtime, and where a fault of the queue's store is logged (one line
 * per dependency every few seconds while it is down, not one per reconnect of every client). `role` names
 * the process in pg_stat_activity: `trawl-<role>:<pid>` is the application_name of every PostgreSQL
 * connection it holds.
 */
async function openBackends(
  config: Config,
  log: Logger,
  role: string,
): Promise<{ db: Database; jobs: JobBackend; onQueueError: (error: unknown, source: string) => void }> {
  runtimesOpened++;
  const applicationName = `trawl-${role}:${process.pid}${runtimesOpened > 1 ? `.${runtimesOpened}` : ''}`;
  const db = await openDatabase({ ...config, applicationName }, (message) =>
    log.child({ component: 'postgres' }).info(message),
  );
  const outage = outageLog(log.child({ component: 'outage' }));
  const queueDependency = config.redisUrl ? 'redis' : 'postgres';
  const onQueueError = (error: unknown, source: string) => outage(queueDependency, error, source);
  try {
    const jobs = await openJobBackend({
      pool: db.pool,
      clientConfig: db.clientConfig,
      redisUrl: config.redisUrl,
      namespace: config.dbSchema,
      onError: onQueueError,
    });
    return { db, jobs, onQueueError };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** The database, the job backend and the services, wired; `role` names the process (openBackends). */
export async function openRuntime(
  config: Config,
  log: Logger,
  options: { role?: string } = {},
): Promise<Runtime> {
  const { db, jobs, onQueueError } = await openBackends(config, log, options.role ?? 'api');
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
  /** This process's job workers, once startWorker() ran (they may render, if they found Chromium). */
  let processWorkers: ProcessWorkers | null = null;
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
    quotas: { beforeStart: (owner): Promise<RunningCap> => quotas.beforeStart(owner) },
    retentionDays: config.crawlRetentionDays,
    // this process's own worker first (it may not have announced itself yet), then every live worker's row
    renderers: {
      anyCanRender: async () => processWorkers?.canRender === true || workersRepository.anyCanRender(),
    },
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
  const schedules = new ScheduleService({
    repository: new SchedulesRepository(db.pool),
    jobs,
    crawls,
    minEveryMs: config.scheduleMinEverySecs * 1000,
  });
  const metrics = new Metrics({
    pool: db.pool,
    jobs,
    queues: [
      CRAWL_QUEUE,
      CRAWL_TEXT_QUEUE,
      RANK_QUEUE,
      CORPUS_QUEUE,
      WEBHOOK_QUEUE,
      PURGE_QUEUE,
      SCHEDULE_QUEUE,
    ],
  });
  const onBusError = (err: unknown) => onQueueError(err, 'crawl event bus');
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
  const purgeRepository = new PurgeRepository(db.pool);
  const purges = new PurgeService({
    repository: purgeRepository,
    jobs,
    webhooks: webhooksRepository,
    crawls: {
      get: (id, scope) => new CrawlsRepository(db.pool).get(id, scope),
      status: (id, scope) => crawls.status(id, scope),
      forgetStatus: (id) => crawls.forgetStatus(id),
    },
    rankings: new RankingsRepository(db.pool),
    corpora: corporaRepository,
    onCancelled: (crawlId) => apiWebhookEvents?.crawlEnded({ crawlId, status: 'cancelled', error: null }),
  });
  const retention = new RetentionSweeper({
    repository: purgeRepository,
    purges,
    retentionDays: config.crawlRetentionDays,
    log: log.child({ component: 'retention-sweeper' }),
    intervalMs: RETENTION_SWEEP_INTERVAL_MS,
  });
  const usageRepository = new UsageRepository(db.pool);
  const usage = new UsageService({
    repository: usageRepository,
    storage: (id, row) => crawls.storage(id, row),
  });
  const keys = new KeyService(new KeysRepository(db.pool));
  const quotas = new QuotaService({
    keys,
    usage,
    repository: usageRepository,
    jobs,
    maxRunningCrawlsPerKey: config.maxRunningCrawlsPerKey,
    log: log.child({ component: 'quotas' }),
    intervalMs: QUOTA_CHECK_INTERVAL_MS,
  });
  return {
    config,
    db,
    jobs,
    purges,
    usage,
    retention,
    crawls,
    crawlStats,
    rankings,
    reports,
    exports,
    extraction,
    scoring,
    cpu,
    corpora,
    schedules,
    keys,
    quotas,
    metrics,
    live,
    webhooks,
    startWorker() {
      processWorkers ??= new ProcessWorkers({
        config,
        log,
        db,
        jobs,
        metrics,
        bus,
        shutdown: shutdown.signal,
        crawls,
        crawlStats,
        rankings,
        webhooks,
        purges,
        retention,
        quotas,
        schedules,
        corpora: corporaRepository,
        documentPool,
        pageReader: new CrawlPageReader(cpu),
        textComparer: new CrawlTextComparer(cpu),
        webhooksRepository,
        workersRepository,
      });
      processWorkers.start();
    },
    async close() {
      // Stop taking jobs: crawl runners stop claiming, let in-flight fetches finish (SHUTDOWN_GRACE_MS, then
      // abort them), release their leases and go back to the queue; then the queues, pools, embedded server.
      shutdown.abort();
      await processWorkers?.stopProducing();
      // the last page batches and lifecycle events become rows (and jobs) before the queues close
      await apiWebhookEvents?.flush();
      await processWorkers?.stopDelivering();
      await bus.close();
      await jobs.close();
      await processWorkers?.closeFetcher();
      await apiFetcher.close();
      await cpu.close();
      await documentPool.close();
      await webhookFetcher.close();
      await db.close();
    },
  };
}
