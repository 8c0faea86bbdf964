// The retention sweeper (docs/operations.md#retention): ended crawls are purged CRAWL_RETENTION_DAYS after they
// ended, or after their own retention.days (which may only be fewer). Every worker process runs one; a sweep
// holds a lock of the schema, so one process sweeps at a time and a crawl is purged once. Each purge is logged.
import type { Logger } from 'pino';
import type { PurgeRepository } from '../../db/purge-repo.js';
import { INTERNAL_SCOPE } from '../../db/tenant-scope.js';
import type { PurgeService } from './purge.js';

/** Crawls one sweep marks for purging: the next sweep takes the rest. */
const SWEEP_CRAWLS = 100;

export interface RetentionSweeperOptions {
  repository: Pick<PurgeRepository, 'withRetentionLock' | 'expiredCrawls'>;
  purges: Pick<PurgeService, 'purgeCrawl'>;
  /** CRAWL_RETENTION_DAYS; null: only crawls that asked for retention.days are purged. */
  retentionDays: number | null;
  log: Logger;
  intervalMs: number;
}

export class RetentionSweeper {
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: RetentionSweeperOptions) {}

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.sweep(), this.options.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** One sweep: the expired crawls it marked for purging (none when another process holds the lock). */
  async sweep(): Promise<string[]> {
    const { repository, purges, retentionDays, log } = this.options;
    const purged: string[] = [];
    try {
      await repository.withRetentionLock(async () => {
        for (const crawl of await repository.expiredCrawls(retentionDays, SWEEP_CRAWLS)) {
          await purges.purgeCrawl(crawl.id, INTERNAL_SCOPE);
          purged.push(crawl.id);
          log.info(
            { crawlId: crawl.id, finishedAt: crawl.finished_at, retentionDays: crawl.days },
            'crawl past its retention: purging',
          );
        }
      });
    } catch (error) {
      log.error({ err: error }, 'retention sweep failed');
    }
    return purged;
  }
}
