// The `crawl` job: one runner of one crawl. The crawl's state lives in PostgreSQL, so a job can be
// retried, retaken after a worker died (BullMQ's stalled-job check) or re-queued on shutdown without loss.
import { type Job, WaitingError } from 'bullmq';
import type pg from 'pg';
import type { Logger } from 'pino';
import { crawlSettings } from '../crawler/crawl-request.js';
import { CrawlRunner, type RunnerExit } from '../crawler/engine/crawl-runner.js';
import type {
  CrawlEventSink,
  DocumentTextReader,
  HtmlPageReader,
  TextComparer,
} from '../crawler/engine/ports.js';
import type { CorpusSource } from '../crawler/engine/relevance.js';
import type { BodyBudget, Fetcher } from '../crawler/fetch/index.js';
import type { PageRenderer } from '../crawler/render/port.js';
import { isFinished } from '../crawler/vocabulary.js';
import { PgCrawlStore } from '../db/crawl-store.js';
import { CrawlsRepository } from '../db/crawls-repo.js';
import { INTERNAL_SCOPE } from '../db/tenant-scope.js';
import { isLastAttempt, queueCrawlText } from '../jobs/producers.js';
import type { CrawlJobData, JobBackend } from '../jobs/queues.js';

export interface CrawlProcessorDeps {
  pool: pg.Pool;
  jobs: JobBackend;
  fetcher: Fetcher;
  /** Shared by every crawl runner of this process. */
  bodyBudget: BodyBudget;
  /** Each job (and its runner) logs through a child of it that names the crawl and the job. */
  log: Logger;
  workerId: string;
  leaseSecs: number;
  /** Aborted when this process shuts down: runners stop claiming, and go back to the queue. */
  shutdown: AbortSignal;
  /** How long a shutting-down runner's in-flight fetches may still run before they are aborted. */
  shutdownGraceMs: number;
  /** Stored corpora, for TF-IDF crawls that name one. */
  corpora?: CorpusSource;
  /** Metrics, live progress and webhooks hear of written pages and the crawl's end through this. */
  events?: CrawlEventSink;
  /** Reads downloaded documents' text (the document pool); without it documents are hashed, not read. */
  documentText?: DocumentTextReader;
  /** Reads stored HTML pages once for links and main text (the CPU pool); without it the crawl parses them. */
  pageReader?: HtmlPageReader;
  /** Compares a recrawl's changed pages' main texts (the CPU pool); without it they are compared inline. */
  textComparer?: TextComparer;
  /** Headless Chromium, when this worker found it at start (crawls that render need it). */
  renderer?: PageRenderer;
}

const TEXT_REFRESH_MS = 20_000;

export function crawlProcessor(deps: CrawlProcessorDeps) {
  const repository = new CrawlsRepository(deps.pool);
  const store = new PgCrawlStore(deps.pool, (error) =>
    deps.log.warn({ err: error }, 'refreshing the page table statistics failed'),
  );
  return async (job: Job<CrawlJobData>, token?: string) => {
    const { crawlId, runner } = job.data;
    const log = deps.log.child({ crawlId, jobId: job.id });
    const crawl = await repository.get(crawlId, INTERNAL_SCOPE);
    if (!crawl || isFinished(crawl.status)) return { crawlId, exit: 'nothing-to-do' };
    const { request } = crawl;
    const settings = crawlSettings(crawlId, request);
    const share = Math.max(1, Math.ceil(settings.concurrency / Math.max(1, request.workers)));
    // Main text is extracted and counted while the crawl runs, by the crawl-text job (deduplicated, so
    // several runners asking at once queue one), a few times a minute: off the fetch path, never far behind.
    const textRefresh =
      runner === 0 && request.extract.enabled && request.store.html
        ? setInterval(() => {
            queueCrawlText(deps.jobs, crawlId, 'refresh').catch((err: unknown) =>
              log.warn({ err }, 'could not queue a crawl-text refresh'),
            );
          }, TEXT_REFRESH_MS)
        : null;
    textRefresh?.unref();
    let exit: RunnerExit;
    try {
      exit = await new CrawlRunner(settings, {
        workerId: `${deps.workerId}/${runner}`,
        leaseSecs: deps.leaseSecs,
        fetcher: deps.fetcher,
        bodyBudget: deps.bodyBudget,
        store,
        log,
        concurrency: share,
        signal: deps.shutdown,
        graceMs: deps.shutdownGraceMs,
        ...(deps.corpora ? { corpora: deps.corpora } : {}),
        ...(deps.events ? { events: deps.events } : {}),
        ...(deps.documentText ? { documentText: deps.documentText } : {}),
        ...(deps.pageReader ? { pageReader: deps.pageReader } : {}),
        ...(deps.textComparer ? { textComparer: deps.textComparer } : {}),
        ...(deps.renderer ? { renderer: deps.renderer } : {}),
      }).run();
    } catch (error) {
      if (isLastAttempt(job)) {
        await store.finishCrawl(crawlId, 'failed', error instanceof Error ? error.message : String(error));
      }
      throw error;
    } finally {
      clearInterval(textRefresh ?? undefined);
    }
    if (exit === 'aborted') {
      // This process is shutting down mid-crawl and the runner has released its leases: the job goes back
      // to the queue now (same id, no attempt spent) for the next worker, instead of waiting for BullMQ's
      // stalled-job check to notice its lock ran out.
      await job.moveToWait(token);
      throw new WaitingError();
    }
    // Main text and word counts are a job of their own, off the fetch path; a queue fault is not a crawl fault.
    if (exit === 'finished')
      await queueCrawlText(deps.jobs, crawlId, 'final').catch((err: unknown) =>
        log.error({ err }, 'could not queue the crawl-text job'),
      );
    return { crawlId, exit };
  };
}
