// The reads behind a crawl's report (GET /v1/crawls/:id/report and report.html) that the status endpoint does
// not already give: invalid pages by status, documents by type, duplicate images, links and images per page,
// timing summaries, the harvest rate over time, the first pages and the best-scored ones, and a recrawl's
// changed and gone pages.
import type pg from 'pg';
import { sql } from './sql.js';

export interface InvalidPagesRow {
  status: number | null;
  error: string | null;
  pages: number;
}

export interface DocumentsByTypeRow {
  data_type: string;
  /** Distinct bodies: DUPLICATE copies are not among them. */
  documents: number;
  bytes: string;
  /** Copies of an earlier document's bytes. */
  duplicates: number;
}

export interface FoundPerPageRow {
  html_pages: number;
  links_mean: number;
  links_max: number;
  images_mean: number;
  images_max: number;
}

export interface TimingsRow {
  load_mean: number | null;
  load_p50: number | null;
  load_p95: number | null;
  load_max: number | null;
  wait_mean: number | null;
  wait_p50: number | null;
  wait_p95: number | null;
  wait_max: number | null;
}

export interface HarvestRow {
  pages_fetched: number;
  relevant: number;
  fetched_at: Date;
}

export interface ReportPageRow {
  id: string;
  url: string;
  title: string | null;
  status: number | null;
  type: string;
  bytes: number | null;
  load_ms: number | null;
  score: number | null;
  links: number;
  images: number;
}

export interface ScoredPageRow {
  id: string;
  url: string;
  title: string | null;
  score: number;
}

export interface RecrawlPageRow {
  id: string;
  url: string;
  final_url: string | null;
  title: string | null;
  status: number | null;
  error: string | null;
  text_changed: boolean | null;
  similarity: number | null;
}

export class ReportRepository {
  constructor(private readonly pool: pg.Pool) {}

  async sites(crawlId: string): Promise<number> {
    return (await this.pool.query<{ sites: number }>(sql('report_sites'), [crawlId])).rows[0]!.sites;
  }

  async invalidPages(crawlId: string): Promise<InvalidPagesRow[]> {
    return (await this.pool.query<InvalidPagesRow>(sql('report_invalid_pages'), [crawlId])).rows;
  }

  async documentsByType(crawlId: string): Promise<DocumentsByTypeRow[]> {
    return (await this.pool.query<DocumentsByTypeRow>(sql('report_documents_by_type'), [crawlId])).rows;
  }

  /** Downloaded images that are byte-identical copies of an earlier page (DUPLICATE, served as image/*). */
  async duplicateImages(crawlId: string): Promise<number> {
    const result = await this.pool.query<{ duplicates: number }>(sql('report_duplicate_images'), [crawlId]);
    return result.rows[0]?.duplicates ?? 0;
  }

  async foundPerPage(crawlId: string): Promise<FoundPerPageRow> {
    return (await this.pool.query<FoundPerPageRow>(sql('report_found_per_page'), [crawlId])).rows[0]!;
  }

  async timings(crawlId: string): Promise<TimingsRow> {
    return (await this.pool.query<TimingsRow>(sql('report_timings'), [crawlId])).rows[0]!;
  }

  /** Cumulative harvest after every `every`-th fetched page (and the last). */
  async harvest(crawlId: string, threshold: number, every: number): Promise<HarvestRow[]> {
    return (await this.pool.query<HarvestRow>(sql('report_harvest'), [crawlId, threshold, every])).rows;
  }

  async firstPages(crawlId: string, limit: number): Promise<ReportPageRow[]> {
    return (await this.pool.query<ReportPageRow>(sql('report_page_rows'), [crawlId, limit])).rows;
  }

  async topScored(crawlId: string, limit: number): Promise<ScoredPageRow[]> {
    return (await this.pool.query<ScoredPageRow>(sql('report_top_scored'), [crawlId, limit])).rows;
  }

  /** A recrawl's pages of one change class, the most changed first. */
  async recrawlPages(crawlId: string, change: 'changed' | 'gone', limit: number): Promise<RecrawlPageRow[]> {
    return (await this.pool.query<RecrawlPageRow>(sql('report_recrawl_pages'), [crawlId, change, limit]))
      .rows;
  }

  /** The earlier pages a recrawl never reached (listed by GET /v1/crawls/:id/changes/missing). */
  async recrawlMissing(crawlId: string): Promise<number> {
    return (await this.pool.query<{ missing: number }>(sql('report_recrawl_missing_count'), [crawlId]))
      .rows[0]!.missing;
  }
}
