// The `rank` job: compute one queued ranking (an uploaded edges file stored in PostgreSQL, or a crawl's
// link graph) and store its results. The ranking's state lives in PostgreSQL, so a retried or retaken job
// starts over from the stored upload and writes its vertices afresh.
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { isLastAttempt } from '../jobs/producers.js';
import type { RankJobData } from '../jobs/queues.js';
import type { RankingService } from '../services/use-cases/rankings.js';

export interface RankProcessorDeps {
  rankings: RankingService;
  /** Each job logs through a child of it that names the ranking and the job. */
  log: Logger;
}

export function rankProcessor(deps: RankProcessorDeps) {
  return async (job: Job<RankJobData>) => {
    const { rankingId } = job.data;
    const last = isLastAttempt(job);
    const outcome = await deps.rankings.runJob(rankingId, { last });
    deps.log.child({ rankingId, jobId: job.id }).info({ outcome }, 'ranking job ended');
    return { rankingId, outcome };
  };
}
