// The `crawl-text` job: main text and word counts of a crawl's stored HTML pages, off the crawl's fetch path.
// Queued when a crawl finishes and, while it runs, when its word statistics are asked for and are stale. The
// work (exactly-once counting, so a retried or repeated job changes nothing) is CrawlStatsService.countText.
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { CrawlTextJobData } from '../jobs/queues.js';
import type { CrawlStatsService } from '../services/use-cases/crawl-stats.js';

export interface CrawlTextProcessorDeps {
  stats: CrawlStatsService;
  /** Each job logs through a child of it that names the crawl and the job. */
  log: Logger;
  /** Aborted when this process shuts down: the job stops between batches; what it stored stays counted. */
  shutdown: AbortSignal;
}

export function crawlTextProcessor(deps: CrawlTextProcessorDeps) {
  return async (job: Job<CrawlTextJobData>) => {
    const { crawlId } = job.data;
    const log = deps.log.child({ crawlId, jobId: job.id });
    const result = await deps.stats.countText(crawlId, deps.shutdown, ({ pageId, reason, error }) => {
      log.error({ pageId, reason, err: error }, 'page text not counted');
    });
    if (result.pagesFailed > 0) log.warn(result, 'some pages could not be counted');
    log.info(result, 'crawl text counted');
    return { crawlId, ...result };
  };
}
