// A big crawl stays flat: one crawl of ≥ 200,000 pages (16 hosts × 12,500 by default) on the test web, run by
// the real worker entry (src/worker.ts) in a process of its own, while pollers read the crawl's status through
// HTTP as clients do. For every tenth of the crawl it prints pages/s, the worker's resident set, the size of
// the crawl's tables in PostgreSQL, and the status reads' latency. The API runs alone in its process, as it is
// deployed, and the pollers on a thread of their own, so that neither the test web's serving nor the
// bench's bookkeeping sits in the event loop whose latency is measured. Then, on the finished crawl, the plans
// PostgreSQL picks for the list endpoints' default orders and most used filters (EXPLAIN ANALYZE).
// Targets: pages/s in the last tenth ≥ 80 % of the first; worker RSS bounded; status read p99 < 20 ms.
// Args: --hosts 16  --pages-per-host 12500  --pollers 4  --concurrency 64  --queue pg|redis  --no-html
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { pino } from 'pino';
import { residentMemory } from '../src/crawler/render/process-memory.js';
import { percentileCont } from '../src/crawler/stats/plot.js';
import { isFinished } from '../src/crawler/vocabulary.js';
import { sql } from '../src/db/sql.js';
import { openRuntime } from '../src/runtime.js';
import type { CrawlCreated, CrawlStatus } from '../src/schemas/crawls.js';
import { stopProcess } from '../test/support/processes.js';
import { BENCHMARK_FEATURES, scopeOf, startTestWeb } from '../test/support/testweb/index.js';
import { numberArg, stringArg } from './args.js';
import { benchSchemaMiB, benchTrawlConfig, dropBenchSchemas } from './peers/measure.js';
import { benchWorkerEnv, startApiProcess, startWorkers, stopWorkers } from './peers/worker-processes.js';

const POLL_PAUSE_MS = 50;
const SAMPLE_EVERY_MS = 1_000;
const SOAK_TIMEOUT_MS = 90 * 60_000;

interface Sample {
  at: number;
  pages: number;
  workerRssMiB: number;
  tablesMiB: number;
}

interface Read {
  at: number;
  ms: number;
}

function rssMiB(pid: number): number {
  return (residentMemory(pid)?.rssBytes ?? 0) / 2 ** 20;
}

/** The list statements behind GET /v1/crawls/:id/pages, with the filters users combine most. */
const PLANS: { name: string; statement: string; params: (crawlId: string, lastId: number) => unknown[] }[] = [
  // $1 crawl, $2 after id, $3 type, $4 status, $5 host, $6 limit, $7 min score, $8 result (, $9 after score)
  {
    name: 'default order, 2nd page',
    statement: 'pages_list',
    params: (id) => [id, 50, null, null, null, 50, null, null],
  },
  {
    name: 'default order, deep page',
    statement: 'pages_list',
    params: (id, last) => [id, last - 100, null, null, null, 50, null, null],
  },
  {
    name: 'type=INVALID',
    statement: 'pages_list',
    params: (id) => [id, 0, 'INVALID', null, null, 50, null, null],
  },
  { name: 'type=HTML', statement: 'pages_list', params: (id) => [id, 0, 'HTML', null, null, 50, null, null] },
  { name: 'status=404', statement: 'pages_list', params: (id) => [id, 0, null, 404, null, 50, null, null] },
  {
    name: 'type=HTML&status=200',
    statement: 'pages_list',
    params: (id) => [id, 0, 'HTML', 200, null, 50, null, null],
  },
  {
    name: 'sort=-score',
    statement: 'pages_list_by_score',
    params: (id) => [id, 0, null, null, null, 50, null, null, null],
  },
  {
    name: 'sort=-score, deep page',
    statement: 'pages_list_by_score',
    params: (id, last) => [id, last - 100, null, null, null, 50, null, null, null],
  },
  {
    name: 'sort=-score&minScore=0.5',
    statement: 'pages_list_by_score',
    params: (id) => [id, 0, null, null, null, 50, 0.5, null, null],
  },
];

async function explainLists(db: pg.Client, schema: string, crawlId: string): Promise<void> {
  await db.query(`SET search_path TO "${schema}"`);
  await db.query('ANALYZE pages');
  const lastId = Number(
    (await db.query<{ id: string }>('SELECT max(id) AS id FROM pages WHERE crawl_id = $1', [crawlId]))
      .rows[0]!.id,
  );
  process.stdout.write('\nPlans of GET /v1/crawls/:id/pages (pages_list.sql) on this crawl:\n');
  for (const plan of PLANS) {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql(plan.statement)}`,
      plan.params(crawlId, lastId),
    );
    const lines = rows.map((row) => row['QUERY PLAN']);
    const executed = lines.find((line) => line.startsWith('Execution Time'));
    const nodes = lines.filter((line) => /Scan|Sort|Limit/.test(line)).map((line) => line.trim());
    process.stdout.write(`- ${plan.name}: ${executed ?? ''}\n    ${nodes.join('\n    ')}\n`);
  }
}

export async function run(args: string[]): Promise<void> {
  const hosts = numberArg(args, '--hosts', 16);
  const pagesPerHost = numberArg(args, '--pages-per-host', 12_500);
  const pollers = numberArg(args, '--pollers', 4);
  const concurrency = numberArg(args, '--concurrency', 64);
  const queue = stringArg(args, '--queue', 'pg');
  const storeHtml = !args.includes('--no-html');
  const redisUrl = queue === 'redis' ? process.env.REDIS_URL || 'redis://127.0.0.1:6379' : '';
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_soak_${randomBytes(4).toString('hex')}`;

  // no Crawl-delay in the test web's robots.txt (by default some hosts ask for 1 s): the last tenth of the crawl
  // would measure those hosts' politeness, not what a big crawl costs trawl
  const web = await startTestWeb({
    hosts,
    pagesPerHost,
    features: BENCHMARK_FEATURES,
    seed: 11,
    crawlDelaySeconds: 0,
  });
  // the schema and its tables, as the API makes them; then the API and the worker in processes of their own
  const runtime = await openRuntime(
    { ...benchTrawlConfig(databaseUrl, redisUrl, schema), runWorker: false },
    pino({ level: 'error' }),
  );
  await runtime.close();
  const env = benchWorkerEnv({ databaseUrl, redisUrl, schema });
  const api = await startApiProcess(env);
  const { children, ready } = startWorkers(1, env);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  process.stdout.write(
    `test web: ${hosts} hosts × ${pagesPerHost} pages (${hosts * pagesPerHost} pages), robots.txt on, no latency; ` +
      `crawl: 1 worker process, 2 runner jobs, ${concurrency} in flight, delay 0, HTML ${storeHtml ? 'stored' : 'not stored'}, ` +
      `${queue === 'redis' ? 'Redis' : 'PostgreSQL'} queue; ${pollers} pollers read its status through HTTP, ` +
      `${POLL_PAUSE_MS} ms apart each\n`,
  );
  try {
    await ready;
    const workerPid = children[0]!.pid!;
    const created = await fetch(`${api.base}/v1/crawls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        seeds: web.hosts.map((origin) => `${origin}/`),
        scope: scopeOf(web),
        maxPages: hosts * pagesPerHost,
        workers: 2,
        concurrency,
        politeness: { delayMs: 0, perHostConcurrency: Math.max(1, Math.ceil(concurrency / hosts)) },
        store: { html: storeHtml },
      }),
    });
    if (created.status !== 202) throw new Error(`crawl refused: ${await created.text()}`);
    const { id } = (await created.json()) as CrawlCreated;
    const statusUrl = `${api.base}/v1/crawls/${id}`;
    const startedAt = Date.now();
    const samples: Sample[] = [];
    const reads: Read[] = [];
    let latest = { status: 'queued', pagesFetched: 0 };
    let done = false;

    const pollerThread = startPollers(statusUrl, pollers);
    pollerThread.on('message', (read: PollerRead) => {
      reads.push({ at: read.at, ms: read.ms });
      if (read.statusCode === 200 && read.body) latest = read.body;
      if (read.body && isFinished(read.body.status)) done = true;
    });
    const pollersEnded = new Promise<void>((resolve, reject) => {
      pollerThread.once('exit', () => resolve());
      pollerThread.once('error', reject);
    });
    const sample = async () => {
      let lastSize = 0;
      while (!done) {
        if (samples.length % 10 === 0) lastSize = await benchSchemaMiB(db, schema);
        samples.push({
          at: Date.now(),
          pages: latest.pagesFetched,
          workerRssMiB: rssMiB(workerPid),
          tablesMiB: lastSize,
        });
        if (Date.now() - startedAt > SOAK_TIMEOUT_MS)
          throw new Error(`crawl not done after ${SOAK_TIMEOUT_MS} ms`);
        const reached = Math.floor((latest.pagesFetched / (hosts * pagesPerHost)) * 20);
        if (samples.length % 30 === 0) {
          process.stdout.write(
            `  ${((Date.now() - startedAt) / 1000).toFixed(0)} s: ${latest.pagesFetched} pages (${reached * 5} %)\n`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
      }
    };
    await sample();
    await pollerThread.terminate();
    await pollersEnded;
    samples.push({
      at: Date.now(),
      pages: latest.pagesFetched,
      workerRssMiB: rssMiB(workerPid),
      tablesMiB: await benchSchemaMiB(db, schema),
    });
    if (latest.status !== 'completed') throw new Error(`crawl ended ${latest.status}`);
    report(samples, reads, latest.pagesFetched, startedAt);
    await explainLists(db, schema, id);
  } finally {
    await stopWorkers(children);
    await stopProcess(api.child);
    await web.close();
    await dropBenchSchemas(db, schema);
    await db.end();
  }
}

/** What the poller thread reports of each status read. */
interface PollerRead {
  at: number;
  ms: number;
  statusCode: number;
  body: Pick<CrawlStatus, 'status' | 'pagesFetched'> | null;
}

/**
 * `count` clients reading `url` over and over, POLL_PAUSE_MS apart each, on a thread of their own: a read's time
 * is the client's, measured where nothing else runs. Each read is posted to this thread as a PollerRead.
 */
function startPollers(url: string, count: number): Worker {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { url, count, pauseMs } = workerData;
    const poll = async () => {
      for (;;) {
        const began = performance.now();
        let statusCode = 0;
        let body = null;
        try {
          const response = await fetch(url);
          statusCode = response.status;
          const json = await response.json();
          body = { status: json.status, pagesFetched: json.pagesFetched };
        } catch {}
        parentPort.postMessage({ at: Date.now(), ms: performance.now() - began, statusCode, body });
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    };
    for (let i = 0; i < count; i++) poll();
  `;
  return new Worker(source, { eval: true, workerData: { url, count, pauseMs: POLL_PAUSE_MS } });
}

/** The table: one row per tenth of the pages fetched. */
function report(samples: Sample[], reads: Read[], total: number, startedAt: number): void {
  const at = (pages: number) => samples.find((s) => s.pages >= pages)?.at ?? samples.at(-1)!.at;
  const header = [
    'tenth',
    'pages',
    'seconds',
    'pages/s',
    'worker RSS MiB',
    'tables MiB',
    'reads',
    'p50 ms',
    'p99 ms',
    'max ms',
  ];
  const rows: string[][] = [];
  const rates: number[] = [];
  const p99s: number[] = [];
  let from = startedAt;
  for (let tenth = 1; tenth <= 10; tenth++) {
    const until = tenth === 10 ? samples.at(-1)!.at : at((total * tenth) / 10);
    const inside = samples.filter((s) => s.at > from && s.at <= until);
    const latencies = reads
      .filter((r) => r.at > from && r.at <= until)
      .map((r) => r.ms)
      .sort((a, b) => a - b);
    const rate = total / 10 / Math.max(0.001, (until - from) / 1000);
    const p99 = latencies.length ? percentileCont(latencies, 0.99) : Number.NaN;
    rates.push(rate);
    p99s.push(p99);
    rows.push([
      `${tenth * 10} %`,
      String(Math.round((total * tenth) / 10)),
      ((until - from) / 1000).toFixed(1),
      rate.toFixed(0),
      Math.max(0, ...inside.map((s) => s.workerRssMiB)).toFixed(0),
      Math.max(0, ...inside.map((s) => s.tablesMiB)).toFixed(0),
      String(latencies.length),
      latencies.length ? percentileCont(latencies, 0.5).toFixed(1) : '–',
      Number.isNaN(p99) ? '–' : p99.toFixed(1),
      latencies.length ? Math.max(...latencies).toFixed(1) : '–',
    ]);
    from = until;
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i]!)).join('  ');
  process.stdout.write(`\n${line(header)}\n${rows.map(line).join('\n')}\n`);
  const kept = rates[9]! / rates[0]!;
  const worstP99 = Math.max(...p99s.filter((p) => !Number.isNaN(p)));
  process.stdout.write(
    `\n${total} pages in ${((samples.at(-1)!.at - startedAt) / 1000).toFixed(0)} s; last tenth at ${(kept * 100).toFixed(0)} % ` +
      `of the first's pages/s (target ≥ 80 %: ${kept >= 0.8 ? 'met' : 'NOT met'}); worst status-read p99 ` +
      `${worstP99.toFixed(1)} ms (target < 20 ms: ${worstP99 < 20 ? 'met' : 'NOT met'}); machine: ` +
      `${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length} cores, load average ` +
      `${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
  );
}
