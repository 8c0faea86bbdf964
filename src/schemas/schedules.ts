// POST /v1/schedules and the schedule resources (docs/guide.md#schedules): the one source of validation,
// TypeScript types and OpenAPI. When a schedule runs is checked further by crawler/schedule-timing.ts.
import { type Static, Type } from 'typebox';
import { IsoDate, ListPage, Nullable, OwnedListQuery, Owner, Uuid } from './common.js';
import { CrawlRequest } from './crawls.js';

// A schedule's crawl is a crawl request without `recrawl`: each run sets it to the schedule's last completed
// crawl. A copy of the properties, not the schema itself, which is a shared schema of its own ($id).
const { recrawl: _recrawl, ...crawlProperties } = CrawlRequest.properties;
export const ScheduleCrawlRequest = Type.Object(crawlProperties, {
  additionalProperties: false,
  description:
    'the crawl each run starts, as POST /v1/crawls takes it (seeds required), without `recrawl`: every run after the first recrawls the last crawl of this schedule that completed',
});

const Every = Type.String({
  minLength: 2,
  maxLength: 12,
  description:
    'run at this interval, a whole number and a unit: s, m, h, d or w ("30m", "6h", "1d"); at least SCHEDULE_MIN_EVERY_SECS (1m by default), at most 366d. The first run is at once',
  examples: ['6h'],
});
const Cron = Type.String({
  minLength: 9,
  maxLength: 200,
  description:
    'run when this cron expression matches: five fields, minute hour day-of-month month day-of-week ("0 6 * * 1-5"), read in `timezone`',
  examples: ['0 6 * * 1-5'],
});
const TimeZone = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'the IANA time zone `cron` is read in ("Europe/Paris", "UTC"); required with cron',
  examples: ['Europe/Paris'],
});
const Name = Type.String({ minLength: 1, maxLength: 200, description: 'a label of your own' });

export const ScheduleRequest = Type.Object(
  {
    name: Type.Optional(Name),
    crawl: ScheduleCrawlRequest,
    every: Type.Optional(Every),
    cron: Type.Optional(Cron),
    timezone: Type.Optional(TimeZone),
  },
  { additionalProperties: false, description: 'exactly one of every or cron' },
);
export type ScheduleRequest = Static<typeof ScheduleRequest>;

export const SchedulePatch = Type.Object(
  {
    name: Type.Optional(Nullable(Name)),
    crawl: Type.Optional(ScheduleCrawlRequest),
    every: Type.Optional(Every),
    cron: Type.Optional(Cron),
    timezone: Type.Optional(TimeZone),
  },
  {
    additionalProperties: false,
    description:
      'the fields to change: `crawl` replaces the crawl request whole; `every` or `cron` (not both) changes when it runs, and the next run is computed again',
  },
);
export type SchedulePatch = Static<typeof SchedulePatch>;

const ScheduleLinks = Type.Object({
  self: Type.String(),
  lastCrawl: Nullable(Type.String()),
});

export const Schedule = Type.Object(
  {
    id: Uuid,
    owner: Owner,
    name: Nullable(Type.String()),
    crawl: Type.Any({ description: 'the crawl request each run starts (a webhook secret shows as "(set)")' }),
    every: Nullable(Type.String({ description: 'the interval, in its largest whole unit; null with cron' })),
    cron: Nullable(Type.String()),
    timezone: Nullable(Type.String()),
    nextRunAt: Nullable(Type.String({ format: 'date-time' }), {
      description:
        'when the next run is due; a run overdue while no worker ran is taken once when one starts',
    }),
    runs: Type.Integer({ description: 'runs that started a crawl' }),
    skippedRuns: Type.Integer({
      description: 'runs skipped because the crawl of the previous one had not finished',
    }),
    lastCrawlId: Nullable(Uuid, { description: 'the crawl the last run started' }),
    lastRunAt: IsoDate,
    lastError: Nullable(Type.String(), {
      description:
        "why the last run started no crawl (its request refused: a corpus gone, the key's running-crawls cap); null once one does",
    }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    _links: ScheduleLinks,
  },
  { description: 'a schedule: what it runs, when, and what its runs did' },
);
export type Schedule = Static<typeof Schedule>;

export const ScheduleListQuery = OwnedListQuery;

export const ScheduleList = ListPage(Schedule);
export type ScheduleList = Static<typeof ScheduleList>;
