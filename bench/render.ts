// What rendering costs: a crawl of the test web (realistic profile: 30–120 KB pages with inline scripts and
// styles) with render "always" on a real worker (`src/worker.ts`, a child process) at render concurrency 1, 2
// and 4, beside the same crawl never rendered. Printed per run: pages/s from the first page written to the
// crawl's end, the mean render time, and the worker's RSS summed over its process tree (Chromium's browser,
// renderer, GPU and utility processes included), peak and mean, and its PSS (shared pages counted once),
// sampled every 200 ms. Printed, not asserted.
// Args: --pages N (pages crawled per run, 60), --concurrency N (the crawl's fetches in flight, 8),
// --levels 1,2,4 (render concurrencies).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { processTreeMemory } from '../src/crawler/render/process-memory.js';
import { isFinished } from '../src/crawler/vocabulary.js';
import { WorkersRepository } from '../src/db/workers-repo.js';
import { openRuntime } from '../src/runtime.js';
import type { CrawlCreated } from '../src/schemas/crawls.js';
import { BENCHMARK_FEATURES, startTestWeb } from '../test/support/testweb/index.js';
import { numberArg } from './args.js';
import { dropBenchSchemas } from './peers/measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const MiB = 1024 * 1024;

function startWorker(schema: string, renderConcurrency: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL,
      DB_SCHEMA: schema,
      ALLOW_PRIVATE_NETWORKS: 'true',
      WORKER_CONCURRENCY: '2',
      RENDER_CONCURRENCY: String(renderConcurrency),
      CHROMIUM_PATH: CHROMIUM,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

interface RunFigures {
  label: string;
  pages: number;
  pagesPerSec: number;
  meanRenderMs: number | null;
  peakMiB: number;
  meanMiB: number;
  peakPssMiB: number;
  status: string;
}

export async function run(args: string[]): Promise<void> {
  const pages = numberArg(args, '--pages', 60);
  const concurrency = numberArg(args, '--concurrency', 8);
  const levelsArg = args[args.indexOf('--levels') + 1];
  const levels = args.includes('--levels') && levelsArg ? levelsArg.split(',').map(Number) : [1, 2, 4];

  const web = await startTestWeb({
    seed: 11,
    hosts: 2,
    pagesPerHost: Math.ceil(pages / 2) + 5,
    features: BENCHMARK_FEATURES,
    profile: 'realistic',
  });
  const schema = `bench_render_${randomBytes(5).toString('hex')}`;
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
  const workersTable = new WorkersRepository(runtime.db.pool);
  const figures: RunFigures[] = [];
  let worker: ChildProcess | null = null;
  try {
    await app.ready();
    process.stdout.write(
      `${pages} pages (test web, realistic profile), crawl concurrency ${concurrency}, one worker; ` +
        `RSS = the worker and all its descendants (Chromium's processes)\n`,
    );
    const runs: Array<{ label: string; render: 'never' | 'always'; level: number }> = [
      { label: 'render never', render: 'never', level: 1 },
      ...levels.map((level) => ({
        label: `render always, RENDER_CONCURRENCY ${level}`,
        render: 'always' as const,
        level,
      })),
    ];
    for (const { label, render, level } of runs) {
      worker = startWorker(schema, level);
      const pid = worker.pid!;
      // the worker announces itself (and that it can render) before the crawl is asked for
      const announcedBy = Date.now() + 60_000;
      while (!(await workersTable.anyCanRender())) {
        if (Date.now() > announcedBy) throw new Error('the worker never announced it can render');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const created = await app.inject({
        method: 'POST',
        url: '/v1/crawls',
        payload: {
          seeds: web.seeds,
          maxPages: pages,
          politeness: { delayMs: 0, maxCrawlDelayMs: 0, perHostConcurrency: 8 },
          concurrency,
          workers: 1,
          fetch: { timeoutMs: 30_000, retries: 0 },
          render: { mode: render, timeoutMs: 30_000 },
          extract: { enabled: false },
        },
      });
      if (created.statusCode !== 202)
        throw new Error(`POST /v1/crawls: ${created.statusCode} ${created.body}`);
      const { id } = created.json<CrawlCreated>();
      const samples: number[] = [];
      const pssSamples: number[] = [];
      let status = 'queued';
      for (;;) {
        // the worker and every process descended from it (Chromium's children of children included)
        const memory = await processTreeMemory(pid);
        samples.push((memory?.rssBytes ?? 0) / MiB);
        pssSamples.push((memory?.pssBytes ?? 0) / MiB);
        const row = await monitor.query<{ status: string }>(
          `SELECT status FROM "${schema}".crawls WHERE id = $1`,
          [id],
        );
        status = row.rows[0]?.status ?? 'missing';
        if (isFinished(status)) break;
        if (worker.exitCode !== null) throw new Error(`the worker exited (${worker.exitCode})`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const timing = await monitor.query<{ n: number; span_ms: number; mean_render_ms: number | null }>(
        `SELECT count(*)::int AS n,
                extract(epoch FROM max(fetched_at) - min(fetched_at)) * 1000 AS span_ms,
                avg(render_ms) FILTER (WHERE rendered) AS mean_render_ms
         FROM "${schema}".pages WHERE crawl_id = $1 AND fetched_at IS NOT NULL`,
        [id],
      );
      const t = timing.rows[0]!;
      figures.push({
        label,
        pages: t.n,
        pagesPerSec: t.span_ms > 0 ? ((t.n - 1) * 1000) / t.span_ms : 0,
        meanRenderMs: t.mean_render_ms === null ? null : Number(t.mean_render_ms),
        peakMiB: Math.max(...samples),
        meanMiB: samples.reduce((a, b) => a + b, 0) / samples.length,
        peakPssMiB: Math.max(...pssSamples),
        status,
      });
      const f = figures.at(-1)!;
      process.stdout.write(
        `${label.padEnd(36)} ${f.status} ${String(f.pages).padStart(4)} pages  ${f.pagesPerSec.toFixed(2).padStart(6)} pages/s  ` +
          `render ${f.meanRenderMs === null ? '   -' : f.meanRenderMs.toFixed(0).padStart(4)} ms  ` +
          `RSS peak ${f.peakMiB.toFixed(0).padStart(5)} MiB, mean ${f.meanMiB.toFixed(0).padStart(5)} MiB; ` +
          `PSS peak ${f.peakPssMiB.toFixed(0).padStart(5)} MiB\n`,
      );
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker!.once('exit', resolve));
      worker = null;
      await monitor.query(`DELETE FROM "${schema}".workers`);
    }
    const never = figures[0]!;
    for (const f of figures.slice(1)) {
      process.stdout.write(
        `${f.label}: ${(never.pagesPerSec / Math.max(f.pagesPerSec, 0.001)).toFixed(1)}× slower than never, ` +
          `+${(f.peakMiB - never.peakMiB).toFixed(0)} MiB peak RSS, +${(f.peakPssMiB - never.peakPssMiB).toFixed(0)} MiB peak PSS\n`,
      );
    }
  } finally {
    if (worker && worker.exitCode === null) worker.kill('SIGKILL');
    await app.close();
    await runtime.close();
    await dropBenchSchemas(monitor, schema);
    await monitor.end();
    await web.close();
  }
}
