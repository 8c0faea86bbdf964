// The live worker processes and what they can do (the workers table): each worker announces itself while it
// runs, so the API can refuse a crawl no live worker could run (render, without Chromium anywhere).
import type pg from 'pg';
import { sql } from './sql.js';

/** A worker not seen for this long is taken for dead (it announces itself every ANNOUNCE_EVERY_MS). */
export const WORKER_STALE_SECS = 45;
export const ANNOUNCE_EVERY_MS = 15_000;

export class WorkersRepository {
  constructor(private readonly pool: pg.Pool) {}

  async announce(workerId: string, canRender: boolean): Promise<void> {
    await this.pool.query(sql('worker_announce'), [workerId, canRender]);
  }

  async retire(workerId: string): Promise<void> {
    await this.pool.query(sql('worker_retire'), [workerId]);
  }

  /** A live worker can render pages. */
  async anyCanRender(): Promise<boolean> {
    const result = await this.pool.query<{ can_render: boolean }>(sql('workers_can_render'), [
      WORKER_STALE_SECS,
    ]);
    return result.rows[0]?.can_render ?? false;
  }
}
