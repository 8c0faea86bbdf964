// `trawl reschedule <id>`: changes a schedule (PATCH /v1/schedules/:id): when it runs and its name (--no-name
// clears it), or its crawl request, replaced whole from --request; the next run is computed again. Prints the
// schedule in one line, or its JSON when piped or given --json.
import { type Command, InvalidArgumentError } from 'commander';
import type { Schedule } from '../../schemas/schedules.js';
import { readFileOrStdin } from '../arguments.js';
import { context } from '../context.js';
import { formatScheduleLine } from '../format.js';
import type { CliIo } from '../io.js';
import { addTimingOptions, type TimingOptions, timingFields } from './schedule.js';

export function addRescheduleCommand(program: Command, io: CliIo): void {
  const reschedule = program
    .command('reschedule')
    .description(
      'change a schedule: when it runs, its name, or its crawl request (--request, replaced whole)',
    )
    .argument('<id>', 'schedule id');
  addTimingOptions(reschedule)
    .option('--no-name', 'clear its name')
    .option('--request <file>', 'the crawl request each run starts, as JSON (replaces the one it has)')
    .action(async (id: string, options: TimingOptions & { request?: string }, command: Command) => {
      const ctx = context(command, io);
      const patch: Record<string, unknown> = timingFields(options);
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
          'nothing to change: give --every, --cron, --timezone, --name, --no-name or --request',
        );
      }
      const changed = await ctx.client.json<Schedule>('PATCH', `/v1/schedules/${encodeURIComponent(id)}`, {
        json: patch,
      });
      ctx.out(ctx.json ? JSON.stringify(changed) : formatScheduleLine(changed, 'changed'));
    });
}
