// `trawl schedule <seed…>`: a schedule made from the flags of `trawl crawl` and when it runs (POST
// /v1/schedules, with an idempotency key); prints its id, when it runs and its next run, or its JSON when piped
// or given --json. Each run after the first recrawls the last one that completed.
import type { Command } from 'commander';
import type { Schedule } from '../../schemas/schedules.js';
import { context } from '../context.js';
import { formatScheduleLine } from '../format.js';
import type { CliIo } from '../io.js';
import { addCrawlRequestOptions, type CrawlRequestOptions, crawlRequest } from './crawl.js';

/** The timing flags (addTimingOptions); `name` is false with reschedule's --no-name. */
export interface TimingOptions {
  every?: string;
  cron?: string;
  timezone?: string;
  name?: string | false;
}

/** The flags of when a schedule runs and what it is called: the API checks them (one of every or cron). */
export function addTimingOptions(command: Command): Command {
  return command
    .option('--every <interval>', 'run at this interval: a whole number and s, m, h, d or w ("6h", "1d")')
    .option('--cron <expression>', 'run when this cron expression matches ("0 6 * * 1-5")')
    .option('--timezone <zone>', 'the IANA time zone --cron is read in ("Europe/Paris"); required with it')
    .option('--name <name>', 'a label of your own');
}

/** The fields the timing flags set, only those given (a name of false clears it: null). */
export function timingFields(options: TimingOptions): Record<string, string | null> {
  const fields: Record<string, string | null> = {};
  for (const field of ['every', 'cron', 'timezone'] as const) {
    const value = options[field];
    if (value !== undefined) fields[field] = value;
  }
  if (options.name !== undefined) fields.name = options.name === false ? null : options.name;
  return fields;
}

export function addScheduleCommand(program: Command, io: CliIo): void {
  const schedule = program
    .command('schedule')
    .description('schedule a crawl: each run after the first recrawls the last one that completed')
    .argument('<seeds...>', 'seed URLs (http or https)');
  addCrawlRequestOptions(addTimingOptions(schedule)).action(
    async (seeds: string[], options: CrawlRequestOptions & TimingOptions, command: Command) => {
      const ctx = context(command, io);
      const crawl = await crawlRequest(seeds, options, io.stdin);
      const created = await ctx.client.json<Schedule>('POST', '/v1/schedules', {
        json: { ...timingFields(options), crawl },
        idempotent: true,
      });
      ctx.out(ctx.json ? JSON.stringify(created) : formatScheduleLine(created, 'created'));
    },
  );
}
