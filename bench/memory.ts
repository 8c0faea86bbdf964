// A worker's memory on huge pages: a loopback site serves N HTML pages of 110 MB each (generated as they are
// sent, never held by the server), and a crawl of them with fetch.maxBytes 100 MiB and N requests in flight
// runs on the real worker (`src/worker.ts`) in a child process, whose peak RSS (VmHWM in /proc) is printed.
// Before the body budget, 16 such pages took the worker to 5.2 GB and out of V8's heap, and the worker that
// retook them died the same way. Target: the crawl completes and the worker peaks under 1.5 GB.
// Args: --pages N (16), --mib N (page size, 110), --concurrency N (16), --budget-mib N (worker's
// FETCH_MEMORY_BUDGET_BYTES; default: the worker's default), --chunked (no Content-Length: the budget is
// taken as the body arrives), --after-secs N (how long the worker is watched after the crawl, while its
// crawl-text job reads the stored bodies; 60).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { residentMemory } from '../src/crawler/render/process-memory.js';
import { openRuntime } from '../src/runtime.js';
import { numberArg } from './args.js';
import { dropBenchSchemas } from './peers/measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const TARGET_PEAK_MIB = 1536;
const BLOCK_BYTES = 64 * 1024;

/**
 * Distinct 64 KiB blocks of paragraphs (random words, a link now and then) sent in a shuffled order: gzip's
 * 32 KiB window finds no block twice, so the pages compress like text, not like one repeated string.
 */
function makeBlocks(count: number): Buffer[] {
  const words = Array.from({ length: 5000 }, () =>
    randomBytes(6)
      .toString('base64url')
      .slice(0, (3 + Math.random() * 6) | 0),
  );
  return Array.from({ length: count }, (_, b) => {
    let html = '';
    let paragraph = 0;
    while (html.length < BLOCK_BYTES - 600) {
      const sentence = Array.from({ length: 60 }, () => words[(Math.random() * words.length) | 0]).join(' ');
      html += `<p>${sentence} <a href="/nowhere/${b}-${paragraph++}">${words[paragraph % words.length]}</a></p>\n`;
    }
    return Buffer.from(html.padEnd(BLOCK_BYTES, ' '));
  });
}

interface Site {
  server: Server;
  origin: string;
  bigRequests: () => number;
}

async function serveBigPages(pages: number, pageBytes: number, chunked: boolean): Promise<Site> {
  const blocks = makeBlocks(64);
  let bigRequests = 0;
  const head = (title: string) =>
    Buffer.from(`<!doctype html><html><head><title>${title}</title></head><body>\n`);
  const tail = Buffer.from('</body></html>\n');
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/') {
      const links = Array.from({ length: pages }, (_, i) => `<a href="/big/${i}">big ${i}</a>`).join('\n');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html><head><title>index</title></head><body>${links}</body></html>`);
      return;
    }
    const match = /^\/big\/(\d+)$/.exec(path);
    if (!match) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
      return;
    }
    bigRequests++;
    const first = head(`big ${match[1]}`);
    const fill = pageBytes - first.length - tail.length;
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      ...(chunked ? {} : { 'content-length': String(pageBytes) }),
    });
    response.write(first);
    let sent = 0;
    let block = Number(match[1]);
    // Written as the socket drains: the server holds one block at a time, whatever the page size.
    const pump = () => {
      while (sent < fill) {
        block = (block * 7 + 3) % blocks.length;
        const next = blocks[block]!;
        const part = fill - sent >= next.length ? next : next.subarray(0, fill - sent);
        sent += part.length;
        if (!response.write(part)) {
          response.once('drain', pump);
          return;
        }
      }
      response.end(tail);
    };
    response.on('close', () => response.removeListener('drain', pump));
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}`, bigRequests: () => bigRequests };
}

/** VmHWM (peak resident set) and VmRSS of a process, in MiB; null once it is gone. */
function memoryOf(pid: number): { peakMiB: number; rssMiB: number } | null {
  const memory = residentMemory(pid);
  return memory && { peakMiB: memory.peakBytes / 2 ** 20, rssMiB: memory.rssBytes / 2 ** 20 };
}

function startWorker(schema: string, budgetMiB: number | null): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL,
      DB_SCHEMA: schema,
      ALLOW_PRIVATE_NETWORKS: 'true',
      WORKER_CONCURRENCY: '2',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      ...(budgetMiB !== null ? { FETCH_MEMORY_BUDGET_BYTES: String(budgetMiB * 1024 * 1024) } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export async function run(args: string[]): Promise<void> {
  const pages = numberArg(args, '--pages', 16);
  const pageMiB = numberArg(args, '--mib', 110);
  const concurrency = numberArg(args, '--concurrency', 16);
  const budgetMiB = args.includes('--budget-mib') ? numberArg(args, '--budget-mib', 256) : null;
  const afterSecs = numberArg(args, '--after-secs', 60);
  const chunked = args.includes('--chunked');
  const pageBytes = pageMiB * 1000 * 1000;

  const site = await serveBigPages(pages, pageBytes, chunked);
  const schema = `bench_mem_${randomBytes(5).toString('hex')}`;
  const log = pino({ level: 'error' }, pino.destination(2));
  const config = loadConfig({
    DATABASE_URL,
    DB_SCHEMA: schema,
    ALLOW_PRIVATE_NETWORKS: 'true',
    RUN_WORKER: 'false',
    LOG_LEVEL: 'error',
  });
  const runtime = await openRuntime(config, log);
  const app = await buildApp({ runtime, logger: log });
  const monitor = new pg.Client({ connectionString: DATABASE_URL });
  await monitor.connect();
  const workers: ChildProcess[] = [];
  try {
    await app.ready();
    const created = await app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: {
        seeds: [`${site.origin}/`],
        maxPages: pages + 1,
        politeness: { delayMs: 0, maxCrawlDelayMs: 0, perHostConcurrency: 16, respectRobots: false },
        concurrency,
        workers: 1,
        fetch: { maxBytes: 100 * 1024 * 1024, timeoutMs: 120_000, retries: 0 },
      },
    });
    if (created.statusCode !== 202) throw new Error(`POST /v1/crawls: ${created.statusCode} ${created.body}`);
    const { id } = created.json() as { id: string };
    process.stdout.write(
      `${pages} pages of ${pageMiB} MB (${chunked ? 'chunked' : 'Content-Length'}), maxBytes 100 MiB, ` +
        `concurrency ${concurrency}, worker budget ${budgetMiB === null ? 'default' : `${budgetMiB} MiB`}\n`,
    );

    const startedMs = performance.now();
    let worker = startWorker(schema, budgetMiB);
    workers.push(worker);
    let peakMiB = 0;
    let deaths = 0;
    let status = 'queued';
    let crawlMs = 0;
    let doneAtMs: number | null = null;
    let peakDuringCrawlMiB = 0;
    for (;;) {
      const memory = worker.pid !== undefined ? memoryOf(worker.pid) : null;
      if (memory) peakMiB = Math.max(peakMiB, memory.peakMiB);
      if (worker.exitCode !== null || worker.signalCode !== null) {
        deaths++;
        process.stdout.write(
          `worker ${worker.pid} died (${worker.exitCode ?? worker.signalCode}) at ${peakMiB.toFixed(0)} MiB peak; starting another\n`,
        );
        if (deaths >= 3) break;
        worker = startWorker(schema, budgetMiB);
        workers.push(worker);
      }
      if (doneAtMs === null) {
        const row = await monitor.query<{ status: string }>(
          `SELECT status FROM "${schema}".crawls WHERE id = $1`,
          [id],
        );
        status = row.rows[0]?.status ?? 'missing';
        if (['completed', 'failed', 'cancelled'].includes(status)) {
          crawlMs = performance.now() - startedMs;
          doneAtMs = performance.now();
          peakDuringCrawlMiB = peakMiB;
        }
      } else if (performance.now() - doneAtMs > afterSecs * 1000) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const pagesByType = await monitor.query<{
      type: string;
      truncated: boolean;
      error: string | null;
      n: number;
    }>(
      `SELECT type, truncated, error, count(*)::int AS n FROM "${schema}".pages WHERE crawl_id = $1 GROUP BY 1, 2, 3 ORDER BY 1`,
      [id],
    );
    const bytes = await monitor.query<{ total: string | null; largest: number | null }>(
      `SELECT sum(bytes)::text AS total, max(bytes) AS largest FROM "${schema}".pages WHERE crawl_id = $1`,
      [id],
    );
    process.stdout.write(
      `crawl ${status} in ${(crawlMs / 1000).toFixed(1)} s; big-page requests served ${site.bigRequests()}; ` +
        `worker deaths ${deaths}\n`,
    );
    for (const row of pagesByType.rows) {
      process.stdout.write(
        `  ${row.n} × ${row.type}${row.truncated ? ' truncated' : ''}${row.error ? ` (${row.error})` : ''}\n`,
      );
    }
    process.stdout.write(
      `  bytes kept: ${(Number(bytes.rows[0]?.total ?? 0) / 2 ** 20).toFixed(0)} MiB, largest page ${((bytes.rows[0]?.largest ?? 0) / 2 ** 20).toFixed(1)} MiB\n`,
    );
    process.stdout.write(
      `worker peak RSS (VmHWM): ${peakDuringCrawlMiB.toFixed(0)} MiB during the crawl, ${peakMiB.toFixed(0)} MiB ` +
        `including ${afterSecs} s after it (target < ${TARGET_PEAK_MIB} MiB: ` +
        `${status === 'completed' && deaths === 0 && peakMiB < TARGET_PEAK_MIB ? 'met' : 'NOT met'})\n`,
    );
  } finally {
    for (const worker of workers)
      if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await app.close();
    await runtime.close();
    await dropBenchSchemas(monitor, schema);
    await monitor.end();
    site.server.closeAllConnections();
    site.server.close();
  }
}
