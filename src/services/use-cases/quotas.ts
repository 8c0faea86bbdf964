// Quotas per API key (docs/operations.md#quotas): crawls running at once, pages fetched per month, bytes
// stored. A start over a limit is refused (429 for running crawls, which end by themselves; 403 for the month
// and the storage, which do not) with a problem naming the limit, its value and what is used. Every worker
// process checks the running crawls of keys with a page or byte quota every few seconds and stops one whose
// tenant has reached it: `completed`, stopReason `quota`, nothing stored lost.
import type { Logger } from 'pino';
import type { KeyQuotas } from '../../db/keys-repo.js';
import { tenantScope } from '../../db/tenant-scope.js';
import type { UsageRepository } from '../../db/usage-repo.js';
import { TrawlError } from '../../errors.js';
import { queueCrawlText } from '../../jobs/producers.js';
import type { JobBackend } from '../../jobs/queues.js';
import type { TenantUsage, UsageService } from './usage.js';

export interface QuotaServiceOptions {
  keys: { quotas(id: string): Promise<KeyQuotas | null> };
  usage: Pick<UsageService, 'usage'>;
  repository: Pick<UsageRepository, 'runningWithQuotas' | 'stopForQuota'>;
  /** A crawl stopped for a quota gets its final text job, as one that completes by itself does. */
  jobs: JobBackend;
  /** MAX_RUNNING_CRAWLS_PER_KEY: the running cap of a key without one of its own (0: none). */
  maxRunningCrawlsPerKey: number;
  log: Logger;
  intervalMs: number;
}

/** The running-crawls cap a start is held to, and whose it is (the key's own, or the server's). */
export interface RunningCap {
  value: number;
  source: 'key' | 'server';
}

/** Which limit a tenant's usage has reached, if any: pages per month first, then bytes stored. */
function reached(quotas: KeyQuotas, usage: TenantUsage) {
  if (quotas.pagesPerMonth !== null && usage.pagesFetched.thisMonth >= quotas.pagesPerMonth) {
    return { limit: 'pagesPerMonth', value: quotas.pagesPerMonth, used: usage.pagesFetched.thisMonth };
  }
  if (quotas.storedBytes !== null && usage.storage.bytes >= quotas.storedBytes) {
    return { limit: 'storedBytes', value: quotas.storedBytes, used: usage.storage.bytes };
  }
  return null;
}

export class QuotaService {
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: QuotaServiceOptions) {}

  /**
   * Before a crawl of `owner` starts: a 403 when its key has reached its pages-per-month or stored-bytes limit;
   * otherwise the running cap the start is held to (0: none). Open mode (no key) has no quotas.
   */
  async beforeStart(owner: string | null): Promise<RunningCap> {
    const server: RunningCap = { value: owner ? this.options.maxRunningCrawlsPerKey : 0, source: 'server' };
    if (!owner) return server;
    const quotas = await this.options.keys.quotas(owner);
    if (!quotas) return server;
    if (quotas.pagesPerMonth !== null || quotas.storedBytes !== null) {
      const storage = quotas.storedBytes !== null;
      const [usage] = (await this.options.usage.usage(tenantScope(owner), { storage })).tenants;
      const over = usage ? reached(quotas, usage) : null;
      if (over) {
        throw new TrawlError(
          'forbidden',
          `this API key has reached its ${over.limit} limit (${over.value}; used ${over.used}): raise the limit (PATCH /v1/keys/:id)${over.limit === 'storedBytes' ? ', or purge crawls' : ', or wait for next month'}`,
          { detail: over },
        );
      }
    }
    return quotas.runningCrawls !== null ? { value: quotas.runningCrawls, source: 'key' } : server;
  }

  /** Stops the running crawls whose tenant has reached a page or byte limit; their ids. */
  async enforce(): Promise<string[]> {
    const { repository, keys, usage, log } = this.options;
    const stopped: string[] = [];
    const byOwner = new Map<string, string[]>();
    for (const crawl of await repository.runningWithQuotas()) {
      byOwner.set(crawl.owner, [...(byOwner.get(crawl.owner) ?? []), crawl.id]);
    }
    for (const [owner, crawlIds] of byOwner) {
      const quotas = await keys.quotas(owner);
      const storage = quotas?.storedBytes !== null && quotas?.storedBytes !== undefined;
      const [tenant] = (await usage.usage(tenantScope(owner), { storage })).tenants;
      const over = quotas && tenant ? reached(quotas, tenant) : null;
      if (!over) continue;
      for (const id of crawlIds) {
        const warning = `stopped: the API key reached its ${over.limit} limit (${over.value}; used ${over.used})`;
        if (await repository.stopForQuota(id, warning)) {
          stopped.push(id);
          await queueCrawlText(this.options.jobs, id, 'final').catch((error: unknown) =>
            log.error({ err: error, crawlId: id }, 'could not queue the crawl-text job'),
          );
          log.info({ crawlId: id, owner, ...over }, 'crawl stopped: its key reached a quota');
        }
      }
    }
    return stopped;
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.enforce().catch((error: unknown) => this.options.log.error({ err: error }, 'quota check failed'));
    }, this.options.intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}
