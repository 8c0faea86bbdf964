// The API's event loop under heavy /v1/score and /v1/extract requests: the API (a child process of its own, so
// its event loop is measured alone) takes a 5 MB document scored with a 2 KB keyword query full of phrases and
// a 5 MB page extracted, over and over, while /healthz and GET /v1/crawls/:id are polled. Printed per run: the
// API's event-loop delay (perf_hooks.monitorEventLoopDelay: p50/p99/max) and the polls' latency (p50/p99/max),
// with the CPU pool (CPU_POOL_THREADS default) and with the pool disabled (0: all inline), in the same run.
// Then the inline limit's evidence: tasks of 8 to 64 KiB inline against their round trip through a thread.
// Args: --seconds N (load per run, default 20), --database-url URL, --cpu-prof DIR (the API's threads write
// .cpuprofile files there: where the event loop's time goes).
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { openRuntime } from '../src/runtime.js';
import type { CrawlCreated } from '../src/schemas/crawls.js';
import { CpuPool, INLINE_MAX_CHARS } from '../src/services/pools/cpu-pool.js';
import { type CpuTaskName, type CpuTasks, runTask } from '../src/services/pools/cpu-tasks.js';
import { dropSchema } from '../test/helper.js';
import { Rng } from '../test/support/testweb/random.js';
import { numberArg, stringArg } from './args.js';
import { benchTrawlConfig } from './peers/measure.js';

const HEALTH_POLL_MS = 20;
const STATUS_POLL_MS = 50;
const TARGET_P99_MS = 50;

interface Ready {
  port: number;
  crawlId: string;
}
interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  /** Event-loop utilization: the share of the time the API's main thread was busy (not waiting for I/O). */
  utilization: number;
}

// ------------------------------------------------------------------ child: the API

async function serve(threads: string, databaseUrl: string): Promise<void> {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const defaults = benchTrawlConfig(databaseUrl, '', schema);
  const config = threads === 'default' ? defaults : { ...defaults, cpuPoolThreads: Number(threads) };
  const log = pino({ level: config.logLevel }, pino.destination(2));
  const runtime = await openRuntime(config, log);
  const app = await buildApp({ runtime, logger: log });
  await app.listen({ port: 0, host: '127.0.0.1' });
  // A crawl to read the status of; no worker runs here, so it stays queued and costs nothing.
  const created = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { seeds: ['http://127.0.0.1:9/'], maxPages: 1 },
  });
  if (created.statusCode !== 202) throw new Error(`POST /v1/crawls: ${created.statusCode} ${created.body}`);
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let utilizationFrom = performance.eventLoopUtilization();
  process.on('message', (message: string) => {
    if (message === 'start') {
      histogram.reset();
      utilizationFrom = performance.eventLoopUtilization();
    }
    if (message === 'stop') {
      const ms = (ns: number) => ns / 1e6;
      const delay: LoopDelay = {
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
        utilization: performance.eventLoopUtilization(utilizationFrom).utilization,
      };
      void (async () => {
        await app.close();
        await runtime.close();
        await dropSchema(schema);
        process.send?.(delay, () => process.exit(0));
      })();
    }
  });
  const ready: Ready = {
    port: (app.server.address() as AddressInfo).port,
    crawlId: created.json<CrawlCreated>().id,
  };
  process.send?.(ready);
}

// ------------------------------------------------------------------ parent: the load and the polls

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const fixed = (n: number) => (Number.isFinite(n) ? n.toFixed(1).padStart(7) : '      -');

function workload(): { score: string; extract: string } {
  const rng = new Rng(2026);
  const sentences: string[] = [];
  for (let length = 0; length < 5_000_000; ) {
    const sentence = `${rng.words(rng.between(6, 16)).join(' ')}.`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  const text = sentences.join(' ').slice(0, 5_000_000);
  let query = '';
  while (query.length < 1950) query += `"${rng.words(rng.between(2, 4)).join(' ')}" ${rng.words(1)[0]} `;
  const paragraphs = sentences.map((sentence, i) =>
    i % 20 === 0 ? `<nav><a href="/n${i}">${sentence}</a></nav>` : `<p>${sentence}</p>`,
  );
  let html = '<!doctype html><html><head><title>Bench</title></head><body><div class="content">';
  for (const paragraph of paragraphs) {
    if (html.length + paragraph.length > 5_000_000 - 30) break;
    html += paragraph;
  }
  html += '</div></body></html>';
  return {
    score: JSON.stringify({ query: query.trim().slice(0, 2000), documents: [{ text }] }),
    extract: JSON.stringify({ html }),
  };
}

interface RunResult {
  label: string;
  delay: LoopDelay;
  health: number[];
  status: number[];
  score: { ms: number[]; failures: number };
  extract: { ms: number[]; failures: number };
}

async function startApi(threads: string, databaseUrl: string, profileDir: string | null) {
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const child = fork(fileURLToPath(import.meta.url), ['--child', threads, databaseUrl], {
    execArgv: ['--import', 'tsx', ...profile],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Ready));
    child.once('exit', (code) => reject(new Error(`the API exited with ${code} before it was ready`)));
  });
  const stop = () =>
    new Promise<LoopDelay>((resolve) => {
      child.once('message', (message) => resolve(message as LoopDelay));
      child.send('stop');
    });
  return { child, ready, stop };
}

async function measureRun(
  label: string,
  threads: string,
  databaseUrl: string,
  seconds: number,
  bodies: { score: string; extract: string },
  profileDir: string | null,
): Promise<RunResult> {
  const { child, ready, stop } = await startApi(threads, databaseUrl, profileDir);
  const base = `http://127.0.0.1:${ready.port}`;
  try {
    // one of each first, untimed: a cold thread pool starts its threads here
    for (const [path, body] of [
      ['/v1/score', bodies.score],
      ['/v1/extract', bodies.extract],
    ] as const) {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    }
    child.send('start');
    const endAt = performance.now() + seconds * 1000;
    const result: RunResult = {
      label,
      delay: { p50: 0, p99: 0, max: 0, utilization: 0 },
      health: [],
      status: [],
      score: { ms: [], failures: 0 },
      extract: { ms: [], failures: 0 },
    };
    const heavy = async (path: string, body: string, into: { ms: number[]; failures: number }) => {
      while (performance.now() < endAt) {
        const startedMs = performance.now();
        const response = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await response.arrayBuffer();
        if (response.status === 200) into.ms.push(performance.now() - startedMs);
        else into.failures++;
      }
    };
    const poll = async (path: string, everyMs: number, into: number[]) => {
      while (performance.now() < endAt) {
        const startedMs = performance.now();
        const response = await fetch(`${base}${path}`);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
        into.push(performance.now() - startedMs);
        await sleep(everyMs);
      }
    };
    await Promise.all([
      heavy('/v1/score', bodies.score, result.score),
      heavy('/v1/extract', bodies.extract, result.extract),
      poll('/healthz', HEALTH_POLL_MS, result.health),
      poll(`/v1/crawls/${ready.crawlId}`, STATUS_POLL_MS, result.status),
    ]);
    result.delay = await stop();
    return result;
  } catch (error) {
    child.kill();
    throw error;
  }
}

/**
 * Median ms of `runs` calls: wall-clock, or CPU time of this process (inline work, while the pool's thread
 * idles: what the event loop is held for, whatever else the machine is busy with).
 */
async function medianMs(runs: number, call: () => unknown, clock: 'wall' | 'cpu'): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const startedMs = performance.now();
    const startedCpu = process.cpuUsage();
    await call();
    const cpu = process.cpuUsage(startedCpu);
    times.push(clock === 'cpu' ? (cpu.user + cpu.system) / 1000 : performance.now() - startedMs);
  }
  return quantile(times, 0.5);
}

/** Tasks of 8 to 64 KiB characters inline against their round trip through a (started) thread. */
async function inlineLimit(): Promise<string[]> {
  const pool = new CpuPool({ threads: 1, timeoutMs: 60_000, inlineMaxChars: 0 });
  const query = 'river "quiet morning" (castle meadow)';
  const lines: string[] = [];
  try {
    for (const kib of [8, 16, 32, 64]) {
      const rng = new Rng(kib);
      let html = '<html><head><title>t</title></head><body>';
      while (html.length < kib * 1024 - 20) html += `<p>${rng.words(12).join(' ')}.</p>`;
      html += '</body></html>';
      const text = html.replace(/<[^>]+>/g, ' ');
      const tasks: Array<{ label: string; name: CpuTaskName; input: Parameters<CpuTasks[CpuTaskName]>[0] }> =
        [
          { label: 'extract', name: 'extract', input: { html, options: {} } },
          {
            label: 'score html',
            name: 'score',
            input: { userAgent: 'trawl', scorer: { query }, documents: [{ html, url: 'https://ex.org/' }] },
          },
          {
            label: 'score text',
            name: 'score',
            input: { userAgent: 'trawl', scorer: { query }, documents: [{ text }] },
          },
        ];
      const cells: string[] = [];
      for (const { label, name, input } of tasks) {
        // warm both ways first: the thread started, the code compiled on both sides
        for (let i = 0; i < 3; i++) {
          runTask({ name, input });
          await pool.run(name, input, 'x');
        }
        const inline = await medianMs(15, () => runTask({ name, input }), 'cpu');
        const threaded = await medianMs(15, () => pool.run(name, input, 'x'), 'wall');
        cells.push(`${label} ${inline.toFixed(1)} / ${threaded.toFixed(1)}`);
      }
      lines.push(`  ${String(kib).padStart(2)} KiB: ${cells.join(' | ')}`);
    }
  } finally {
    await pool.close();
  }
  return lines;
}

export async function run(args: string[]): Promise<void> {
  const seconds = numberArg(args, '--seconds', 20);
  const databaseUrl = stringArg(
    args,
    '--database-url',
    process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  );
  const profileDir = args.includes('--cpu-prof') ? stringArg(args, '--cpu-prof', '') || null : null;
  const bodies = workload();
  process.stdout.write(
    `load: /v1/score (5 MB text, ${JSON.parse(bodies.score).query.length}-char query) and /v1/extract (5 MB HTML), one of each in flight, ${seconds} s per run; /healthz every ${HEALTH_POLL_MS} ms, GET /v1/crawls/:id every ${STATUS_POLL_MS} ms\n`,
  );
  const runs: RunResult[] = [];
  for (const [label, threads] of [
    ['pool (CPU_POOL_THREADS default)', 'default'],
    ['inline (CPU_POOL_THREADS=0)', '0'],
  ] as const) {
    runs.push(await measureRun(label, threads, databaseUrl, seconds, bodies, profileDir));
  }
  process.stdout.write(
    `\n${'run'.padEnd(32)} ${'loop p50'.padStart(8)} ${'p99'.padStart(7)} ${'max'.padStart(7)} ${'busy'.padStart(5)} | ${'healthz p50'.padStart(11)} ${'p99'.padStart(7)} ${'max'.padStart(7)} | ${'status p50'.padStart(10)} ${'p99'.padStart(7)} | score n, ms | extract n, ms\n`,
  );
  for (const r of runs) {
    process.stdout.write(
      `${r.label.padEnd(32)} ${fixed(r.delay.p50).padStart(8)} ${fixed(r.delay.p99)} ${fixed(r.delay.max)} ${`${Math.round(r.delay.utilization * 100)}%`.padStart(5)} | ${fixed(quantile(r.health, 0.5)).padStart(11)} ${fixed(quantile(r.health, 0.99))} ${fixed(Math.max(...r.health))} | ${fixed(quantile(r.status, 0.5)).padStart(10)} ${fixed(quantile(r.status, 0.99))} | ${r.score.ms.length}${r.score.failures ? ` (+${r.score.failures} failed)` : ''}, ${fixed(quantile(r.score.ms, 0.5))} | ${r.extract.ms.length}${r.extract.failures ? ` (+${r.extract.failures} failed)` : ''}, ${fixed(quantile(r.extract.ms, 0.5))}\n`,
    );
  }
  const [pooled, inline] = runs as [RunResult, RunResult];
  process.stdout.write(
    `all figures in ms; target: /healthz p99 < ${TARGET_P99_MS} ms while such requests run → pool ${quantile(pooled.health, 0.99) < TARGET_P99_MS ? 'met' : 'missed'}; /healthz p99 inline ÷ pool: ${(quantile(inline.health, 0.99) / quantile(pooled.health, 0.99)).toFixed(1)}×\n`,
  );
  process.stdout.write(
    `\ninline limit (now ${INLINE_MAX_CHARS / 1024} KiB): ms inline (CPU time: the event loop is held for it) / via a thread (wall-clock round trip), median of 15\n`,
  );
  for (const line of await inlineLimit()) process.stdout.write(`${line}\n`);
}

if (process.argv[2] === '--child' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  serve(process.argv[3] ?? 'default', process.argv[4] ?? '').catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
    process.exit(1);
  });
}
