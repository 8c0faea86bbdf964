// `trawl unschedule <id>`: deletes a schedule (DELETE /v1/schedules/:id): no run starts after it; its crawls
// stay, and a crawl it started runs on.
import type { Command } from 'commander';
import type { Schedule } from '../../schemas/schedules.js';
import { context } from '../context.js';
import type { CliIo } from '../io.js';

export function addUnscheduleCommand(program: Command, io: CliIo): void {
  program
    .command('unschedule')
    .description('delete a schedule: no run starts after it; its crawls stay')
    .argument('<id>', 'schedule id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = context(command, io);
      const deleted = await ctx.client.json<Schedule>('DELETE', `/v1/schedules/${encodeURIComponent(id)}`);
      const crawls =
        deleted.runs === 0
          ? 'it started no crawl'
          : deleted.runs === 1
            ? 'its crawl stays'
            : `its ${deleted.runs} crawls stay`;
      ctx.out(ctx.json ? JSON.stringify(deleted) : `schedule ${deleted.id} deleted (${crawls})`);
    });
}
