// `trawl crawl <seed…>`: starts a crawl from flags (over an optional --request JSON file) and prints its id;
// with --wait it follows the crawl to its end like `trawl watch`.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { decimal, integer, readFileOrStdin } from '../arguments.js';
import { context, type SetExitCode } from '../context.js';
import type { CliIo } from '../io.js';
import { waitForCrawl } from './watch.js';

/** The crawl request's flags (addCrawlRequestOptions), as `crawl` and `schedule` take them. */
export interface CrawlRequestOptions {
  maxPages?: number;
  maxDepth?: number;
  strategy?: string;
  query?: string;
  similar?: string[];
  threshold?: number;
  maxResults?: number;
  topics?: string[];
  delayMs?: number;
  concurrency?: number;
  request?: string;
}

interface CrawlOptions extends CrawlRequestOptions {
  wait?: boolean;
}

/** The flags that build a crawl request over an optional --request JSON file (crawlRequest reads them). */
export function addCrawlRequestOptions(command: Command): Command {
  return command
    .option('--max-pages <n>', 'pages requested at most', integer('--max-pages'))
    .option('--max-depth <n>', 'link distance from a seed', integer('--max-depth'))
    .addOption(new Option('--strategy <name>', 'crawl order').choices(['bfs', 'best-first', 'topic']))
    .option('--query <query>', 'score pages by a keyword query: words ANDed, (a b) ORed, "a phrase"')
    .option('--similar <urls...>', 'score pages by TF-IDF similarity to these pages')
    .option('--threshold <x>', 'score at or above which a page is relevant', decimal('--threshold'))
    .option('--max-results <n>', 'stop after this many relevant pages', integer('--max-results'))
    .option('--topics <words...>', 'topic words and phrases (strategy topic)')
    .option('--delay-ms <n>', 'minimum delay between two requests to one host', integer('--delay-ms'))
    .option('--concurrency <n>', 'requests in flight for the crawl', integer('--concurrency'))
    .option('--request <file>', 'a JSON crawl request (any field of POST /v1/crawls); flags override it');
}

export function addCrawlCommand(program: Command, io: CliIo, setExitCode: SetExitCode): void {
  const crawl = program
    .command('crawl')
    .description('start a crawl; prints its id (with --wait, follows it to the end)')
    .argument('<seeds...>', 'seed URLs (http or https)');
  addCrawlRequestOptions(crawl)
    .option('--wait', 'follow the crawl with a live progress bar until it ends')
    .action(async (seeds: string[], options: CrawlOptions, command: Command) => {
      const ctx = context(command, io);
      const request = await crawlRequest(seeds, options, io.stdin);
      const created = await ctx.client.json<{ id: string }>('POST', '/v1/crawls', {
        json: request,
        idempotent: true,
      });
      if (ctx.json) ctx.out(JSON.stringify(created));
      else if (!options.wait) ctx.out(`crawl ${created.id} queued\nfollow it: trawl watch ${created.id}`);
      else ctx.note(`crawl ${created.id} queued`);
      if (options.wait) setExitCode(await waitForCrawl(ctx, created.id));
    });
}

/** The crawl request: --request's JSON, then the flags over it (only those given). */
export async function crawlRequest(
  seeds: string[],
  options: CrawlRequestOptions,
  stdin: CliIo['stdin'],
): Promise<Record<string, unknown>> {
  let base: Record<string, unknown> = {};
  if (options.request) {
    const text = await readFileOrStdin(options.request, stdin);
    try {
      base = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      throw new InvalidArgumentError(`--request: not JSON (${(error as Error).message})`);
    }
  }
  const relevance = { ...((base.relevance as Record<string, unknown> | undefined) ?? {}) };
  if (options.query !== undefined) relevance.query = options.query;
  if (options.similar !== undefined) relevance.similarTo = { urls: options.similar };
  if (options.threshold !== undefined) relevance.threshold = options.threshold;
  const politeness = { ...((base.politeness as Record<string, unknown> | undefined) ?? {}) };
  if (options.delayMs !== undefined) politeness.delayMs = options.delayMs;
  const request: Record<string, unknown> = { ...base, seeds };
  const set = (field: string, value: unknown) => {
    if (value !== undefined) request[field] = value;
  };
  set('maxPages', options.maxPages);
  set('maxDepth', options.maxDepth);
  set('maxResults', options.maxResults);
  set('strategy', options.strategy ?? (options.topics ? 'topic' : undefined));
  set('topics', options.topics);
  set('concurrency', options.concurrency);
  if (Object.keys(relevance).length) request.relevance = relevance;
  if (Object.keys(politeness).length) request.politeness = politeness;
  return request;
}
