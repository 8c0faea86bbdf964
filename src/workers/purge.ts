// The `purge` job: removes what a purged crawl, or a deleted ranking or corpus, left (PurgeService.run) and
// logs what went. A run that stops before the end (the process shuts down, or a crawl's `purged` webhook event
// is still to be delivered) queues the next run itself; the orphan sweeper takes up a crawl's purge whose job
// was lost.
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { queuePurge } from '../jobs/producers.js';
import type { JobBackend, PurgeJobData } from '../jobs/queues.js';
import { PurgeService } from '../services/use-cases/purge.js';

export interface PurgeProcessorDeps {
  purges: PurgeService;
  jobs: JobBackend;
  /** Each job logs through a child of it that names what is purged and the job. */
  log: Logger;
  /** Aborted when this process shuts down: the job stops between batches and is queued again. */
  shutdown: AbortSignal;
}

export function purgeProcessor(deps: PurgeProcessorDeps) {
  return async (job: Job<PurgeJobData>) => {
    const { kind, id } = job.data;
    const log = deps.log.child({ [`${kind}Id`]: id, jobId: job.id });
    const outcome = await deps.purges.run(job.data, deps.shutdown);
    if (outcome.done) {
      log.info(outcome, `${kind} purged`);
    } else {
      log.info(outcome, `${kind} purge goes on in a later job`);
      await queuePurge(deps.jobs, job.data, `.${Date.now()}`, PurgeService.webhookWaitMs);
    }
    return { kind, id, ...outcome };
  };
}
