// A worker's memory on huge pages: a loopback site serves N HTML pages of 110 MB each (generated as they are
// sent, never held by the server), and a crawl of them with fetch.maxBytes 100 MiB and N requests in flight
// runs on the real worker (`src/worker.ts`) in a child process, whose peak RSS (VmHWM in /proc) is printed.
// Without the body budget, 16 such pages take the worker out of V8's heap, and the worker that retakes them
// dies the same way. Target: the crawl completes and the worker peaks under its
// WORKER_MEMORY_BUDGET_BYTES (1.5 GiB).
// --hostile: the hostile site instead, pages of 40 to 110 MB (text, links only, multibyte, a thousandfold
// compressible, in turn) at the largest fetch.maxBytes; after the crawl the worker's crawl-text job is awaited
// while the worker's /metrics is polled (its latency is the event loop's), then the crawl is exported as JSON
// lines with html, text and markdown from an API in a child process of its own, while its /healthz is polled:
// the API's peak RSS and the polls' latency are printed per export.
// Args: --pages N (16), --mib N (page size, 110), --concurrency N (16), --budget-mib N (worker's
// FETCH_MEMORY_BUDGET_BYTES; default: the worker's default), --chunked (no Content-Length: the budget is
// taken as the body arrives), --after-secs N (how long the worker is watched after the crawl, while its
// crawl-text job reads the stored bodies; 60, or until the job is done with --hostile, at most 900), --hostile.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { residentMemory } from '../src/crawler/render/process-memory.js';
import { isFinished } from '../src/crawler/vocabulary.js';
import { openRuntime } from '../src/runtime.js';
import type { CrawlCreated } from '../src/schemas/crawls.js';
import { numberArg } from './args.js';
import { quantile } from './eventloop.js';
import { dropBenchSchemas } from './peers/measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** The worker's budget, WORKER_MEMORY_BUDGET_BYTES's default (config.ts). */
const TARGET_PEAK_MIB = loadConfig({}).workerMemoryBudgetBytes / 2 ** 20;
/** The hostile site's smallest page; the largest is --mib. */
const HOSTILE_MIN_MIB = 40;
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

/**
 * The hostile site's other kinds of 64 KiB blocks: nothing but links (a parse's worst), multibyte text (a cut
 * lands inside a character) and one byte repeated (a thousandfold compression).
 */
function hostileBlocks(kind: number, count: number): Buffer[] {
  const unit =
    kind === 1
      ? (b: number, i: number) => `<a href="/nowhere/${b}-${i}">l${i}</a> `
      : kind === 2
        ? (b: number, i: number) => `<p>été 水の流れ ${b} «ünïcødé» 🌊 ${i}</p>\n`
        : () => 'a';
  return Array.from({ length: count }, (_, b) => {
    let html = '';
    for (let i = 0; Buffer.byteLength(html) < BLOCK_BYTES - 600; i++) html += unit(b, i);
    const bytes = Buffer.from(html);
    return Buffer.concat([bytes, Buffer.alloc(BLOCK_BYTES - bytes.length, ' ')]);
  });
}

interface Site {
  server: Server;
  origin: string;
  bigRequests: () => number;
}

/** The size of page `index` of `pages`: all `pageBytes`, or from 40 MB to it with --hostile. */
function pageSize(index: number, pages: number, pageBytes: number, hostile: boolean): number {
  if (!hostile || pages < 2) return pageBytes;
  const minBytes = Math.min(pageBytes, HOSTILE_MIN_MIB * 1000 * 1000);
  return Math.round(minBytes + ((pageBytes - minBytes) * index) / (pages - 1));
}

async function serveBigPages(
  pages: number,
  pageBytes: number,
  chunked: boolean,
  hostile: boolean,
): Promise<Site> {
  const kinds = [makeBlocks(64), ...(hostile ? [1, 2, 3].map((kind) => hostileBlocks(kind, 64)) : [])];
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
    const index = Number(match[1]);
    const blocks = kinds[index % kinds.length]!;
    const size = pageSize(index, pages, pageBytes, hostile);
    const first = head(`big ${match[1]}`);
    const fill = size - first.length - tail.length;
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      ...(chunked ? {} : { 'content-length': String(size) }),
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

function startWorker(schema: string, budgetMiB: number | null, metricsPort: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL,
      DB_SCHEMA: schema,
      ALLOW_PRIVATE_NETWORKS: 'true',
      WORKER_CONCURRENCY: '2',
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      ...(budgetMiB !== null ? { FETCH_MEMORY_BUDGET_BYTES: String(budgetMiB * 1024 * 1024) } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * GETs `url` one request after another (the next when the last answered) until stopped, from a child process
 * of its own, so the latencies are the polled process's (how long its event loop kept a request waiting) and
 * never this one's, busy parsing the export. A request that fails counts as its time to fail.
 */
function pollLatency(url: string, pauseMs: number): { stop: () => Promise<number[]> } {
  const script = `
    const latencies = [];
    let running = true;
    process.stdin.on('end', () => { running = false; });
    process.stdin.resume();
    (async () => {
      while (running) {
        const started = performance.now();
        try { await (await fetch(${JSON.stringify(url)}, { signal: AbortSignal.timeout(60000) })).arrayBuffer(); } catch {}
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, ${pauseMs}));
      }
      process.stdout.write(JSON.stringify(latencies));
    })();`;
  const poller = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  poller.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise((resolve) => poller.once('exit', resolve));
  return {
    stop: async () => {
      poller.stdin?.end();
      await exited;
      return output === '' ? [] : (JSON.parse(output) as number[]);
    },
  };
}

const latencySummary = (latenciesMs: number[]) =>
  latenciesMs.length === 0
    ? 'no polls'
    : `${latenciesMs.length} polls, p50 ${quantile(latenciesMs, 0.5).toFixed(1)} ms, p99 ${quantile(latenciesMs, 0.99).toFixed(1)} ms, max ${Math.max(...latenciesMs).toFixed(1)} ms`;

/**
 * Exports the crawl as JSON lines with each body include from an API in a child process of its own (its peak
 * RSS is the export's), drained as fast as it comes, every line parsed, /healthz polled all the while.
 */
async function measureExports(schema: string, crawlId: string): Promise<void> {
  const port = await freePort();
  const api = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL,
      DB_SCHEMA: schema,
      PORT: String(port),
      RUN_WORKER: 'false',
      ALLOW_PRIVATE_NETWORKS: 'true',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  try {
    for (const deadlineMs = performance.now() + 120_000; ; ) {
      const up = await fetch(`${origin}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (performance.now() > deadlineMs) throw new Error('the API did not start');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const idleMiB = memoryOf(api.pid!)?.rssMiB ?? 0;
    process.stdout.write(`export from an API process (idle RSS ${idleMiB.toFixed(0)} MiB):\n`);
    // the exports that read whole stored bodies: html, text, and text with markdown
    for (const include of ['html', 'text', 'text,markdown']) {
      const health = pollLatency(`${origin}/healthz`, 20);
      let peakMiB = 0;
      const sampler = setInterval(() => {
        peakMiB = Math.max(peakMiB, memoryOf(api.pid!)?.rssMiB ?? 0);
      }, 100);
      const startedMs = performance.now();
      const response = await fetch(`${origin}/v1/crawls/${crawlId}/export?fields=id,url&include=${include}`);
      let bytes = 0;
      let lines = 0;
      let truncated = 0;
      // the line so far, as chunks: a new chunk is searched for its line ends, never the whole line again
      let parts: Buffer[] = [];
      for await (const chunk of response.body ?? []) {
        bytes += chunk.length;
        let rest = Buffer.from(chunk);
        for (let end = rest.indexOf(10); end !== -1; end = rest.indexOf(10)) {
          const line = Buffer.concat([...parts, rest.subarray(0, end)]).toString();
          parts = [];
          const record = JSON.parse(line) as { truncated?: boolean };
          if (record.truncated) truncated++;
          lines++;
          rest = rest.subarray(end + 1);
        }
        if (rest.length > 0) parts.push(rest);
      }
      const seconds = (performance.now() - startedMs) / 1000;
      clearInterval(sampler);
      const healthMs = await health.stop();
      process.stdout.write(
        `  include=${include}: ${response.status}, ${lines} lines (${truncated} truncated), ` +
          `${(bytes / 2 ** 20).toFixed(0)} MiB in ${seconds.toFixed(1)} s; API RSS peak ${peakMiB.toFixed(0)} MiB; ` +
          `/healthz ${latencySummary(healthMs)}\n`,
      );
    }
  } finally {
    api.kill('SIGKILL');
  }
}

export async function run(args: string[]): Promise<void> {
  const pages = numberArg(args, '--pages', 16);
  const pageMiB = numberArg(args, '--mib', 110);
  const concurrency = numberArg(args, '--concurrency', 16);
  const budgetMiB = args.includes('--budget-mib') ? numberArg(args, '--budget-mib', 256) : null;
  const hostile = args.includes('--hostile');
  const afterSecs = numberArg(args, '--after-secs', hostile ? 900 : 60);
  const chunked = args.includes('--chunked');
  const pageBytes = pageMiB * 1000 * 1000;
  const metricsPort = await freePort();

  const site = await serveBigPages(pages, pageBytes, chunked, hostile);
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
    const { id } = created.json<CrawlCreated>();
    process.stdout.write(
      `${pages} ${hostile ? `hostile pages of ${Math.min(pageMiB, HOSTILE_MIN_MIB)}–` : 'pages of '}${pageMiB} MB ` +
        `(${chunked ? 'chunked' : 'Content-Length'}), maxBytes 100 MiB, ` +
        `concurrency ${concurrency}, worker budget ${budgetMiB === null ? 'default' : `${budgetMiB} MiB`}\n`,
    );

    const startedMs = performance.now();
    let worker = startWorker(schema, budgetMiB, metricsPort);
    workers.push(worker);
    let peakMiB = 0;
    let deaths = 0;
    let status = 'queued';
    let crawlMs = 0;
    let doneAtMs: number | null = null;
    let peakDuringCrawlMiB = 0;
    let metricsPoll: ReturnType<typeof pollLatency> | null = null;
    let textMs: number | null = null;
    const textPending = async () =>
      (
        await monitor.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${schema}".pages p JOIN "${schema}".page_contents c ON c.page_id = p.id
            WHERE p.crawl_id = $1 AND p.type = 'HTML' AND (c.html IS NOT NULL OR c.html_gzip IS NOT NULL) AND c.text_extracted_at IS NULL`,
          [id],
        )
      ).rows[0]?.n ?? -1;
    for (;;) {
      const memory = worker.pid !== undefined ? memoryOf(worker.pid) : null;
      if (memory) peakMiB = Math.max(peakMiB, memory.peakMiB);
      if (worker.exitCode !== null || worker.signalCode !== null) {
        deaths++;
        process.stdout.write(
          `worker ${worker.pid} died (${worker.exitCode ?? worker.signalCode}) at ${peakMiB.toFixed(0)} MiB peak; starting another\n`,
        );
        if (deaths >= 3) break;
        worker = startWorker(schema, budgetMiB, metricsPort);
        workers.push(worker);
      }
      if (doneAtMs === null) {
        const row = await monitor.query<{ status: string }>(
          `SELECT status FROM "${schema}".crawls WHERE id = $1`,
          [id],
        );
        status = row.rows[0]?.status ?? 'missing';
        if (isFinished(status)) {
          crawlMs = performance.now() - startedMs;
          doneAtMs = performance.now();
          peakDuringCrawlMiB = peakMiB;
          if (hostile) metricsPoll = pollLatency(`http://127.0.0.1:${metricsPort}/metrics`, 100);
        }
      } else if (performance.now() - doneAtMs > afterSecs * 1000) break;
      else if (hostile && (await textPending()) === 0) {
        textMs = performance.now() - doneAtMs;
        break;
      }
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
    const after =
      textMs !== null
        ? `the text job (${(textMs / 1000).toFixed(1)} s after the crawl)`
        : `${afterSecs} s after it`;
    process.stdout.write(
      `worker peak RSS (VmHWM): ${peakDuringCrawlMiB.toFixed(0)} MiB during the crawl, ${peakMiB.toFixed(0)} MiB ` +
        `including ${after} (WORKER_MEMORY_BUDGET_BYTES ${TARGET_PEAK_MIB} MiB: ` +
        `${status === 'completed' && deaths === 0 && peakMiB < TARGET_PEAK_MIB ? 'met' : 'NOT met'})\n`,
    );
    if (metricsPoll) {
      const stored = await monitor.query<{ longest: number | null; counted: number }>(
        `SELECT max(length(c.main_text)) AS longest, count(c.text_extracted_at)::int AS counted
           FROM "${schema}".pages p JOIN "${schema}".page_contents c ON c.page_id = p.id WHERE p.crawl_id = $1`,
        [id],
      );
      process.stdout.write(
        `text job: ${stored.rows[0]?.counted ?? 0} pages counted, longest stored text ` +
          `${((stored.rows[0]?.longest ?? 0) / 1e6).toFixed(1)} M characters, ${(await textPending()) === 0 ? 'done' : 'NOT done'}; ` +
          `worker /metrics during it: ${latencySummary(await metricsPoll.stop())}\n`,
      );
    }
    if (hostile && status === 'completed') await measureExports(schema, id);
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
