// Scale-out: the same crawl run by 1, 2 and 4 worker processes (`npm run worker`'s entry, src/worker.ts)
// against one PostgreSQL, on a test web that answers after a latency as a remote web does, shaped so that the
// processes are the limit: many hosts, runner jobs spread two per process, per-host politeness on. Prints
// pages/s with the speed-up over one process, the CPU of the workers, of PostgreSQL and of the whole
// machine (a 2-core machine is CPU-bound long before 4 processes, and the table shows where), and checks from
// the test web's log that no URL was fetched twice, nothing robots.txt forbids was fetched, and no two
// requests to a host came closer than the crawl's delay, across processes.
// Args: --processes 1,2,4  --latency-ms 50  --hosts 64  --pages-per-host 60  --delay-ms 100
//       --concurrency-per-runner 32  --queue pg|redis
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { isFinished } from '../src/crawler/vocabulary.js';
import { openRuntime } from '../src/runtime.js';
import type { CrawlCreated, CrawlStatus } from '../src/schemas/crawls.js';
import {
  BENCHMARK_FEATURES,
  countDisallowedRequests,
  countRepeatedRequests,
  scopeOf,
  startTestWeb,
  type TestWeb,
} from '../test/support/testweb/index.js';
import { numberArg, stringArg } from './args.js';
import { benchTrawlConfig, CpuMeter, dropBenchSchemas } from './peers/measure.js';
import { benchWorkerEnv, machineTicks, startWorkers, stopWorkers } from './peers/worker-processes.js';

const TRIAL_TIMEOUT_MS = 15 * 60_000;

interface Trial {
  processes: number;
  runners: number;
  pages: number;
  spanSecs: number;
  workerCpuSecs: number;
  postgresCpuSecs: number;
  machineBusy: number;
  repeated: number;
  disallowed: number;
  /** The smallest gap between two requests to one host (robots.txt included), ms. */
  minHostGapMs: number;
}

function minHostGap(web: TestWeb): number {
  const byHost = new Map<string, number[]>();
  for (const entry of web.log) byHost.set(entry.host, [...(byHost.get(entry.host) ?? []), entry.at]);
  let smallest = Number.POSITIVE_INFINITY;
  for (const times of byHost.values()) {
    times.sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) smallest = Math.min(smallest, times[i]! - times[i - 1]!);
  }
  return smallest;
}

async function trial(
  web: TestWeb,
  processes: number,
  options: { delayMs: number; concurrencyPerRunner: number; redisUrl: string },
): Promise<Trial> {
  const schema = `bench_workers_${randomBytes(4).toString('hex')}`;
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const config = benchTrawlConfig(databaseUrl, options.redisUrl, schema);
  const log = pino({ level: 'error' });
  // the API in this process (no worker of its own): it takes the crawl and answers the status reads
  const runtime = await openRuntime({ ...config, runWorker: false }, log);
  const app = await buildApp({ runtime, logger: log });
  const runners = 2 * processes;
  const { children, ready } = startWorkers(
    processes,
    benchWorkerEnv({ databaseUrl, redisUrl: options.redisUrl, schema }),
  );
  const monitor = new pg.Client({ connectionString: databaseUrl });
  await monitor.connect();
  try {
    await ready;
    const workerCpu = new CpuMeter(() => children.map((child) => child.pid!).filter(Boolean));
    const postgresCpu = new CpuMeter(async () =>
      (
        await monitor.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE application_name LIKE 'trawl-worker:%' OR backend_type = ANY($1)",
          [['checkpointer', 'background writer', 'walwriter', 'autovacuum worker']],
        )
      ).rows.map((row) => row.pid),
    );
    await Promise.all([workerCpu.start(), postgresCpu.start()]);
    const machineBefore = machineTicks();
    web.resetLog();
    const created = await app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: {
        seeds: web.hosts.map((origin) => `${origin}/`),
        scope: scopeOf(web),
        maxPages: 1_000_000,
        workers: runners,
        concurrency: runners * options.concurrencyPerRunner,
        politeness: { delayMs: options.delayMs, maxCrawlDelayMs: options.delayMs, perHostConcurrency: 1 },
        extract: { enabled: false },
      },
    });
    if (created.statusCode !== 202) throw new Error(`crawl refused: ${created.body}`);
    const { id } = created.json<CrawlCreated>();
    const deadline = Date.now() + TRIAL_TIMEOUT_MS;
    let status: CrawlStatus;
    for (;;) {
      status = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json<CrawlStatus>();
      if (isFinished(status.status)) break;
      if (Date.now() > deadline) throw new Error(`crawl still ${status.status} after ${TRIAL_TIMEOUT_MS} ms`);
      await Promise.all([workerCpu.sample(), postgresCpu.sample()]);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await Promise.all([workerCpu.sample(), postgresCpu.sample()]);
    const machineAfter = machineTicks();
    if (status.status !== 'completed') throw new Error(`crawl ${status.status}`);
    const times = web.log.map((entry) => entry.at);
    return {
      processes,
      runners,
      pages: status.pagesFetched,
      spanSecs: (Math.max(...times) - Math.min(...times)) / 1000,
      workerCpuSecs: workerCpu.secs,
      postgresCpuSecs: postgresCpu.secs,
      machineBusy:
        (machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total),
      repeated: countRepeatedRequests(web),
      disallowed: countDisallowedRequests(web, 'trawl'),
      minHostGapMs: minHostGap(web),
    };
  } finally {
    await stopWorkers(children);
    await app.close();
    await runtime.close();
    await dropBenchSchemas(monitor, schema);
    await monitor.end();
  }
}

export async function run(args: string[]): Promise<void> {
  const counts = stringArg(args, '--processes', '1,2,4')
    .split(',')
    .map((value) => Number(value))
    .filter((value) => Number.isSafeInteger(value) && value > 0);
  const latencyMs = numberArg(args, '--latency-ms', 50);
  const hosts = numberArg(args, '--hosts', 64);
  const pagesPerHost = numberArg(args, '--pages-per-host', 60);
  const delayMs = numberArg(args, '--delay-ms', 100);
  const concurrencyPerRunner = numberArg(args, '--concurrency-per-runner', 32);
  const queue = stringArg(args, '--queue', 'pg');
  const redisUrl = queue === 'redis' ? process.env.REDIS_URL || 'redis://127.0.0.1:6379' : '';
  const web = await startTestWeb({
    hosts,
    pagesPerHost,
    latencyMs,
    crawlDelaySeconds: 0,
    features: BENCHMARK_FEATURES,
    seed: 7,
  });
  process.stdout.write(
    `test web: ${hosts} hosts × ${pagesPerHost} pages, every answer after ${latencyMs} ms; crawl: all homes as ` +
      `seeds, politeness ${delayMs} ms per host (1 in flight), 2 runner jobs per worker process, ` +
      `${concurrencyPerRunner} requests in flight per runner, ${queue === 'redis' ? 'Redis' : 'PostgreSQL'} queue, ` +
      `extraction off; machine: ${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length} cores\n`,
  );
  const trials: Trial[] = [];
  try {
    for (const processes of counts) {
      process.stdout.write(`${processes} worker process(es)…\n`);
      trials.push(await trial(web, processes, { delayMs, concurrencyPerRunner, redisUrl }));
    }
  } finally {
    await web.close();
  }
  const base = trials[0] ? trials[0].pages / trials[0].spanSecs : 1;
  const header = [
    'processes',
    'runners',
    'pages',
    'span s',
    'pages/s',
    'speed-up',
    'worker CPU s',
    'pg CPU s',
    'machine busy',
    'repeated',
    'disallowed',
    'min host gap ms',
  ];
  const rows = trials.map((t) => {
    const rate = t.pages / t.spanSecs;
    return [
      String(t.processes),
      String(t.runners),
      String(t.pages),
      t.spanSecs.toFixed(1),
      rate.toFixed(0),
      `${(rate / base).toFixed(2)}×`,
      t.workerCpuSecs.toFixed(1),
      t.postgresCpuSecs.toFixed(1),
      `${(t.machineBusy * 100).toFixed(0)}%`,
      String(t.repeated),
      String(t.disallowed),
      String(t.minHostGapMs),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i]!)).join('  ');
  process.stdout.write(`\n${line(header)}\n${rows.map(line).join('\n')}\n`);
  process.stdout.write(
    '\npages/s = pages requested / first-to-last request in the test web log; machine busy: all cores, the ' +
      'test web and the API (this process) included; min host gap: the closest two requests to one host ' +
      `arrived (target ≥ ${delayMs} ms); repeated: URLs requested twice (target 0).\n`,
  );
  const broken = trials.filter((t) => t.repeated > 0 || t.disallowed > 0 || t.minHostGapMs < delayMs);
  for (const t of broken) {
    process.stdout.write(
      `${t.processes} process(es): NOT met: repeated ${t.repeated}, disallowed ${t.disallowed}, min gap ${t.minHostGapMs} ms\n`,
    );
  }
}
