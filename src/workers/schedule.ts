// The `schedule` job: a schedule is due. Its job scheduler (jobs/producers.ts keepScheduleTicks) made this job
// and has already queued the next run, so this job only starts the run's crawl, or counts it skipped
// (services/use-cases/schedules.ts run). A job left by a schedule since deleted finds nothing and ends.
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { INTERNAL_SCOPE } from '../db/tenant-scope.js';
import type { ScheduleJobData } from '../jobs/queues.js';
import type { ScheduleService } from '../services/use-cases/schedules.js';

export interface ScheduleProcessorDeps {
  schedules: Pick<ScheduleService, 'run'>;
  /** Each job logs through a child of it that names the schedule and the job. */
  log: Logger;
}

export function scheduleProcessor(deps: ScheduleProcessorDeps) {
  return async (job: Job<ScheduleJobData>) => {
    const { scheduleId } = job.data;
    const outcome = await deps.schedules.run(scheduleId, INTERNAL_SCOPE);
    deps.log.child({ scheduleId, jobId: job.id }).info(outcome, 'schedule run');
    return { scheduleId, ...outcome };
  };
}
