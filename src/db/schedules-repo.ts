// Reads and writes of schedules (docs/guide.md#schedules): what a schedule runs, whose it is and what its runs
// did. When it runs is not here: that is BullMQ's job scheduler of the same id (services/use-cases/schedules.ts).
import type pg from 'pg';
import { sql } from './sql.js';
import { scopeParams, type TenantScope } from './tenant-scope.js';

export interface ScheduleRow {
  id: string;
  name: string | null;
  /** The crawl request as given (never with `recrawl`: each run sets it). */
  request: Record<string, unknown>;
  every_ms: number | null;
  cron: string | null;
  timezone: string | null;
  /** the API key that made it; null: made while the service ran open */
  owner: string | null;
  runs: number;
  skipped_runs: number;
  last_crawl_id: string | null;
  last_run_at: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What a schedule runs and when: every_ms, or cron with its time zone. */
export interface ScheduleFields {
  name: string | null;
  request: Record<string, unknown>;
  everyMs: number | null;
  cron: string | null;
  timezone: string | null;
}

/** What the next run of a schedule depends on. */
export interface ScheduleRunState {
  /** A crawl of the schedule is still queued or running: the run is skipped. */
  unfinished: boolean;
  /** The last crawl of the schedule that completed, which the run recrawls (null: the run is a plain crawl). */
  last_completed: string | null;
}

// bigint columns come back as strings from pg: every_ms is read as a number (an interval fits easily)
function read(row: ScheduleRow | undefined): ScheduleRow | null {
  if (!row) return null;
  return { ...row, every_ms: row.every_ms === null ? null : Number(row.every_ms) };
}

/** A schedule's fields as schedule_insert.sql and schedule_update.sql take them, after the id ($2–$6). */
function fieldValues(fields: ScheduleFields): unknown[] {
  return [fields.name, JSON.stringify(fields.request), fields.everyMs, fields.cron, fields.timezone];
}

export class SchedulesRepository {
  constructor(private readonly pool: pg.Pool) {}

  async create(id: string, fields: ScheduleFields, owner: string | null): Promise<ScheduleRow> {
    const result = await this.pool.query<ScheduleRow>(sql('schedule_insert'), [
      id,
      ...fieldValues(fields),
      owner,
    ]);
    return read(result.rows[0]) as ScheduleRow;
  }

  /** The schedule, or null when there is none or `scope` may not see it. */
  async get(id: string, scope: TenantScope): Promise<ScheduleRow | null> {
    return read(
      (await this.pool.query<ScheduleRow>(sql('schedule_get'), [id, ...scopeParams(scope)])).rows[0],
    );
  }

  async list(
    limit: number,
    after: { createdAt: string; id: string } | null,
    scope: TenantScope,
  ): Promise<ScheduleRow[]> {
    const result = await this.pool.query<ScheduleRow>(sql('schedule_list'), [
      after?.createdAt ?? null,
      after?.id ?? null,
      limit,
      ...scopeParams(scope),
    ]);
    return result.rows.map((row) => read(row) as ScheduleRow);
  }

  async update(id: string, fields: ScheduleFields): Promise<ScheduleRow | null> {
    const result = await this.pool.query<ScheduleRow>(sql('schedule_update'), [id, ...fieldValues(fields)]);
    return read(result.rows[0]);
  }

  async delete(id: string): Promise<void> {
    await this.pool.query(sql('schedule_delete'), [id]);
  }

  /**
   * Runs `work` holding the schedule's run lock (a session advisory lock on a connection of its own), so two
   * runs of one schedule (two workers, a run retaken after a stall) never both start a crawl; null when another
   * run holds it.
   */
  async withRunLock<T>(id: string, work: () => Promise<T>): Promise<T | null> {
    const client = await this.pool.connect();
    try {
      const { rows } = await client.query<{ ok: boolean }>(sql('schedule_run_lock'), [id]);
      if (!rows[0]?.ok) return null;
      try {
        return await work();
      } finally {
        await client.query(sql('schedule_run_unlock'), [id]);
      }
    } finally {
      client.release();
    }
  }

  async runState(id: string): Promise<ScheduleRunState> {
    return (await this.pool.query<ScheduleRunState>(sql('schedule_runs_of'), [id])).rows[0]!;
  }

  async recordRun(id: string, crawlId: string): Promise<void> {
    await this.pool.query(sql('schedule_run_recorded'), [id, crawlId]);
  }

  async recordSkip(id: string): Promise<void> {
    await this.pool.query(sql('schedule_skip_recorded'), [id]);
  }

  async recordFailure(id: string, reason: string): Promise<void> {
    await this.pool.query(sql('schedule_failure_recorded'), [id, reason]);
  }
}
