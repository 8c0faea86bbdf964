// What services that read a crawl of the caller need of it (live progress, webhooks, rankings): the narrow
// port they depend on instead of the whole CrawlService, which implements it. Keeps those services from
// importing the crawl service, and the crawl service from importing them.
import type { ExtractionMethod } from '../crawler/extract/index.js';
import type { TenantScope } from '../db/tenant-scope.js';
import type { CrawlStatusView } from './views.js';

/** A crawl's link graph: its pages as vertices, its links as [from, to] page id pairs. */
export interface CrawlGraph {
  vertices: Array<{ id: number; url: string }>;
  edges: Array<[number, number]>;
}

// Each method throws not_found unless the crawl exists and `scope` may see it.
export interface CrawlReader {
  requireVisible(id: string, scope: TenantScope): Promise<void>;
  status(id: string, scope: TenantScope): Promise<CrawlStatusView>;
  linkGraph(id: string, scope: TenantScope): Promise<CrawlGraph>;
  /** A stored page's main content as Markdown (include=markdown): null unless it is HTML with a stored body. */
  pageMarkdown(
    html: string | null,
    page: { type: string; url: string; final_url: string | null },
    method: ExtractionMethod,
  ): Promise<string | null>;
}
