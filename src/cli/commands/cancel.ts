// `trawl cancel <id>`: cancels a crawl; the pages it fetched stay.
import type { Command } from 'commander';
import type { CrawlStatus } from '../../schemas/crawls.js';
import { crawlPath } from '../api-client.js';
import { context } from '../context.js';
import type { CliIo } from '../io.js';

export function addCancelCommand(program: Command, io: CliIo): void {
  program
    .command('cancel')
    .description('cancel a crawl (what was fetched stays)')
    .argument('<id>', 'crawl id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = context(command, io);
      const status = await ctx.client.json<CrawlStatus>('DELETE', crawlPath(id));
      ctx.out(ctx.json ? JSON.stringify(status) : `crawl ${id} ${status.status}`);
    });
}
