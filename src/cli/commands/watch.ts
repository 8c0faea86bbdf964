// `trawl watch <id>`: follows a crawl with a live progress bar until it ends (`trawl crawl --wait` too), and
// exits 0 if it completed, 1 if it failed or was cancelled; Ctrl-C at a terminal asks whether to cancel it.
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { isFinished } from '../../crawler/vocabulary.js';
import type { CrawlStatus } from '../../schemas/crawls.js';
import type { CrawlReport } from '../../schemas/report.js';
import { crawlPath } from '../api-client.js';
import { type Context, context, type SetExitCode } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { formatCrawlStatus, graphFigureLines } from '../format.js';
import type { CliIo } from '../io.js';
import { crawlProgressView } from '../progress-view.js';
import { watchCrawl } from '../watch-crawl.js';

export function addWatchCommand(program: Command, io: CliIo, setExitCode: SetExitCode): void {
  program
    .command('watch')
    .description('follow a crawl with a live progress bar until it ends')
    .argument('<id>', 'crawl id')
    .action(async (id: string, _options: unknown, command: Command) => {
      setExitCode(await waitForCrawl(context(command, io), id));
    });
}

/** Watches a crawl to its end; on a terminal Ctrl-C asks whether to cancel it. Resolves to the exit code. */
export async function waitForCrawl(ctx: Context, id: string): Promise<number> {
  const first = await ctx.client.json<CrawlStatus>('GET', crawlPath(id));
  const view = crawlProgressView(
    {
      tty: !ctx.json && Boolean(ctx.io.stderr.isTTY),
      maxPages: first.request.maxPages,
      stream: ctx.io.stderr,
    },
    ctx.out,
  );
  const interrupted = new AbortController();
  const onInterrupt = () => {
    view.stop();
    interrupted.abort();
  };
  ctx.io.interrupts.once('SIGINT', onInterrupt);
  try {
    const final = isFinished(first.status)
      ? first
      : await watchCrawl(ctx.client, id, (progress) => view.update(progress), interrupted.signal);
    if (!ctx.json) view.update(final); // the bar ends on the final counts, not on the last progress event
    view.stop();
    ctx.out(ctx.json ? JSON.stringify(final) : formatCrawlStatus(final));
    if (!ctx.json && final.status === 'completed') await printLinkGraph(ctx, id);
    return final.status === 'completed' ? EXIT.ok : EXIT.crawlFailed;
  } catch (error) {
    if (!interrupted.signal.aborted) throw error;
    return askToCancel(ctx, id);
  } finally {
    ctx.io.interrupts.removeListener('SIGINT', onInterrupt);
  }
}

/** Ctrl-C while waiting: a person at a terminal is asked; a script (stdin not a terminal) cancels nothing. */
async function askToCancel(ctx: Context, id: string): Promise<number> {
  if (!ctx.io.stdin.isTTY) {
    ctx.note(`\ninterrupted; crawl ${id} goes on (trawl cancel ${id} stops it)`);
    return EXIT.interrupted;
  }
  const prompt = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr });
  const answer = await new Promise<string | null>((resolve) => {
    prompt.once('SIGINT', () => resolve(null));
    prompt.question(`\ncancel crawl ${id}? [y/N] `, resolve);
  });
  prompt.close();
  if (answer !== null && /^y(es)?$/i.test(answer.trim())) {
    const status = await ctx.client.json<CrawlStatus>('DELETE', crawlPath(id));
    ctx.note(`crawl ${id} ${status.status}`);
  } else {
    ctx.note(`crawl ${id} goes on: trawl watch ${id}`);
  }
  return EXIT.interrupted;
}

/**
 * A completed crawl's summary ends with its link graph's structure figures, read from the report (computed
 * there on request; null for a graph too large to describe on request, which a ranking describes).
 */
async function printLinkGraph(ctx: Context, id: string): Promise<void> {
  const report = await ctx.client.json<Pick<CrawlReport, 'linkGraph'>>('GET', `${crawlPath(id)}/report`);
  if (report.linkGraph) for (const line of graphFigureLines(report.linkGraph)) ctx.out(line);
  else
    ctx.out(
      'graph     too large to describe here: a ranking of the crawl (POST /v1/crawls/:id/rank) describes it',
    );
}
