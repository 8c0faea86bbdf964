// `trawl schedules`: the schedules, newest first (GET /v1/schedules), following its cursor up to --limit (or to
// the end with --all): a table on a terminal, one JSON line per schedule otherwise.
import type { Command } from 'commander';
import type { Schedule } from '../../schemas/schedules.js';
import { pathOf } from '../api-client.js';
import { integer } from '../arguments.js';
import { context } from '../context.js';
import { clip, formatTable, minuteUtc, scheduleWhen } from '../format.js';
import type { CliIo } from '../io.js';

interface SchedulesOptions {
  limit: number;
  all?: boolean;
}

export function addSchedulesCommand(program: Command, io: CliIo): void {
  program
    .command('schedules')
    .description('the schedules, newest first: when each runs, its next run, its runs and last crawl')
    .option('--limit <n>', 'schedules to list (following the cursor)', integer('--limit'), 50)
    .option('--all', 'every schedule (follows the cursor to the end)')
    .action(async (options: SchedulesOptions, command: Command) => {
      const ctx = context(command, io);
      const wanted = options.all ? Number.POSITIVE_INFINITY : options.limit;
      const rows: Schedule[] = [];
      let path: string | null = '/v1/schedules';
      let query: Record<string, number> | undefined = { limit: Math.min(wanted, 100) };
      while (path && rows.length < wanted) {
        const list: { items: Schedule[]; next: string | null } = await ctx.client.json('GET', path, {
          query,
        });
        for (const schedule of list.items.slice(0, wanted - rows.length)) {
          if (ctx.json) ctx.out(JSON.stringify(schedule));
          rows.push(schedule);
        }
        path = list.next ? pathOf(list.next) : null;
        query = undefined; // `next` carries the cursor
      }
      if (!ctx.json) {
        ctx.out(
          formatTable(
            ['ID', 'NAME', 'WHEN', 'NEXT RUN (UTC)', 'RUNS', 'SKIPPED', 'LAST CRAWL', 'LAST ERROR'],
            rows.map((s) => [
              s.id,
              clip(s.name ?? '', 24),
              scheduleWhen(s),
              minuteUtc(s.nextRunAt),
              String(s.runs),
              String(s.skippedRuns),
              s.lastCrawlId ?? '',
              s.lastError ?? '',
            ]),
            io.stdout.columns,
          ),
        );
        if (path) ctx.note('… more: --limit N or --all');
      }
    });
}
