// When a schedule runs (docs/guide.md#schedules): `every` an interval written as a number and a unit ("90s",
// "30m", "6h", "1d", "2w"), or `cron` five fields (minute hour day-of-month month day-of-week) read in an IANA
// time zone. Checked here, each fault an InputError naming its field, so a bad schedule is a 400 and never a
// job scheduler that cannot run.
import { CronExpressionParser } from 'cron-parser';
import { InputError } from '../errors.js';

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const EVERY = /^([1-9]\d{0,8})(s|m|h|d|w)$/;
/** An interval longer than a year is a cron schedule's job (a date, not a period). */
export const MAX_EVERY_MS = 366 * UNIT_MS.d;

export type ScheduleTiming = { everyMs: number } | { cron: string; timezone: string };

/** `every` in milliseconds; at least `minEveryMs` (SCHEDULE_MIN_EVERY_SECS), at most a year. */
export function parseEvery(every: string, minEveryMs: number, field = 'every'): number {
  const match = EVERY.exec(every.trim());
  if (!match)
    throw new InputError('every is a whole number and a unit: s, m, h, d or w ("30m", "6h", "1d")', field);
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms < minEveryMs) throw new InputError(`every is at least ${formatEvery(minEveryMs)}`, field);
  if (ms > MAX_EVERY_MS) throw new InputError('every is at most 366d: use cron for rarer runs', field);
  return ms;
}

/** An interval as `every` writes it, in its largest whole unit ("6h", "90s"). */
export function formatEvery(ms: number): string {
  for (const unit of ['w', 'd', 'h', 'm'] as const) {
    if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${Math.round(ms / 1000)}s`;
}

/** Whether `timezone` is an IANA time zone this runtime knows ("Europe/Paris", "UTC"). */
export function isTimeZone(timezone: string): boolean {
  if (timezone.length === 0 || timezone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** Checks a cron expression of five fields in `timezone`; the expression as stored, spaces made single. */
export function checkCron(
  cron: string,
  timezone: string,
  fields = { cron: 'cron', timezone: 'timezone' },
): string {
  if (!isTimeZone(timezone))
    throw new InputError(
      `${JSON.stringify(timezone)} is not an IANA time zone ("Europe/Paris", "UTC")`,
      fields.timezone,
    );
  const parts = cron.trim().split(/\s+/);
  if (parts.length !== 5)
    throw new InputError('cron has five fields: minute hour day-of-month month day-of-week', fields.cron);
  const expression = parts.join(' ');
  try {
    CronExpressionParser.parse(expression, { tz: timezone }).next();
  } catch (error) {
    throw new InputError(`cron does not parse: ${(error as Error).message}`, fields.cron);
  }
  return expression;
}
