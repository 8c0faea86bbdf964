// What services that read a crawl of the caller need of it (live progress, webhooks, rankings): the narrow
// port they depend on instead of the whole CrawlService, which implements it. Keeps those services from
// importing the crawl service, and the crawl service from importing them.
import type { ExtractionMethod } from '../crawler/extract/index.js';
import type { Graph, GraphBuilderOptions } from '../crawler/rank/graph.js';
import type { TenantScope } from '../db/tenant-scope.js';
import type { CrawlStatusView } from './views.js';

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
  /** A stored page's main content as Markdown (include=markdown): null unless it is HTML with a stored body. */
  pageMarkdown(
    html: string | null,
    page: { type: string; url: string; final_url: string | null },
    method: ExtractionMethod,
  ): Promise<string | null>;
}
