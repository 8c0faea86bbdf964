// `trawl recrawl <id>`: starts a recrawl of a crawl (POST /v1/crawls with recrawl.of: its pages again, with
// conditional requests, each classified new, changed, unchanged or gone) and prints its id; with --wait it
// follows the recrawl to its end like `trawl watch`, its summary ending with the change counts.
import type { Command } from 'commander';
import type { CrawlCreated } from '../../schemas/crawls.js';
import { integer } from '../arguments.js';
import { context, type SetExitCode } from '../context.js';
import type { CliIo } from '../io.js';
import { waitForCrawl } from './watch.js';

interface RecrawlOptions {
  maxPages?: number;
  wait?: boolean;
}

export function addRecrawlCommand(program: Command, io: CliIo, setExitCode: SetExitCode): void {
  program
    .command('recrawl')
    .description("recrawl a crawl's pages and classify what changed; prints its id (with --wait, follows it)")
    .argument('<id>', 'the earlier crawl')
    .option(
      '--max-pages <n>',
      'pages requested at most (default: the earlier crawl’s)',
      integer('--max-pages'),
    )
    .option('--wait', 'follow the recrawl with a live progress bar until it ends')
    .action(async (id: string, options: RecrawlOptions, command: Command) => {
      const ctx = context(command, io);
      const request: Record<string, unknown> = { recrawl: { of: id } };
      if (options.maxPages !== undefined) request.maxPages = options.maxPages;
      const created = await ctx.client.json<Pick<CrawlCreated, 'id'>>('POST', '/v1/crawls', {
        json: request,
        idempotent: true,
      });
      if (ctx.json) ctx.out(JSON.stringify(created));
      else if (!options.wait) {
        ctx.out(`recrawl ${created.id} of ${id} queued\nfollow it: trawl watch ${created.id}`);
      } else ctx.note(`recrawl ${created.id} of ${id} queued`);
      if (options.wait) setExitCode(await waitForCrawl(ctx, created.id));
    });
}
