// Every job trawl queues, one function per kind, and the options of each queue's jobs in one table: services,
// processors and the orphan sweeper call these instead of `queue(...).add` with options of their own.
import type { Job, JobsOptions } from 'bullmq';
import {
  CORPUS_QUEUE,
  type CorpusJobData,
  CRAWL_QUEUE,
  CRAWL_TEXT_QUEUE,
  type CrawlJobData,
  type CrawlTextJobData,
  type JobBackend,
  PURGE_QUEUE,
  type PurgeJobData,
  RANK_QUEUE,
  type RankJobData,
  SCHEDULE_QUEUE,
  type ScheduleJobData,
  WEBHOOK_QUEUE,
  type WebhookJobData,
} from './queues.js';

// Finished jobs are kept a while for the queue board and for debugging: the last 1000 done, 5000 failed.
const KEPT = { removeOnComplete: 1000, removeOnFail: 5000 } as const;

/**
 * Retries and retention per queue. Every job's state lives in PostgreSQL, so a retry starts over safely.
 * Webhook jobs are never retried by BullMQ: WebhookDeliverer queues each further attempt itself, delayed.
 */
export const JOB_OPTIONS = {
  [CRAWL_QUEUE]: { ...KEPT, attempts: 3 },
  [CRAWL_TEXT_QUEUE]: { ...KEPT, attempts: 3, backoff: { type: 'exponential', delay: 1000 } },
  [RANK_QUEUE]: { ...KEPT, attempts: 3 },
  [CORPUS_QUEUE]: { ...KEPT, attempts: 2 },
  [WEBHOOK_QUEUE]: { ...KEPT },
  [PURGE_QUEUE]: { ...KEPT, attempts: 5, backoff: { type: 'exponential', delay: 1000 } },
  // a schedule's run only starts a crawl (or counts a skip): a failed one waits for the next tick, not a retry
  [SCHEDULE_QUEUE]: { ...KEPT },
} as const satisfies Record<string, JobsOptions>;

/** Whether this run of the job is its last (no retry follows a failure): the job's row is then marked failed. */
export function isLastAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/**
 * Queues the runner jobs of a crawl (one per `workers`). `tag` makes the job ids new when a crawl is
 * resumed, so BullMQ does not take them for the finished jobs of the first run.
 */
export async function queueCrawlRunners(
  jobs: JobBackend,
  crawlId: string,
  workers: number,
  tag = '',
): Promise<void> {
  await jobs.queue(CRAWL_QUEUE).addBulk(
    Array.from({ length: workers }, (_, runner) => ({
      name: 'crawl',
      data: { crawlId, runner } satisfies CrawlJobData,
      opts: { ...JOB_OPTIONS[CRAWL_QUEUE], jobId: `${crawlId}.${runner}${tag}` },
    })),
  );
}

/**
 * Queues the crawl-text job of a crawl and answers its job id. `final` (the crawl has finished): once per crawl,
 * by job id, whatever else is queued or running. `refresh` (stale statistics were asked for): deduplicated while
 * a refresh is waiting or running, so polling queues one job, and a later request after it ends queues the next.
 */
export async function queueCrawlText(
  jobs: JobBackend,
  crawlId: string,
  reason: 'final' | 'refresh',
): Promise<string | undefined> {
  const job = await jobs.queue(CRAWL_TEXT_QUEUE).add('crawl-text', { crawlId } satisfies CrawlTextJobData, {
    ...JOB_OPTIONS[CRAWL_TEXT_QUEUE],
    ...(reason === 'final'
      ? { jobId: `${crawlId}.text.final` }
      : { deduplication: { id: `${crawlId}.text.refresh` } }),
  });
  return job.id;
}

/** Queues the job of a queued ranking (one per ranking, by job id). */
export async function queueRank(jobs: JobBackend, rankingId: string): Promise<void> {
  await jobs.queue(RANK_QUEUE).add('rank', { rankingId } satisfies RankJobData, {
    ...JOB_OPTIONS[RANK_QUEUE],
    jobId: `rank.${rankingId}`,
  });
}

/**
 * Queues the build of a queued corpus. The first job's id is the corpus id; `again` (a build given back by a
 * process shutting down) makes a new one, since the first job's id is still taken.
 */
export async function queueCorpus(jobs: JobBackend, corpusId: string, again = false): Promise<void> {
  await jobs.queue(CORPUS_QUEUE).add('corpus', { corpusId } satisfies CorpusJobData, {
    ...JOB_OPTIONS[CORPUS_QUEUE],
    jobId: again ? `${corpusId}.${Date.now()}` : corpusId,
  });
}

/**
 * Queues a delivery run of a crawl's due webhook events. `key` makes the job id unique per event (and per
 * attempt of a retried event); `delayMs` holds a retry back.
 */
export async function queueWebhookDelivery(
  jobs: JobBackend,
  crawlId: string,
  key: string,
  delayMs = 0,
): Promise<void> {
  await jobs.queue(WEBHOOK_QUEUE).add('deliver', { crawlId } satisfies WebhookJobData, {
    ...JOB_OPTIONS[WEBHOOK_QUEUE],
    jobId: `${crawlId}.${key}`,
    ...(delayMs > 0 ? { delay: delayMs } : {}),
  });
}

/**
 * Queues the purge of a crawl, or of a deleted ranking's or corpus's rows. `tag` makes the job id new when a
 * purge is taken up again (a purge waiting for its webhook, one given back by a process shutting down, one
 * the orphan sweeper found without a job), since the first job's id is still taken; `delayMs` holds it back.
 */
export async function queuePurge(jobs: JobBackend, data: PurgeJobData, tag = '', delayMs = 0): Promise<void> {
  await jobs.queue(PURGE_QUEUE).add('purge', data, {
    ...JOB_OPTIONS[PURGE_QUEUE],
    jobId: `purge.${data.kind}.${data.id}${tag}`,
    ...(delayMs > 0 ? { delay: delayMs } : {}),
  });
}

/** When a schedule runs: an interval, or a cron expression in an IANA time zone. */
export type ScheduleTicks = { everyMs: number } | { cron: string; timezone: string };

/**
 * Makes (or changes) the job scheduler of a schedule: BullMQ keeps the next run as a delayed job in the queue's
 * store, so it survives restarts; a run overdue while no worker ran is taken once when one starts, and the
 * next run is computed from then on, never once per missed tick (docs/operations.md#schedules). With `every`
 * the first run is at once.
 */
export async function keepScheduleTicks(
  jobs: JobBackend,
  scheduleId: string,
  ticks: ScheduleTicks,
): Promise<void> {
  await jobs
    .queue(SCHEDULE_QUEUE)
    .upsertJobScheduler(
      scheduleId,
      'everyMs' in ticks ? { every: ticks.everyMs } : { pattern: ticks.cron, tz: ticks.timezone },
      { name: 'run', data: { scheduleId } satisfies ScheduleJobData, opts: JOB_OPTIONS[SCHEDULE_QUEUE] },
    );
}

/** Removes a schedule's job scheduler and its next run; a run already started ends as it would. */
export async function dropScheduleTicks(jobs: JobBackend, scheduleId: string): Promise<void> {
  await jobs.queue(SCHEDULE_QUEUE).removeJobScheduler(scheduleId);
}

/** When the schedule's next run is due (ms since the epoch), or null when it has no job scheduler. */
export async function nextScheduleRunMs(jobs: JobBackend, scheduleId: string): Promise<number | null> {
  const scheduler = await jobs.queue(SCHEDULE_QUEUE).getJobScheduler(scheduleId);
  return scheduler?.next ?? null;
}
