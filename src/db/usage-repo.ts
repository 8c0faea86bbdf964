// What tenants fetch and store (migration 0041): the sweep that adds each crawl's fetched pages to its tenant's
// month, and the reads GET /v1/usage and the quotas make of it.
import type pg from 'pg';
import type { CrawlStorage } from './crawls-repo.js';
import { sql } from './sql.js';
import { scopeParams, type TenantScope, tenantName } from './tenant-scope.js';

export interface UsageCrawlRow {
  id: string;
  tenant: string;
  status: string;
  /** Kept once the crawl has finished and its status was read; null before. */
  storage: CrawlStorage | null;
  finished_at: Date | null;
  /** Pages fetched that the sweep has not added to the tenant's month yet. */
  unsynced_pages: number;
}

export interface UsageMonthRow {
  tenant: string;
  this_month: number;
  total: number;
}

export class UsageRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** Adds the pages fetched since the last sweep to their tenants' months (usage_sync.sql). */
  async sync(): Promise<void> {
    await this.pool.query(sql('usage_sync'));
  }

  /** The crawls `scope` sees, with what usage needs of each. */
  async crawls(scope: TenantScope): Promise<UsageCrawlRow[]> {
    return (await this.pool.query<UsageCrawlRow>(sql('usage_crawls'), scopeParams(scope))).rows;
  }

  /** Running crawls whose owner's key has a page or byte quota. */
  async runningWithQuotas(): Promise<Array<{ id: string; owner: string }>> {
    return (await this.pool.query(sql('crawls_running_with_quotas'))).rows;
  }

  /** Stops running crawl `id` as completed for a quota (`warning` says which); false when it was not running. */
  async stopForQuota(id: string, warning: string): Promise<boolean> {
    return ((await this.pool.query(sql('crawl_stop_quota'), [id, warning])).rowCount ?? 0) > 0;
  }

  /** Pages fetched this month and in all, per tenant `scope` sees (as the sweep added them). */
  async months(scope: TenantScope): Promise<UsageMonthRow[]> {
    const [scoped, owner] = scopeParams(scope);
    const { rows } = await this.pool.query<Record<keyof UsageMonthRow, string>>(sql('usage_months_read'), [
      scoped,
      tenantName(owner),
    ]);
    return rows.map((row) => ({
      tenant: row.tenant,
      this_month: Number(row.this_month),
      total: Number(row.total),
    }));
  }
}
