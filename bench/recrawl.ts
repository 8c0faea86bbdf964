// A recrawl against the crawl it revisits, on the realistic test web: a first crawl, then 10 % of the plain
// pages edited, 5 % removed and 5 % added (the test web's mutation, which knows the change class of every page),
// then a recrawl of the first crawl. The peer is trawl's own first crawl of the same web in the same run.
// Targets: the recrawl transfers ≤ 20 % of the first crawl's body bytes and takes ≤ 50 % of its time, and
// classifies every page as the test web's truth says (the confusion table). With `--conditional ignore` the
// test web sends validators but answers every request in full, as a server that ignores conditional headers:
// the recrawl then transfers about what the first crawl did, and still classifies every page.
// Args: --hosts N (default 4), --pages-per-host N (default 250), --links-per-page N (default 30),
//       --concurrency N (default 32), --seed N (default 42), --conditional honour|ignore (default honour),
//       --profile (each crawl's PostgreSQL statements by name: count and time)
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { CHANGE_CLASSES, isFinished } from '../src/crawler/vocabulary.js';
import { openRuntime } from '../src/runtime.js';
import type { CrawlCreated, CrawlStatus, PageListItem } from '../src/schemas/crawls.js';
import {
  BENCHMARK_FEATURES,
  canonicalUrl,
  type ExpectedChange,
  startTestWeb,
  type TestWeb,
} from '../test/support/testweb/index.js';
import { numberArg, stringArg } from './args.js';
import { benchTrawlConfig, dropBenchSchemas } from './peers/measure.js';
import { countStatements } from './peers/trawl.js';

const POLL_MS = 50;
const BYTES_TARGET = 0.2;
const TIME_TARGET = 0.5;
/** A recrawl that has not ended by then has hung: the bench fails rather than waits for ever. */
const CRAWL_DEADLINE_MS = 30 * 60_000;

interface Run {
  id: string;
  ms: number;
  /** Body bytes the test web wrote over the crawl (pages, robots.txt, 404s; a 304 writes none). */
  bytes: number;
  requests: number;
  notModified: number;
}

type StatementCounts = Record<string, { count: number; ms: number }>;

/** Each statement's count and time over a crawl, the most time first, when the bench counts them. */
function printStatements(name: string, before: StatementCounts, after: StatementCounts): void {
  const rows = Object.entries(after)
    .map(([statement, { count, ms }]) => ({
      statement,
      count: count - (before[statement]?.count ?? 0),
      ms: ms - (before[statement]?.ms ?? 0),
    }))
    .filter((row) => row.count > 0)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 15);
  process.stdout.write(`  statements of the ${name}, by time (count, total ms):\n`);
  for (const row of rows) {
    process.stdout.write(
      `    ${String(row.count).padStart(7)} ${row.ms.toFixed(0).padStart(8)} ms  ${row.statement}\n`,
    );
  }
}

async function crawl(
  app: FastifyInstance,
  web: TestWeb,
  payload: object,
  statements: (() => StatementCounts) | null,
  name: string,
): Promise<Run> {
  const before = structuredClone(statements?.() ?? {});
  web.resetLog();
  const startedMs = performance.now();
  const created = await app.inject({ method: 'POST', url: '/v1/crawls', payload });
  if (created.statusCode !== 202) throw new Error(`POST /v1/crawls: ${created.statusCode} ${created.body}`);
  const { id } = created.json<CrawlCreated>();
  let status: CrawlStatus;
  for (;;) {
    status = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json<CrawlStatus>();
    if (isFinished(status.status)) break;
    if (performance.now() - startedMs > CRAWL_DEADLINE_MS) throw new Error(`crawl ${id} did not end`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const ms = performance.now() - startedMs;
  if (statements) printStatements(name, before, statements());
  if (status.status !== 'completed') throw new Error(`crawl ${id} ended ${status.status}: ${status.error}`);
  return {
    id,
    ms,
    bytes: web.log.reduce((sum, entry) => sum + entry.bytes, 0),
    requests: web.log.length,
    notModified: web.log.filter((entry) => entry.status === 304).length,
  };
}

/** Waits until the text job has read every stored page of the crawl (the recrawl compares with those texts). */
async function textsDone(app: FastifyInstance, id: string): Promise<void> {
  const startedMs = performance.now();
  for (;;) {
    const stats = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/stats/words?top=1` });
    if (stats.statusCode === 200 && stats.json<{ complete: boolean }>().complete) return;
    if (performance.now() - startedMs > CRAWL_DEADLINE_MS)
      throw new Error(`the text job of ${id} did not end`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function allPages(
  app: FastifyInstance,
  id: string,
): Promise<Array<Pick<PageListItem, 'canonicalUrl' | 'type' | 'change'>>> {
  const pages: Array<Pick<PageListItem, 'canonicalUrl' | 'type' | 'change'>> = [];
  let next: string | null = `/v1/crawls/${id}/pages?limit=100`;
  while (next) {
    const response: { statusCode: number; body: string } = await app.inject({ method: 'GET', url: next });
    if (response.statusCode !== 200) throw new Error(`${next}: ${response.statusCode} ${response.body}`);
    const body = JSON.parse(response.body) as { items: PageListItem[]; next: string | null };
    pages.push(...body.items);
    next = body.next;
  }
  return pages;
}

type Row = ExpectedChange | 'none';
const ROWS: readonly Row[] = ['new', 'changed', 'unchanged', 'gone', 'none'];

/** Truth by row, trawl's class by column; `none`: no class (truth: not a page the crawl requests). */
function confusion(
  pages: Array<Pick<PageListItem, 'canonicalUrl' | 'change'>>,
  expected: (url: string) => ExpectedChange | null,
): { table: Map<string, number>; wrong: string[] } {
  const table = new Map<string, number>();
  const wrong: string[] = [];
  for (const page of pages) {
    const truth: Row = expected(canonicalUrl(page.canonicalUrl) ?? page.canonicalUrl) ?? 'none';
    const found = (page.change ?? 'none') as Row;
    const key = `${truth} ${found}`;
    table.set(key, (table.get(key) ?? 0) + 1);
    if (truth !== found) wrong.push(`${page.canonicalUrl}: truth ${truth}, trawl ${found}`);
  }
  return { table, wrong };
}

function printConfusion(table: Map<string, number>): void {
  const width = 11;
  const cell = (text: string | number) => String(text).padStart(width);
  process.stdout.write(`\n  truth \\ trawl${ROWS.map(cell).join('')}\n`);
  for (const truth of ROWS) {
    const counts = ROWS.map((found) => table.get(`${truth} ${found}`) ?? 0);
    if (counts.every((n) => n === 0)) continue;
    process.stdout.write(`  ${truth.padEnd(13)}${counts.map(cell).join('')}\n`);
  }
}

export async function run(args: string[]): Promise<void> {
  const hosts = numberArg(args, '--hosts', 4);
  const pagesPerHost = numberArg(args, '--pages-per-host', 250);
  const linksPerPage = numberArg(args, '--links-per-page', 30);
  const concurrency = numberArg(args, '--concurrency', 32);
  const seed = numberArg(args, '--seed', 42);
  const conditional = stringArg(args, '--conditional', 'honour');
  if (conditional !== 'honour' && conditional !== 'ignore')
    throw new Error('--conditional expects honour or ignore');
  const statements = args.includes('--profile') ? countStatements() : null;

  const web = await startTestWeb({
    hosts,
    pagesPerHost,
    linksPerPage,
    features: BENCHMARK_FEATURES,
    seed,
    profile: 'realistic',
  });
  const tag = randomBytes(5).toString('hex');
  const schema = `bench_${tag}`;
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const config = benchTrawlConfig(databaseUrl, '', schema);
  const log = pino({ level: config.logLevel }, pino.destination(2));
  const runtime = await openRuntime(config, log);
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    runtime.startWorker();
    const app = await buildApp({ runtime, logger: log });
    try {
      await app.ready();
      process.stdout.write(
        `test web: realistic profile, ${hosts} hosts × ${pagesPerHost} pages (seed ${seed}) + robots.txt, ` +
          `conditional requests ${conditional === 'honour' ? 'answered (ETag, Last-Modified, 304)' : 'ignored (always 200)'}; ` +
          `trawl in this process, concurrency ${concurrency}, delay 0, robots obeyed, HTML stored\n`,
      );
      const first = await crawl(
        app,
        web,
        {
          seeds: web.seeds,
          maxPages: hosts * pagesPerHost * 4,
          scope: { allowedDomains: web.hosts.map((origin) => new URL(origin).host) },
          politeness: { delayMs: 0, maxCrawlDelayMs: 0, perHostConcurrency: 16, respectRobots: true },
          concurrency,
        },
        statements,
        'first crawl',
      );
      await textsDone(app, first.id);

      const mutation = web.mutate({ edit: 0.1, remove: 0.05, add: 0.05, seed });
      web.setConditional(conditional);
      process.stdout.write(
        `mutation: ${mutation.edited.length} pages edited, ${mutation.removed.length} removed, ` +
          `${mutation.added.length} added\n`,
      );
      const second = await crawl(app, web, { recrawl: { of: first.id } }, statements, 'recrawl');

      const pages = await allPages(app, second.id);
      const { table, wrong } = confusion(pages, (url) => mutation.expected(url));
      const status = (
        await app.inject({ method: 'GET', url: `/v1/crawls/${second.id}` })
      ).json<CrawlStatus>();
      const missing = await app.inject({
        method: 'GET',
        url: `/v1/crawls/${second.id}/changes/missing?limit=1`,
      });
      const unreached = missing.json<{ items: unknown[] }>().items.length;

      const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(2);
      const bytesRatio = second.bytes / Math.max(1, first.bytes);
      const timeRatio = second.ms / Math.max(1, first.ms);
      const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
      process.stdout.write(
        `\n  crawl     requests  304s  body MiB  time s\n` +
          `  first   ${String(first.requests).padStart(10)}${String(first.notModified).padStart(6)}${mib(first.bytes).padStart(10)}${(first.ms / 1000).toFixed(1).padStart(8)}\n` +
          `  recrawl ${String(second.requests).padStart(10)}${String(second.notModified).padStart(6)}${mib(second.bytes).padStart(10)}${(second.ms / 1000).toFixed(1).padStart(8)}\n`,
      );
      printConfusion(table);
      process.stdout.write(
        `\n  changes (GET /v1/crawls/:id): ${CHANGE_CLASSES.map((c) => `${c} ${status.changes?.[c] ?? 0}`).join(', ')}; ` +
          `earlier pages not reached: ${unreached}\n` +
          `\nbody bytes recrawl/first ${(bytesRatio * 100).toFixed(1)} % (target ≤ ${BYTES_TARGET * 100} %: ${verdict(bytesRatio <= BYTES_TARGET)}); ` +
          `time recrawl/first ${(timeRatio * 100).toFixed(1)} % (target ≤ ${TIME_TARGET * 100} %: ${verdict(timeRatio <= TIME_TARGET)}); ` +
          `pages classified as the truth says ${pages.length - wrong.length} of ${pages.length} (${verdict(wrong.length === 0 && unreached === 0)})\n`,
      );
      if (wrong.length > 0) {
        process.stdout.write(
          `  misclassified (first 20):\n${wrong
            .slice(0, 20)
            .map((line) => `    ${line}\n`)
            .join('')}`,
        );
        throw new Error(`${wrong.length} pages classified against the truth`);
      }
      if (unreached > 0) throw new Error('the recrawl did not reach every page of the earlier crawl');
    } finally {
      await app.close();
    }
  } finally {
    await runtime.close();
    await web.close();
    await dropBenchSchemas(admin, schema);
    await admin.end();
  }
}
