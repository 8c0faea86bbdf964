// A crawl's state lives in PostgreSQL, its runners in the queue. When the runners vanish (a flushed Redis, a
// queue emptied by hand, every worker killed past BullMQ's stalled-job recovery) the crawl would stay
// "running" forever; each worker sweeps for running crawls whose runners stopped reporting and re-queues them.
// A crawl still queued after as long may never have had jobs (the queue failed right after the crawl was
// written): its runner jobs are added again under their first ids, which BullMQ ignores when they exist. A
// purging crawl whose purge job went silent gets a new one (a purge takes up what is left). Each sweep also adds
// the pages crawls fetched since the last one to their tenants' months (usage_sync.sql).
import type pg from 'pg';
import type { RunnerLogger } from '../crawler/engine/crawl-runner.js';
import { sql } from '../db/sql.js';
import { queueCrawlRunners, queuePurge } from './producers.js';
import type { JobBackend } from './queues.js';

export function startOrphanSweeper(options: {
  pool: pg.Pool;
  jobs: JobBackend;
  log: RunnerLogger;
  /** A running crawl whose runners have not reported for this long is taken to have none. */
  staleSecs: number;
  intervalMs: number;
}): { stop(): void } {
  const sweep = async () => {
    try {
      const orphans = await options.pool.query<{ id: string; status: string; workers: number }>(
        sql('crawl_orphans'),
        [options.staleSecs],
      );
      for (const { id, status, workers } of orphans.rows) {
        if (status === 'purging') {
          options.log.warn({ crawlId: id }, 'crawl purge had no live job; queuing it again');
          await queuePurge(options.jobs, { kind: 'crawl', id }, `.resumed-${Date.now()}`);
          continue;
        }
        if (status === 'queued') {
          await queueCrawlRunners(options.jobs, id, workers);
          continue;
        }
        options.log.warn({ crawlId: id }, 'crawl had no live runner; re-queuing its runners');
        await queueCrawlRunners(options.jobs, id, workers, `.resumed-${Date.now()}`);
      }
    } catch (error) {
      options.log.error({ err: error }, 'orphan sweep failed');
    }
    try {
      await options.pool.query(sql('usage_sync'));
    } catch (error) {
      options.log.error({ err: error }, 'usage sync failed');
    }
  };
  // a worker that just started looks at once: it may be the first one back after all were gone
  const first = setTimeout(() => void sweep(), 1000);
  const timer = setInterval(() => void sweep(), options.intervalMs);
  first.unref();
  timer.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
