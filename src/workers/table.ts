// The one table of a worker process's jobs: each queue, its processor and how many of its jobs run at once,
// and the start of a worker per row. runtime.ts wires the services and hands them here.
import { hostname } from 'node:os';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { CrawlEventSink, HtmlPageReader, TextComparer } from '../crawler/engine/ports.js';
import { BodyBudget, type Fetcher } from '../crawler/fetch/index.js';
import type { PageRenderer } from '../crawler/render/port.js';
import type { CorporaRepository } from '../db/corpora-repo.js';
import type { Database } from '../db/database.js';
import { INTERNAL_SCOPE } from '../db/tenant-scope.js';
import type { Metrics } from '../jobs/metrics.js';
import {
  CORPUS_QUEUE,
  CRAWL_QUEUE,
  CRAWL_TEXT_QUEUE,
  type JobBackend,
  PURGE_QUEUE,
  RANK_QUEUE,
  SCHEDULE_QUEUE,
  WEBHOOK_QUEUE,
} from '../jobs/queues.js';
import type { DocumentPool } from '../services/pools/document-pool.js';
import type { CrawlStatsService } from '../services/use-cases/crawl-stats.js';
import { DocumentFetcher } from '../services/use-cases/documents.js';
import type { PurgeService } from '../services/use-cases/purge.js';
import type { RankingService } from '../services/use-cases/rankings.js';
import type { ScheduleService } from '../services/use-cases/schedules.js';
import type { WebhookDeliverer } from '../services/use-cases/webhooks.js';
import { corpusProcessor } from './corpus.js';
import { crawlProcessor } from './crawl.js';
import { crawlTextProcessor } from './crawl-text.js';
import { purgeProcessor } from './purge.js';
import { rankProcessor } from './rank.js';
import { scheduleProcessor } from './schedule.js';
import { webhookProcessor } from './webhook.js';

/** One row of the table: a queue, its processor (given the worker's logger) and concurrency. */
export interface WorkerEntry {
  queue: string;
  /** The `component` of the worker's logger. */
  component: string;
  concurrency: number;
  processor(log: Logger): (job: Job<never>, token?: string) => Promise<unknown>;
}

/** What the processors of a worker process are given: its services and its share of the process. */
export interface WorkerDeps {
  config: Config;
  db: Database;
  jobs: JobBackend;
  /** This process's crawl fetcher, which corpus builds fetch through too (robots.txt, SSRF guard). */
  fetcher: Fetcher;
  /** Aborted when this process shuts down. */
  shutdown: AbortSignal;
  corpora: CorporaRepository;
  /** Metrics, live progress and webhooks hear of the crawl's pages and end through this. */
  events: CrawlEventSink;
  documentPool: DocumentPool;
  /** Reads crawled pages for links and main text off the crawl's event loop. */
  pageReader: HtmlPageReader;
  textComparer: TextComparer;
  renderer: PageRenderer | null;
  rankings: RankingService;
  crawlStats: CrawlStatsService;
  webhooks: WebhookDeliverer;
  purges: PurgeService;
  schedules: ScheduleService;
}

/**
 * Every worker of a process, in the order close() stops them: the ones that produce webhook events (crawl,
 * corpus, rank, crawl-text) first, the webhook worker after their last events are flushed. Each processor
 * gets its worker's logger and hands every job a child naming the job and its row.
 */
export function workerTable(deps: WorkerDeps): WorkerEntry[] {
  const { config, db, jobs, shutdown, renderer } = deps;
  return [
    {
      queue: CRAWL_QUEUE,
      component: 'crawl-worker',
      concurrency: config.workerConcurrency,
      processor: (crawlLog) =>
        crawlProcessor({
          pool: db.pool,
          jobs,
          fetcher: deps.fetcher,
          bodyBudget: new BodyBudget(config.fetchMemoryBudgetBytes),
          log: crawlLog,
          workerId: `${hostname()}:${process.pid}`,
          leaseSecs: config.leaseSecs,
          shutdown,
          shutdownGraceMs: config.shutdownGraceMs,
          corpora: { load: (id) => deps.corpora.loadCorpus(id, INTERNAL_SCOPE, 'relevance.corpus') },
          events: deps.events,
          documentText: deps.documentPool,
          pageReader: deps.pageReader,
          textComparer: deps.textComparer,
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
          repository: deps.corpora,
          jobs,
          documents: new DocumentFetcher({ fetcher: deps.fetcher, userAgent: config.userAgent }),
          log: corpusLog,
          shutdown,
        }),
    },
    // Ranking is CPU- and memory-bound (a big graph holds its CSR arrays): one job at a time per process.
    {
      queue: RANK_QUEUE,
      component: 'rank-worker',
      concurrency: 1,
      processor: (rankLog) => rankProcessor({ rankings: deps.rankings, log: rankLog }),
    },
    // Text extraction is CPU-bound and runs beside the crawl's fetches: one job at a time per process.
    {
      queue: CRAWL_TEXT_QUEUE,
      component: 'crawl-text-worker',
      concurrency: 1,
      processor: (textLog) => crawlTextProcessor({ stats: deps.crawlStats, log: textLog, shutdown }),
    },
    // A purge deletes in batches that each take PostgreSQL a moment: one at a time per process, so purging
    // never takes more than a connection or two from the crawls beside it.
    {
      queue: PURGE_QUEUE,
      component: 'purge-worker',
      concurrency: 1,
      processor: (purgeLog) => purgeProcessor({ purges: deps.purges, jobs, log: purgeLog, shutdown }),
    },
    // A schedule's run starts a crawl or counts a skip: a few statements, one at a time per process
    {
      queue: SCHEDULE_QUEUE,
      component: 'schedule-worker',
      concurrency: 1,
      processor: (scheduleLog) => scheduleProcessor({ schedules: deps.schedules, log: scheduleLog }),
    },
    // Webhook deliveries wait on receivers, not on CPU: several at once, apart from the crawl's fetches. Each
    // holds a pooled connection for its crawl's delivery lock (a session advisory lock) while it needs more
    // from the same pool, which the store and BullMQ share: at most a quarter of the pool, so deliveries
    // can never take every connection and wait on each other.
    {
      queue: WEBHOOK_QUEUE,
      component: 'webhook-worker',
      concurrency: Math.max(1, Math.floor(config.dbPoolSize / 4)),
      processor: () => webhookProcessor({ deliverer: deps.webhooks }),
    },
  ];
}

/** A started worker of the table, by its queue. */
export interface StartedWorker {
  queue: string;
  worker: { close(): Promise<void> };
}

/**
 * Starts a worker per row of `table`, in order, each logging its failed jobs and counted in the metrics;
 * each is added to `started` as it starts, so a start that fails midway leaves the earlier ones to close.
 */
export function startWorkers(
  table: WorkerEntry[],
  started: StartedWorker[],
  options: { jobs: JobBackend; log: Logger; metrics: Metrics; lockDurationMs: number },
): void {
  for (const entry of table) {
    const entryLog = options.log.child({ component: entry.component });
    const worker = options.jobs.worker(entry.queue, entry.processor(entryLog), {
      concurrency: entry.concurrency,
      lockDurationMs: options.lockDurationMs,
    });
    worker.on('failed', (job, error) =>
      entryLog.error({ err: error, jobId: job?.id }, `${entry.queue} job failed`),
    );
    options.metrics.activeWorkers.set({ queue: entry.queue }, entry.concurrency);
    started.push({ queue: entry.queue, worker });
  }
}
