// `trawl schedule <seed…>`, `trawl reschedule <id>` and `trawl unschedule <id>`: a schedule made from the same
// flags as `trawl crawl` (POST /v1/schedules), changed (PATCH: its name, when it runs, or its crawl request
// replaced whole from --request), and deleted (its crawls stay). Each prints the schedule's id, when it runs
// and its next run, or the API's JSON when piped or given --json.
import { type Command, InvalidArgumentError } from 'commander';
import type { Schedule } from '../../schemas/schedules.js';
import { readFileOrStdin } from '../arguments.js';
import { type Context, context } from '../context.js';
import { minuteUtc, scheduleWhen } from '../format.js';
import type { CliIo } from '../io.js';
import { addCrawlRequestOptions, type CrawlRequestOptions, crawlRequest } from './crawl.js';

interface TimingOptions {
  every?: string;
  cron?: string;
  timezone?: string;
  name?: string;
}

const schedulePath = (id: string) => `/v1/schedules/${encodeURIComponent(id)}`;

/** The flags of when a schedule runs and what it is called: the API checks them (one of every or cron). */
function addTimingOptions(command: Command): Command {
  return command
    .option('--every <interval>', 'run at this interval: a whole number and s, m, h, d or w ("6h", "1d")')
    .option('--cron <expression>', 'run when this cron expression matches ("0 6 * * 1-5")')
    .option('--timezone <zone>', 'the IANA time zone --cron is read in ("Europe/Paris"); required with it')
    .option('--name <name>', 'a label of your own');
}

/** The fields the timing flags set, only those given. */
function timing(options: TimingOptions): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const field of ['every', 'cron', 'timezone', 'name'] as const) {
    const value = options[field];
    if (value !== undefined) fields[field] = value;
  }
  return fields;
}

function printSchedule(ctx: Context, verb: string, schedule: Schedule): void {
  if (ctx.json) {
    ctx.out(JSON.stringify(schedule));
    return;
  }
  const name = schedule.name ? ` "${schedule.name}"` : '';
  const next = schedule.nextRunAt ? `, next run ${minuteUtc(schedule.nextRunAt)} UTC` : '';
  ctx.out(`schedule ${schedule.id}${name} ${verb}: ${scheduleWhen(schedule)}${next}`);
}

export function addScheduleCommands(program: Command, io: CliIo): void {
  const schedule = program
    .command('schedule')
    .description('schedule a crawl: each run after the first recrawls the last one that completed')
    .argument('<seeds...>', 'seed URLs (http or https)');
  addCrawlRequestOptions(addTimingOptions(schedule)).action(
    async (seeds: string[], options: CrawlRequestOptions & TimingOptions, command: Command) => {
      const ctx = context(command, io);
      const crawl = await crawlRequest(seeds, options, io.stdin);
      const created = await ctx.client.json<Schedule>('POST', '/v1/schedules', {
        json: { ...timing(options), crawl },
        idempotent: true,
      });
      printSchedule(ctx, 'created', created);
    },
  );

  const reschedule = program
    .command('reschedule')
    .description(
      'change a schedule: when it runs, its name, or its crawl request (--request, replaced whole)',
    )
    .argument('<id>', 'schedule id');
  addTimingOptions(reschedule)
    .option('--request <file>', 'the crawl request each run starts, as JSON (replaces the one it has)')
    .action(async (id: string, options: TimingOptions & { request?: string }, command: Command) => {
      const ctx = context(command, io);
      const patch: Record<string, unknown> = timing(options);
      if (options.request !== undefined) {
        const text = await readFileOrStdin(options.request, io.stdin);
        try {
          patch.crawl = JSON.parse(text);
        } catch (error) {
          throw new InvalidArgumentError(`--request: not JSON (${(error as Error).message})`);
        }
      }
      if (Object.keys(patch).length === 0) {
        throw new InvalidArgumentError(
          'nothing to change: give --every, --cron, --timezone, --name or --request',
        );
      }
      printSchedule(
        ctx,
        'changed',
        await ctx.client.json<Schedule>('PATCH', schedulePath(id), { json: patch }),
      );
    });

  program
    .command('unschedule')
    .description('delete a schedule: no run starts after it; its crawls stay')
    .argument('<id>', 'schedule id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = context(command, io);
      const deleted = await ctx.client.json<Schedule>('DELETE', schedulePath(id));
      if (ctx.json) ctx.out(JSON.stringify(deleted));
      else
        ctx.out(
          `schedule ${deleted.id} deleted (its ${deleted.runs} crawl${deleted.runs === 1 ? '' : 's'} stay)`,
        );
    });
}
