// What services that read a crawl of the caller need of it (live progress, webhooks, rankings): the narrow
// port they depend on instead of the whole CrawlService, which implements it. Keeps those services from
// importing the crawl service, and the crawl service from importing them. And the one lookup of a crawl
// that the crawl's readers share (requireCrawl).
import type { Graph, GraphBuilderOptions } from '../../crawler/rank/graph.js';
import type { CrawlRow, CrawlsRepository } from '../../db/crawls-repo.js';
import type { TenantScope } from '../../db/tenant-scope.js';
import { TrawlError } from '../../errors.js';
import type { CrawlStatusView } from '../presentation/views.js';

/**
 * A crawl's link graph in typed arrays (a big crawl's graph is millions of links): its pages as vertices named
 * by their URLs, in page id order, and its links as edges; `pageIds[v]` is vertex v's page id.
 */
export interface CrawlGraph {
  graph: Graph;
  pageIds: Float64Array;
}

// Each method throws not_found unless the crawl exists and `scope` may see it.
export interface CrawlReader {
  requireVisible(id: string, scope: TenantScope): Promise<void>;
  status(id: string, scope: TenantScope): Promise<CrawlStatusView>;
  /** `options`: the graph builder's limits and edge policies (default: no limit but the id type's). */
  linkGraph(id: string, scope: TenantScope, options?: GraphBuilderOptions): Promise<CrawlGraph>;
}

/**
 * The crawl `id` as `scope` sees it: not_found when there is none, it is another tenant's, or it is being
 * purged (only its status is left to read until it is gone).
 */
export async function requireCrawl(
  repository: Pick<CrawlsRepository, 'get'>,
  id: string,
  scope: TenantScope,
): Promise<CrawlRow> {
  const row = await repository.get(id, scope);
  if (!row) throw new TrawlError('not_found', `no crawl with id ${id}`);
  if (row.status === 'purging') throw new TrawlError('not_found', `crawl ${id} is being purged`);
  return row;
}
