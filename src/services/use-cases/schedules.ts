// Use cases of the schedule resource (docs/guide.md#schedules): make, read, change and delete a schedule, and
// run it when it is due. What runs is a row of schedules-repo.ts; when it runs is BullMQ's job scheduler of the
// same id (jobs/producers.ts keepScheduleTicks), which keeps the next run in the queue's store on either
// backend, so schedules survive restarts and no timer of ours runs. Knows nothing of HTTP.
import { randomUUID } from 'node:crypto';
import type { GivenCrawlRequest } from '../../crawler/crawl-request.js';
import { checkCron, parseEvery } from '../../crawler/schedule-timing.js';
import type { ScheduleFields, ScheduleRow, SchedulesRepository } from '../../db/schedules-repo.js';
import {
  INTERNAL_SCOPE,
  listScope,
  scopeOwner,
  type TenantScope,
  tenantScope,
} from '../../db/tenant-scope.js';
import { InputError, TrawlError } from '../../errors.js';
import {
  dropScheduleTicks,
  keepScheduleTicks,
  nextScheduleRunMs,
  type ScheduleTicks,
} from '../../jobs/producers.js';
import type { JobBackend } from '../../jobs/queues.js';
import type { CrawlRequest } from '../../schemas/crawls.js';
import type { SchedulePatch, ScheduleRequest } from '../../schemas/schedules.js';
import {
  type CreatedAtCursor,
  createdAtCursorOf,
  type NewestFirstQuery,
  paginateNewestFirst,
} from '../presentation/pagination.js';
import { scheduleView } from '../presentation/views.js';

export interface ScheduleServiceOptions {
  repository: SchedulesRepository;
  jobs: JobBackend;
  /** Where a run's crawl is checked and started (as POST /v1/crawls would). */
  crawls: {
    check(request: CrawlRequest, scope: TenantScope): Promise<void>;
    create(request: CrawlRequest, scope: TenantScope, made: { scheduleId: string }): Promise<{ id: string }>;
  };
  /** SCHEDULE_MIN_EVERY_SECS, in milliseconds. */
  minEveryMs: number;
}

/** What a run did: started a crawl, skipped (the previous one unfinished), refused, or found no schedule. */
export type ScheduleRunOutcome =
  | { outcome: 'started'; crawlId: string; recrawlOf: string | null }
  | { outcome: 'skipped' }
  | { outcome: 'refused'; reason: string }
  | { outcome: 'gone' };

/** Schedules read at a time when their job schedulers are restored. */
const RESTORE_BATCH = 500;

// Tenancy as crawls: every method takes the caller's scope, and another owner's schedule is "not found".
export class ScheduleService {
  constructor(private readonly options: ScheduleServiceOptions) {}

  async create(request: ScheduleRequest, scope: TenantScope) {
    const ticks = this.#ticks(request, null);
    await this.#checkCrawl(request.crawl, scope);
    const fields: ScheduleFields = {
      name: request.name ?? null,
      request: request.crawl as Record<string, unknown>,
      ...columnsOf(ticks),
    };
    const row = await this.options.repository.create(randomUUID(), fields, scopeOwner(scope));
    try {
      await keepScheduleTicks(this.options.jobs, row.id, ticks);
    } catch (error) {
      // a schedule that could never run is not kept: the client is told 503 and may ask again
      await this.options.repository.delete(row.id).catch(() => {});
      throw unavailable(error);
    }
    return this.#view(row);
  }

  async get(id: string, scope: TenantScope) {
    return this.#view(await this.#require(id, scope));
  }

  /** A page of the list `scope` sees; `query.owner` narrows it to one tenant's (tenant-scope.ts listScope). */
  async list(query: NewestFirstQuery, scope: TenantScope) {
    const listed = listScope(scope, query.owner?.toLowerCase());
    const read = async (after: CreatedAtCursor | null, rows: number) => {
      const found = await this.options.repository.list(rows, after, listed);
      // each row with its next run, read from its job scheduler (a page is at most PageQueryLimit rows)
      return Promise.all(found.map(async (row) => ({ ...row, nextRunMs: await this.#nextRunMs(row.id) })));
    };
    return paginateNewestFirst('/v1/schedules', query, read, (row) => scheduleView(row, row.nextRunMs));
  }

  async update(id: string, patch: SchedulePatch, scope: TenantScope) {
    const row = await this.#require(id, scope);
    const timingGiven = patch.every !== undefined || patch.cron !== undefined || patch.timezone !== undefined;
    const ticks = timingGiven ? this.#ticks(patch, row) : ticksOf(row);
    if (patch.crawl) await this.#checkCrawl(patch.crawl, tenantScope(row.owner));
    const updated = await this.options.repository.update(id, {
      name: patch.name === undefined ? row.name : patch.name,
      request: (patch.crawl as Record<string, unknown> | undefined) ?? row.request,
      ...columnsOf(ticks),
    });
    if (!updated) throw notFound(id);
    // only a change of timing touches the job scheduler: changing what runs keeps the next run where it is
    if (timingGiven)
      await keepScheduleTicks(this.options.jobs, id, ticks).catch((error) => {
        throw unavailable(error);
      });
    return this.#view(updated);
  }

  /** Deletes the schedule and its job scheduler; its crawls stay, a crawl it started runs on. */
  async remove(id: string, scope: TenantScope) {
    const row = await this.#require(id, scope);
    await dropScheduleTicks(this.options.jobs, id).catch((error) => {
      throw unavailable(error);
    });
    await this.options.repository.delete(id);
    return scheduleView(row, null);
  }

  /**
   * A due run of the schedule (the `schedule` job): skipped and counted while a crawl of it is still queued or
   * running, so runs never overlap; otherwise a crawl of its request, a recrawl of its last completed crawl
   * when it has one. A request refused now (a corpus deleted, the key's running-crawls cap) is recorded on the
   * schedule as its lastError; the next run tries again.
   */
  async run(id: string, scope: TenantScope): Promise<ScheduleRunOutcome> {
    const row = await this.options.repository.get(id, scope);
    if (!row) {
      // a job scheduler left without its schedule (deleted while a restore made it again) makes no more runs
      if (scope.kind === 'internal') await dropScheduleTicks(this.options.jobs, id);
      return { outcome: 'gone' };
    }
    // another run of it under way is as unfinished as a crawl it started
    const ran = await this.options.repository.withRunLock(id, () => this.#runLocked(row));
    if (ran) return ran;
    await this.options.repository.recordSkip(id);
    return { outcome: 'skipped' };
  }

  async #runLocked(row: ScheduleRow): Promise<ScheduleRunOutcome> {
    const { id } = row;
    const state = await this.options.repository.runState(id);
    if (state.unfinished) {
      await this.options.repository.recordSkip(id);
      return { outcome: 'skipped' };
    }
    const request = row.request as GivenCrawlRequest as CrawlRequest;
    const recrawlOf = state.last_completed;
    try {
      const created = await this.options.crawls.create(
        recrawlOf ? { ...request, recrawl: { of: recrawlOf } } : request,
        tenantScope(row.owner),
        { scheduleId: id },
      );
      await this.options.repository.recordRun(id, created.id);
      return { outcome: 'started', crawlId: created.id, recrawlOf };
    } catch (error) {
      if (!(error instanceof TrawlError) || error.code === 'unavailable' || error.code === 'internal')
        throw error;
      const reason = error.field ? `${error.message} (${error.field})` : error.message;
      await this.options.repository.recordFailure(id, reason);
      return { outcome: 'refused', reason };
    }
  }

  /**
   * Makes again the job scheduler of every schedule that has none: the queue's store was emptied (a Redis
   * flushed or replaced) or the queue backend changed (PostgreSQL ↔ Redis), while the schedules stayed in
   * PostgreSQL. Run when a worker starts; answers how many it made again. A schedule of `every` restored this
   * way is due at once, as a missed run is.
   */
  async restoreTicks(): Promise<number> {
    let restored = 0;
    let after: CreatedAtCursor | null = null;
    for (;;) {
      const rows = await this.options.repository.list(RESTORE_BATCH, after, INTERNAL_SCOPE);
      for (const row of rows) {
        if ((await nextScheduleRunMs(this.options.jobs, row.id)) !== null) continue;
        await keepScheduleTicks(this.options.jobs, row.id, ticksOf(row));
        restored++;
      }
      const last = rows.at(-1);
      if (rows.length < RESTORE_BATCH || !last) return restored;
      after = createdAtCursorOf(last);
    }
  }

  async #require(id: string, scope: TenantScope): Promise<ScheduleRow> {
    const row = await this.options.repository.get(id, scope);
    if (!row) throw notFound(id);
    return row;
  }

  async #view(row: ScheduleRow) {
    return scheduleView(row, await this.#nextRunMs(row.id));
  }

  /** The next run as its job scheduler has it; null while the queue does not answer (the rest is still shown). */
  async #nextRunMs(id: string): Promise<number | null> {
    return nextScheduleRunMs(this.options.jobs, id).catch(() => null);
  }

  /** The crawl request checked as POST /v1/crawls checks it, each fault naming its field under `crawl.`. */
  async #checkCrawl(crawl: ScheduleRequest['crawl'], scope: TenantScope): Promise<void> {
    try {
      await this.options.crawls.check(crawl, scope);
    } catch (error) {
      if (!(error instanceof TrawlError)) throw error;
      throw new TrawlError(error.code, error.message, {
        cause: error,
        field: `crawl.${error.field ?? ''}`.replace(/\.$/, ''),
        ...(error.detail ? { detail: error.detail } : {}),
      });
    }
  }

  /**
   * When a schedule runs, from the fields given (`every`, or `cron` with `timezone`) and, for a change, the
   * stored schedule (a new time zone alone keeps its cron). Exactly one of every and cron; each fault names
   * its field.
   */
  #ticks(
    given: Pick<SchedulePatch, 'every' | 'cron' | 'timezone'>,
    stored: ScheduleRow | null,
  ): ScheduleTicks {
    if (given.every !== undefined && given.cron !== undefined)
      throw new InputError('give either every or cron, not both', 'cron');
    if (given.every !== undefined) {
      if (given.timezone !== undefined)
        throw new InputError('timezone goes with cron, not every', 'timezone');
      return { everyMs: parseEvery(given.every, this.options.minEveryMs) };
    }
    const cron = given.cron ?? stored?.cron ?? undefined;
    if (cron === undefined) {
      if (given.timezone !== undefined)
        throw new InputError('timezone goes with cron, not every', 'timezone');
      throw new InputError('give every ("6h") or cron ("0 6 * * *") with timezone', 'every');
    }
    const timezone = given.timezone ?? stored?.timezone ?? undefined;
    if (timezone === undefined)
      throw new InputError('cron is read in a time zone: give timezone', 'timezone');
    return { cron: checkCron(cron, timezone), timezone };
  }
}

function columnsOf(ticks: ScheduleTicks): Pick<ScheduleFields, 'everyMs' | 'cron' | 'timezone'> {
  return 'everyMs' in ticks
    ? { everyMs: ticks.everyMs, cron: null, timezone: null }
    : { everyMs: null, cron: ticks.cron, timezone: ticks.timezone };
}

function ticksOf(row: ScheduleRow): ScheduleTicks {
  return row.every_ms !== null
    ? { everyMs: row.every_ms }
    : { cron: row.cron ?? '', timezone: row.timezone ?? 'UTC' };
}

function notFound(id: string): TrawlError {
  return new TrawlError('not_found', `no schedule with id ${id}`);
}

function unavailable(cause: unknown): TrawlError {
  if (cause instanceof TrawlError) return cause;
  return new TrawlError('unavailable', 'the job queue is not answering; try again', { cause });
}
