// The `rank` job: compute one queued ranking (an uploaded edges file stored in PostgreSQL, or a crawl's
// link graph) and store its results. The ranking's state lives in PostgreSQL, so a retried or retaken job
// starts over from the stored upload and writes its vertices afresh.
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { RankingService } from '../../services/rankings.js';
import type { RankJobData } from '../queues.js';

export interface RankProcessorDeps {
  rankings: RankingService;
  log: Logger;
}

export function rankProcessor(deps: RankProcessorDeps) {
  return async (job: Job<RankJobData>) => {
    const { rankingId } = job.data;
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const outcome = await deps.rankings.runJob(rankingId, { last });
    deps.log.info({ rankingId, outcome, jobId: job.id }, 'ranking job ended');
    return { rankingId, outcome };
  };
}
