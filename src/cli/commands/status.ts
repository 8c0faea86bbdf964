// `trawl status <id>`: a crawl's status once (counts by type and HTTP status, pages/s, load times).
import type { Command } from 'commander';
import type { CrawlStatus } from '../../schemas/crawls.js';
import { crawlPath } from '../api-client.js';
import { context } from '../context.js';
import { formatCrawlStatus } from '../format.js';
import type { CliIo } from '../io.js';

export function addStatusCommand(program: Command, io: CliIo): void {
  program
    .command('status')
    .description("a crawl's status: counts by type and HTTP status, pages/s, load times")
    .argument('<id>', 'crawl id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = context(command, io);
      const status = await ctx.client.json<CrawlStatus>('GET', crawlPath(id));
      ctx.out(ctx.json ? JSON.stringify(status) : formatCrawlStatus(status));
    });
}
