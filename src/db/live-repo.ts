// What a live progress stream reads besides the crawl's status: written pages by id, and the low-water mark
// below which no page can change any more.
import type pg from 'pg';
import { sql } from './sql.js';

export interface LivePageRow {
  id: number;
  url: string;
  type: string;
  status: number | null;
  content_type: string | null;
  bytes: number | null;
  load_ms: number | null;
  depth: number;
  score: number | null;
  title: string | null;
  fetched_at: Date | null;
}

export class LiveRepository {
  constructor(private readonly pool: pg.Pool) {}

  async pages(crawlId: string, fromId: number, limit: number): Promise<LivePageRow[]> {
    const { rows } = await this.pool.query<LivePageRow>(sql('live_pages'), [crawlId, fromId, limit]);
    return rows;
  }

  async frontierLow(crawlId: string): Promise<{ frontierLow: number | null; maxId: number | null }> {
    const { rows } = await this.pool.query<{ frontier_low: number | null; max_id: number | null }>(
      sql('live_frontier_low'),
      [crawlId],
    );
    return { frontierLow: rows[0]?.frontier_low ?? null, maxId: rows[0]?.max_id ?? null };
  }
}
