// `trawl`: the command-line client of trawl's /v1 API (`npx trawl …`, or `npm run cli -- …` in a checkout).
// Human output on a terminal, JSON lines when piped or with --json. Exit codes (docs/guide.md "Command line"): 0 done,
// 1 the crawl waited on failed or was cancelled, 2 usage or a request the API refused (4xx, its detail and
// field shown), 3 the API unreachable or failing (5xx), 130 interrupted.
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Static } from 'typebox';
import { isFinished, PAGE_TYPES } from '../crawler/vocabulary.js';
import type { PageSummary } from '../schemas/crawls.js';
import { EXPORT_INCLUDES } from '../schemas/export.js';
import type { ExtractResult } from '../schemas/extract.js';
import type { Ranking, RankingJob } from '../schemas/rankings.js';
import type { ScoreResult } from '../schemas/score.js';
import { ApiClient, ApiProblem, ApiUnavailable, DEFAULT_API_URL } from './api-client.js';
import { formatCrawlStatus, formatScore, formatTable } from './format.js';
import { byteProgressView, crawlProgressView, formatBytes } from './progress-view.js';
import { type CrawlStatusBody, watchCrawl } from './watch-crawl.js';

export const EXIT = { ok: 0, crawlFailed: 1, usage: 2, unavailable: 3, interrupted: 130 } as const;

/** The request fields the flags set, so a refused field is shown with the flag that set it. */
const FIELD_FLAGS: Record<string, string> = {
  seeds: '<seed…>',
  maxPages: '--max-pages',
  maxDepth: '--max-depth',
  maxResults: '--max-results',
  strategy: '--strategy',
  'relevance.query': '--query',
  'relevance.similarTo.urls': '--similar',
  'relevance.threshold': '--threshold',
  topics: '--topics',
  'politeness.delayMs': '--delay-ms',
  concurrency: '--concurrency',
};

interface GlobalOptions {
  api: string;
  key?: string;
  json?: boolean;
}

interface Context {
  client: ApiClient;
  /** JSON lines instead of human text: --json, or stdout is not a terminal */
  json: boolean;
  out(text: string): void;
}

function context(command: Command): Context {
  const options = command.optsWithGlobals<GlobalOptions>();
  return {
    client: new ApiClient(options.api, options.key),
    json: Boolean(options.json) || !process.stdout.isTTY,
    out: (text) => process.stdout.write(`${text}\n`),
  };
}

function integer(flag: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed)) {
      throw new InvalidArgumentError(`${flag} takes a whole number`);
    }
    return parsed;
  };
}

function decimal(flag: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed))
      throw new InvalidArgumentError(`${flag} takes a number`);
    return parsed;
  };
}

const isUrl = (value: string) => /^https?:\/\//i.test(value);

/** A document argument of `score`: a URL is fetched by the API, a file is sent as HTML or text by its name. */
async function documentArgument(
  value: string,
): Promise<{ url: string } | { html: string } | { text: string }> {
  if (isUrl(value)) return { url: value };
  const content = value === '-' ? await readStdin() : await readFile(value, 'utf8');
  return /\.x?html?$/i.test(value) ? { html: content } : { text: content };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function crawlPath(id: string, rest = ''): string {
  return `/v1/crawls/${encodeURIComponent(id)}${rest}`;
}

/** Watches a crawl to its end; on a terminal Ctrl-C asks whether to cancel it. Resolves to the exit code. */
async function waitForCrawl(ctx: Context, id: string): Promise<number> {
  const first = await ctx.client.json<CrawlStatusBody>('GET', crawlPath(id));
  const view = crawlProgressView(
    { tty: !ctx.json && Boolean(process.stderr.isTTY), maxPages: first.request.maxPages },
    ctx.out,
  );
  const interrupted = new AbortController();
  const onInterrupt = () => {
    view.stop();
    interrupted.abort();
  };
  process.once('SIGINT', onInterrupt);
  try {
    const final = isFinished(first.status)
      ? first
      : await watchCrawl(ctx.client, id, (progress) => view.update(progress), interrupted.signal);
    if (!ctx.json) view.update(final); // the bar ends on the final counts, not on the last progress event
    view.stop();
    ctx.out(ctx.json ? JSON.stringify(final) : formatCrawlStatus(final));
    return final.status === 'completed' ? EXIT.ok : EXIT.crawlFailed;
  } catch (error) {
    if (!interrupted.signal.aborted) throw error;
    return askToCancel(ctx, id);
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}

/** Ctrl-C while waiting: a person at a terminal is asked; a script (stdin not a terminal) cancels nothing. */
async function askToCancel(ctx: Context, id: string): Promise<number> {
  if (!process.stdin.isTTY) {
    process.stderr.write(`\ninterrupted; crawl ${id} goes on (trawl cancel ${id} stops it)\n`);
    return EXIT.interrupted;
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await new Promise<string | null>((resolve) => {
    prompt.once('SIGINT', () => resolve(null));
    prompt.question(`\ncancel crawl ${id}? [y/N] `, resolve);
  });
  prompt.close();
  if (answer !== null && /^y(es)?$/i.test(answer.trim())) {
    const status = await ctx.client.json<CrawlStatusBody>('DELETE', crawlPath(id));
    process.stderr.write(`crawl ${id} ${status.status}\n`);
  } else {
    process.stderr.write(`crawl ${id} goes on: trawl watch ${id}\n`);
  }
  return EXIT.interrupted;
}

export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('trawl')
    .description('Command-line client of the trawl crawl service (its /v1 API).')
    .addOption(
      new Option('--api <url>', 'base URL of the trawl API').env('TRAWL_API').default(DEFAULT_API_URL),
    )
    .addOption(new Option('--key <key>', 'API key, sent as Authorization: Bearer').env('TRAWL_KEY'))
    .option('--json', 'print JSON (the default when stdout is not a terminal)')
    .showHelpAfterError()
    .exitOverride();

  program
    .command('crawl')
    .description('start a crawl; prints its id (with --wait, follows it to the end)')
    .argument('<seeds...>', 'seed URLs (http or https)')
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
    .option('--request <file>', 'a JSON crawl request (any field of POST /v1/crawls); flags override it')
    .option('--wait', 'follow the crawl with a live progress bar until it ends')
    .action(async (seeds: string[], options: CrawlOptions, command: Command) => {
      const ctx = context(command);
      const request = await crawlRequest(seeds, options);
      const created = await ctx.client.json<{ id: string }>('POST', '/v1/crawls', {
        json: request,
        idempotent: true,
      });
      if (ctx.json) ctx.out(JSON.stringify(created));
      else if (!options.wait) ctx.out(`crawl ${created.id} queued\nfollow it: trawl watch ${created.id}`);
      else process.stderr.write(`crawl ${created.id} queued\n`);
      if (options.wait) setExitCode(await waitForCrawl(ctx, created.id));
    });

  program
    .command('watch')
    .description('follow a crawl with a live progress bar until it ends')
    .argument('<id>', 'crawl id')
    .action(async (id: string, _options: unknown, command: Command) => {
      setExitCode(await waitForCrawl(context(command), id));
    });

  program
    .command('status')
    .description("a crawl's status: counts by type and HTTP status, pages/s, load times")
    .argument('<id>', 'crawl id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = context(command);
      const status = await ctx.client.json<CrawlStatusBody>('GET', crawlPath(id));
      ctx.out(ctx.json ? JSON.stringify(status) : formatCrawlStatus(status));
    });

  program
    .command('pages')
    .description("a crawl's pages, in discovery order (or best score first)")
    .argument('<id>', 'crawl id')
    .addOption(new Option('--type <type>', 'page type').choices(PAGE_TYPES))
    .option('--status <code>', 'HTTP status', integer('--status'))
    .option('--host <host>', 'host or host:port')
    .option('--min-score <x>', 'pages scored at least this', decimal('--min-score'))
    .option('--results', "the crawl's results only")
    .addOption(new Option('--sort <order>', 'id (discovery order) or -score').choices(['id', '-score']))
    .option('--limit <n>', 'pages to list (following the cursor)', integer('--limit'), 50)
    .option('--all', 'every page (follows the cursor to the end)')
    .action(async (id: string, options: PagesOptions, command: Command) => {
      const ctx = context(command);
      const wanted = options.all ? Number.POSITIVE_INFINITY : options.limit;
      const rows: PageRow[] = [];
      let path: string | null = crawlPath(id, '/pages');
      let query: Record<string, string | number | boolean | undefined> | undefined = {
        type: options.type,
        status: options.status,
        host: options.host,
        minScore: options.minScore,
        result: options.results,
        sort: options.sort,
        limit: Math.min(wanted, 500),
      };
      while (path && rows.length < wanted) {
        const list: { items: PageRow[]; next: string | null } = await ctx.client.json('GET', path, { query });
        for (const page of list.items.slice(0, wanted - rows.length)) {
          if (ctx.json) ctx.out(JSON.stringify(page));
          rows.push(page);
        }
        path = list.next ? pathOf(list.next) : null;
        query = undefined; // `next` carries the filters and the cursor
      }
      if (!ctx.json) {
        ctx.out(
          formatTable(
            ['ID', 'TYPE', 'HTTP', 'SCORE', 'TITLE', 'URL'],
            rows.map((page) => [
              String(page.id),
              page.type,
              page.status === null ? '' : String(page.status),
              formatScore(page.score),
              clip(page.title ?? '', 32),
              page.url,
            ]),
          ),
        );
        if (path) process.stderr.write(`… more: --limit N or --all\n`);
      }
    });

  program
    .command('cancel')
    .description('cancel a crawl (what was fetched stays)')
    .argument('<id>', 'crawl id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = context(command);
      const status = await ctx.client.json<CrawlStatusBody>('DELETE', crawlPath(id));
      ctx.out(ctx.json ? JSON.stringify(status) : `crawl ${id} ${status.status}`);
    });

  program
    .command('export')
    .description("download a crawl's pages as JSONL, CSV or WARC")
    .argument('<id>', 'crawl id')
    .addOption(
      new Option('--format <format>', 'export format').choices(['jsonl', 'csv', 'warc']).default('jsonl'),
    )
    .requiredOption('-o, --output <file>', 'file to write (- for stdout)')
    .option('--type <type>', 'page type')
    .option('--status <code>', 'HTTP status', integer('--status'))
    .option('--host <host>', 'host or host:port')
    .option('--min-score <x>', 'pages scored at least this', decimal('--min-score'))
    .option('--include <parts>', `JSONL: comma list of ${EXPORT_INCLUDES.join(', ')}`)
    .action(async (id: string, options: ExportOptions, command: Command) => {
      const ctx = context(command);
      const response = await ctx.client.request('GET', crawlPath(id, '/export'), {
        accept: '*/*',
        query: {
          format: options.format,
          type: options.type,
          status: options.status,
          host: options.host,
          minScore: options.minScore,
          include: options.include,
        },
      });
      const toStdout = options.output === '-';
      const progress = byteProgressView(!toStdout && Boolean(process.stderr.isTTY));
      let bytes = 0;
      // counts the bytes on their way to the file, for the progress line
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          progress.update(bytes);
          done(null, chunk);
        },
      });
      const sink: Writable = toStdout ? process.stdout : createWriteStream(options.output);
      await pipeline(Readable.fromWeb(response.body as never), counted, sink);
      progress.stop();
      if (!toStdout) {
        const written = (await stat(options.output)).size;
        if (ctx.json)
          ctx.out(JSON.stringify({ file: options.output, format: options.format, bytes: written }));
        else ctx.out(`wrote ${options.output} (${formatBytes(written)}, ${options.format})`);
      }
    });

  program
    .command('rank')
    .description('PageRank, degrees, top-k and Jaccard of an edges file (first line: the vertex count)')
    .argument('<edges-file>', 'the edges file ("from to" per line)')
    .option('--damping <x>', 'probability of following a link', decimal('--damping'))
    .option('--epsilon <x>', 'stop when the L1 change is at most this', decimal('--epsilon'))
    .option('--max-iterations <n>', 'iteration cap', integer('--max-iterations'))
    .option('--top-k <n>', 'length of each top list', integer('--top-k'))
    .action(async (file: string, options: RankOptions, command: Command) => {
      const ctx = context(command);
      await stat(file); // a missing file is the user's mistake, said before anything is sent
      let ranking = await ctx.client.json<RankingBody>('POST', '/v1/rankings', {
        body: {
          data: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
          contentType: 'text/plain',
        },
        query: {
          damping: options.damping,
          epsilon: options.epsilon,
          maxIterations: options.maxIterations,
          topK: options.topK,
        },
      });
      while (ranking.status === 'queued' || ranking.status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 500));
        ranking = await ctx.client.json<RankingBody>('GET', `/v1/rankings/${ranking.id}`);
      }
      if (ctx.json) ctx.out(JSON.stringify(ranking));
      if (ranking.status !== 'completed') {
        const error = ranking.error;
        throw new ApiProblem(400, {
          detail: error?.detail,
          field: error?.line ? `line ${error.line}` : error?.field,
        });
      }
      if (ctx.json) return;
      ctx.out(
        `ranking ${ranking.id}: ${ranking.vertices} vertices` +
          `${ranking.unnamedVertices ? ` (${ranking.unnamedVertices} unnamed: declared, named by no edge)` : ''}` +
          `, ${ranking.edges} edges, ${ranking.iterations} iterations` +
          `${ranking.converged ? '' : ' (not converged)'}`,
      );
      ctx.out(
        formatTable(
          ['#', 'PAGERANK', 'IN', 'OUT', 'VERTEX'],
          (ranking.top?.pageRank ?? []).map((entry, at) => [
            String(at + 1),
            entry.rank >= 0.001 ? entry.rank.toFixed(4) : entry.rank.toExponential(3),
            String(ranking.top?.inDegree.find((other) => other.vertex === entry.vertex)?.degree ?? ''),
            String(ranking.top?.outDegree.find((other) => other.vertex === entry.vertex)?.degree ?? ''),
            entry.vertex,
          ]),
        ),
      );
      const jaccard = Object.entries(ranking.jaccard)
        .map(([pair, value]) => `${pair} ${value.toFixed(3)}`)
        .join(' · ');
      if (jaccard) ctx.out(`jaccard   ${jaccard}`);
    });

  program
    .command('score')
    .description('score documents (URLs, files, - for stdin) by a keyword query or TF-IDF similarity')
    .argument('<documents...>', 'URLs or files (.html read as HTML, anything else as text)')
    .option('--query <query>', 'keyword query')
    .option('--similar <documents...>', 'the similarity set: URLs or files')
    .option('--corpus <id>', 'a stored corpus for the document frequencies (with --similar)')
    .action(async (documents: string[], options: ScoreOptions, command: Command) => {
      const ctx = context(command);
      if (Boolean(options.query) === Boolean(options.similar)) {
        throw new InvalidArgumentError('give exactly one of --query and --similar');
      }
      const body = {
        ...(options.query ? { query: options.query } : {}),
        ...(options.similar
          ? { similarTo: { documents: await Promise.all(options.similar.map(documentArgument)) } }
          : {}),
        ...(options.corpus ? { corpus: options.corpus } : {}),
        documents: await Promise.all(documents.map(documentArgument)),
      };
      const scored = await ctx.client.json<ScoreResult>('POST', '/v1/score', { json: body });
      if (ctx.json) return ctx.out(JSON.stringify(scored));
      ctx.out(
        formatTable(
          ['SCORE', 'DOCUMENT'],
          scored.results.map((result) => [
            result.score.toFixed(3),
            documents[result.index] ?? result.url ?? String(result.index),
          ]),
        ),
      );
    });

  program
    .command('extract')
    .description('the main content of a page (URL or HTML file)')
    .argument('<page>', 'a URL, an HTML file, or - for stdin')
    .option('--method <method>', 'extraction method (see POST /v1/extract)')
    .option('--base-url <url>', 'with a file: the URL its links resolve against')
    .option('--markdown', 'print the main content as Markdown (headings, lists, tables, links)')
    .action(
      async (
        page: string,
        options: { method?: string; baseUrl?: string; markdown?: boolean },
        command: Command,
      ) => {
        const ctx = context(command);
        const source = isUrl(page)
          ? { url: page }
          : {
              html: page === '-' ? await readStdin() : await readFile(page, 'utf8'),
              baseUrl: options.baseUrl,
            };
        const extracted = await ctx.client.json<ExtractResult>('POST', '/v1/extract', {
          json: { ...source, method: options.method, ...(options.markdown ? { format: 'markdown' } : {}) },
        });
        if (ctx.json) return ctx.out(JSON.stringify(extracted));
        if (options.markdown) ctx.out(`# ${extracted.title}\n\n${extracted.markdown ?? ''}`);
        else
          ctx.out(
            `${extracted.title}\n${'='.repeat(Math.min(extracted.title.length, 80))}\n\n${extracted.text}`,
          );
        process.stderr.write(`(${extracted.wordCount} words, ${extracted.method})\n`);
      },
    );

  // loaded only when used: it brings the database layer, which no other command needs
  const runKeys: typeof import('./keys.js').runKeys = async (action) =>
    (await import('./keys.js')).runKeys(action);
  const keys = program
    .command('keys')
    .description('manage API keys directly in the database (DATABASE_URL or the embedded one)');
  keys
    .command('create')
    .requiredOption('--name <name>', 'what the key is for')
    .option('--admin', 'may manage keys through the API')
    .action((options: { name: string; admin?: boolean }) =>
      runKeys({ create: { name: options.name, admin: Boolean(options.admin) } }),
    );
  keys.command('list').action(() => runKeys({ list: true }));
  keys
    .command('revoke')
    .argument('<id-or-prefix>', 'key id or its listed prefix')
    .action((key: string) => runKeys({ revoke: key }));
  keys
    .command('open')
    .description('return to open mode: revoke and release every key, so /v1 needs none (asks to confirm)')
    .option('--yes', 'confirm without asking (for scripts)')
    .action((options: { yes?: boolean }) => runKeys({ open: { confirmed: Boolean(options.yes) } }));

  return program;
}

interface CrawlOptions {
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
  wait?: boolean;
}

interface PagesOptions {
  type?: string;
  status?: number;
  host?: string;
  minScore?: number;
  results?: boolean;
  sort?: string;
  limit: number;
  all?: boolean;
}

interface ExportOptions {
  format: string;
  output: string;
  type?: string;
  status?: number;
  host?: string;
  minScore?: number;
  include?: string;
}

interface RankOptions {
  damping?: number;
  epsilon?: number;
  maxIterations?: number;
  topK?: number;
}

interface ScoreOptions {
  query?: string;
  similar?: string[];
  corpus?: string;
}

type PageRow = Static<typeof PageSummary>;
type RankingBody = Static<typeof Ranking> | Static<typeof RankingJob>;

/** The crawl request: --request's JSON, then the flags over it (only those given). */
async function crawlRequest(seeds: string[], options: CrawlOptions): Promise<Record<string, unknown>> {
  let base: Record<string, unknown> = {};
  if (options.request) {
    const text = options.request === '-' ? await readStdin() : await readFile(options.request, 'utf8');
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

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

function pathOf(next: string): string {
  if (!/^https?:/i.test(next)) return next;
  const url = new URL(next);
  return `${url.pathname}${url.search}`;
}

/** What the user sees when a command fails, and the exit code it ends with. */
export function explain(error: unknown): { message: string; code: number } {
  // before CommanderError, which it extends: thrown by an action, its message is not printed yet
  if (error instanceof InvalidArgumentError) return { message: `trawl: ${error.message}`, code: EXIT.usage };
  if (error instanceof CommanderError) {
    // commander has printed the usage error (or the help) itself
    return { message: '', code: error.exitCode === 0 ? EXIT.ok : EXIT.usage };
  }
  if (error instanceof ApiProblem) {
    const field = error.problem.field;
    if (!field) return { message: `trawl: ${error.message} [HTTP ${error.status}]`, code: EXIT.usage };
    const flag = FIELD_FLAGS[field];
    // the API's detail usually opens with the field already: say it once, with the flag that set it
    const detail = error.message.startsWith(`${field}: `)
      ? error.message.slice(field.length + 2)
      : error.message;
    return {
      message: `trawl: ${field}${flag ? ` (${flag})` : ''}: ${detail} [HTTP ${error.status}]`,
      code: EXIT.usage,
    };
  }
  if (error instanceof ApiUnavailable) return { message: `trawl: ${error.message}`, code: EXIT.unavailable };
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') {
    return { message: `trawl: ${(error as Error).message}`, code: EXIT.usage };
  }
  if (error instanceof Error && error.name === 'TrawlError') {
    return { message: `trawl: ${error.message}`, code: EXIT.usage };
  }
  return {
    message: `trawl: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    code: EXIT.unavailable,
  };
}

export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    const { message, code } = explain(error);
    if (message) process.stderr.write(`${message}\n`);
    return code;
  }
}
