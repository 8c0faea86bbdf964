// GET /v1/usage (docs/operations.md#usage): per tenant, its crawls by status, the pages it fetched this month
// and in all, and what its crawls store. A tenant key sees its own figures, an admin key every tenant's. The
// quotas (keys.ts) read a tenant's figures here too.
import { CRAWL_STATUSES, type CrawlStatusName } from '../../crawler/vocabulary.js';
import type { CrawlRow, CrawlStorage } from '../../db/crawls-repo.js';
import { type TenantScope, tenantName } from '../../db/tenant-scope.js';
import type { UsageRepository } from '../../db/usage-repo.js';

export interface TenantUsage {
  tenant: string;
  crawls: Record<CrawlStatusName, number> & { total: number };
  pagesFetched: { thisMonth: number; total: number };
  storage: {
    bytes: number;
    bodyBytes: number;
    warcBodyBytes: number;
    screenshotBytes: number;
    pageRows: number;
    linkRows: number;
  };
}

export interface UsageServiceOptions {
  repository: UsageRepository;
  /** A crawl's storage: kept once it has finished, measured (and cached a while) before (crawl-status.ts). */
  storage(id: string, row: Pick<CrawlRow, 'status' | 'storage'>): Promise<CrawlStorage>;
}

function emptyUsage(tenant: string): TenantUsage {
  const crawls = Object.fromEntries(CRAWL_STATUSES.map((status) => [status, 0])) as TenantUsage['crawls'];
  crawls.total = 0;
  return {
    tenant,
    crawls,
    pagesFetched: { thisMonth: 0, total: 0 },
    storage: { bytes: 0, bodyBytes: 0, warcBodyBytes: 0, screenshotBytes: 0, pageRows: 0, linkRows: 0 },
  };
}

export class UsageService {
  constructor(private readonly options: UsageServiceOptions) {}

  /**
   * The month the figures count (UTC), and each tenant's usage `scope` sees, its own always among them.
   * `storage: false` leaves the storage figures at 0 (a running crawl's is a scan of its pages: a quota
   * check without a byte limit does not need it).
   */
  async usage(
    scope: TenantScope,
    options: { storage?: boolean } = {},
  ): Promise<{ month: string; tenants: TenantUsage[] }> {
    const { repository } = this.options;
    const [crawls, months] = await Promise.all([repository.crawls(scope), repository.months(scope)]);
    const tenants = new Map<string, TenantUsage>();
    const of = (tenant: string) => {
      const known = tenants.get(tenant);
      if (known) return known;
      const usage = emptyUsage(tenant);
      tenants.set(tenant, usage);
      return usage;
    };
    if (scope.kind !== 'internal') of(tenantName(scope.owner));
    for (const month of months) {
      const usage = of(month.tenant);
      usage.pagesFetched.thisMonth += month.this_month;
      usage.pagesFetched.total += month.total;
    }
    for (const crawl of crawls) {
      const usage = of(crawl.tenant);
      usage.crawls[crawl.status as CrawlStatusName] += 1;
      usage.crawls.total += 1;
      usage.pagesFetched.thisMonth += crawl.unsynced_pages;
      usage.pagesFetched.total += crawl.unsynced_pages;
      if (options.storage === false) continue;
      const stored = await this.options.storage(crawl.id, crawl);
      usage.storage.bodyBytes += stored.body_bytes;
      usage.storage.warcBodyBytes += stored.warc_body_bytes;
      usage.storage.screenshotBytes += stored.screenshot_bytes;
      usage.storage.bytes += stored.body_bytes + stored.warc_body_bytes + stored.screenshot_bytes;
      usage.storage.pageRows += stored.page_rows;
      usage.storage.linkRows += stored.link_rows;
    }
    return {
      month: new Date().toISOString().slice(0, 7),
      tenants: [...tenants.values()].sort((a, b) => a.tenant.localeCompare(b.tenant)),
    };
  }
}
