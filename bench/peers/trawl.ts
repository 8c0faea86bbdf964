// trawl as bench/crawl.ts measures it: API and worker in this child process (so its RSS and CPU are trawl's
// own, not the test web's), a crawl started with POST /v1/crawls and awaited on GET /v1/crawls/:id, on a
// fresh schema dropped afterwards. PostgreSQL's CPU is read from /proc for the backends whose
// application_name is this run's (plus the server's background writers); Redis's for redis-server. With
// `profile`, statements are counted by name and the crawl window is CPU-profiled through the inspector.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../../src/app.js';
import { isFinished } from '../../src/crawler/vocabulary.js';
import { sql } from '../../src/db/sql.js';
import { openRuntime } from '../../src/runtime.js';
import type { CrawlCreated, CrawlStatus } from '../../src/schemas/crawls.js';
import {
  benchTrawlConfig,
  CpuMeter,
  type CrawlChildOptions,
  type CrawlerReport,
  dropBenchSchemas,
  ownUsage,
  pidsNamed,
} from './measure.js';

const POLL_MS = 20;
const SERVER_BACKENDS = ['checkpointer', 'background writer', 'walwriter', 'autovacuum worker'];

/**
 * Counts and times every statement sent through pg (trawl's pool and BullMQ's PostgreSQL backend), by the
 * src/db/sql/<name>.sql it came from or else its first words: the "statements per page" evidence.
 */
export function countStatements(): () => Record<string, { count: number; ms: number }> {
  const names = new Map<string, string>();
  const sqlDir = fileURLToPath(new URL('../../src/db/sql/', import.meta.url));
  for (const file of readdirSync(sqlDir)) {
    if (file.endsWith('.sql')) names.set(readFileSync(join(sqlDir, file), 'utf8'), file.slice(0, -4));
  }
  const stats: Record<string, { count: number; ms: number }> = {};
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : ((first as { text?: string } | null)?.text ?? '?');
    const name = names.get(text) ?? text.replace(/\s+/g, ' ').trim().slice(0, 60);
    const entry = stats[name] ?? { count: 0, ms: 0 };
    stats[name] = entry;
    entry.count++;
    const startedMs = performance.now();
    const done = () => {
      entry.ms += performance.now() - startedMs;
    };
    // pg.Pool#query passes a callback (and gets no promise back); a checked-out client returns a promise.
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      args[args.length - 1] = (...callbackArgs: unknown[]) => {
        done();
        return (last as (...a: unknown[]) => unknown)(...callbackArgs);
      };
    }
    const result = original.apply(this, args);
    if (typeof last !== 'function' && result && typeof (result as Promise<unknown>).finally === 'function') {
      (result as Promise<unknown>).finally(done).catch(() => {});
    }
    return result;
  };
  return () => stats;
}

/**
 * The text job a finished crawl queues (main text and word counts of every stored page) runs in this process's
 * worker after the crawl window: awaited here until no stored page waits for it, its CPU and PostgreSQL's over
 * that time reported apart, since a crawl's stored text costs this too.
 */
async function measureTextJob(
  monitor: pg.Client,
  schema: string,
  crawlId: string,
  postgresCpu: CpuMeter,
): Promise<{ ms: number; cpuSecs: number; serverCpuSecs: number }> {
  const startedMs = performance.now();
  const cpuBefore = ownUsage().cpuSecs;
  await postgresCpu.sample();
  const serverBefore = postgresCpu.secs;
  // the text job's own count of pages still waiting (stats_text_progress.sql), asked on the monitor's
  // connection so that polling is not counted as trawl's PostgreSQL CPU
  await monitor.query(`SET search_path = "${schema}"`);
  for (;;) {
    const pending = await monitor.query<{ pending_pages: number }>(sql('stats_text_progress'), [crawlId]);
    if ((pending.rows[0]?.pending_pages ?? 0) === 0) break;
    await postgresCpu.sample();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await postgresCpu.sample();
  return {
    ms: performance.now() - startedMs,
    cpuSecs: ownUsage().cpuSecs - cpuBefore,
    serverCpuSecs: postgresCpu.secs - serverBefore,
  };
}

export async function crawlWithTrawl(options: CrawlChildOptions): Promise<CrawlerReport> {
  const statements = options.profile ? countStatements() : null;
  const tag = randomBytes(5).toString('hex');
  const schema = `bench_${tag}`;
  const applicationName = `trawl_bench_${tag}`;
  const baseUrl = options.databaseUrl ?? 'postgres://postgres@127.0.0.1:5432/test';
  const databaseUrl = `${baseUrl}${baseUrl.includes('?') ? '&' : '?'}application_name=${applicationName}`;
  const config = benchTrawlConfig(databaseUrl, options.redisUrl ?? '', schema);
  const log = pino({ level: config.logLevel }, pino.destination(2));
  const monitor = new pg.Client({ connectionString: baseUrl });
  await monitor.connect();
  const runtime = await openRuntime(config, log);
  try {
    runtime.startWorker();
    const app = await buildApp({ runtime, logger: log });
    try {
      await app.ready();
      const postgresCpu = new CpuMeter(async () => {
        const result = await monitor.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE application_name = $1 OR backend_type = ANY($2)',
          [applicationName, SERVER_BACKENDS],
        );
        return result.rows.map((row) => row.pid);
      });
      const redisCpu = options.redisUrl ? new CpuMeter(() => pidsNamed('redis-server')) : null;
      await postgresCpu.start();
      await redisCpu?.start();
      const profiler = options.cpuProfilePath ? new Session() : null;
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
      }
      const cpuBefore = ownUsage().cpuSecs;
      const startedMs = performance.now();

      const created = await app.inject({
        method: 'POST',
        url: '/v1/crawls',
        payload: {
          seeds: options.seeds,
          maxPages: options.maxPages,
          // maxDepth left out: unlimited by default (an explicit `null` means the same; bodies are not coerced).
          scope: { allowedDomains: options.origins.map((origin) => new URL(origin).host) },
          // perHostConcurrency at its maximum: the peers have no per-host cap below the crawl's concurrency.
          politeness: { delayMs: 0, maxCrawlDelayMs: 0, perHostConcurrency: 16, respectRobots: true },
          concurrency: options.concurrency,
          workers: options.workers ?? 2,
          fetch: { timeoutMs: 30_000, retries: 2 },
          store: { html: true },
        },
      });
      if (created.statusCode !== 202)
        throw new Error(`POST /v1/crawls: ${created.statusCode} ${created.body}`);
      const { id } = created.json<CrawlCreated>();
      // Completion is watched on the crawls row itself: GET /v1/crawls/:id aggregates over every page and
      // link of the crawl, and polling it every few milliseconds would load PostgreSQL more than the crawl.
      let lastSampleMs = 0;
      for (;;) {
        const row = await monitor.query<{ status: string }>(
          `SELECT status FROM "${schema}".crawls WHERE id = $1`,
          [id],
        );
        if (isFinished(row.rows[0]?.status ?? '')) break;
        if (performance.now() - lastSampleMs > 500) {
          lastSampleMs = performance.now();
          await postgresCpu.sample();
          await redisCpu?.sample();
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      const crawlMs = performance.now() - startedMs;
      const cpuSecs = ownUsage().cpuSecs - cpuBefore;
      if (profiler && options.cpuProfilePath) {
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(options.cpuProfilePath, JSON.stringify(profile));
        profiler.disconnect();
      }
      await postgresCpu.sample();
      await redisCpu?.sample();
      const status = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json<CrawlStatus>();
      if (status.status !== 'completed') throw new Error(`crawl ended ${status.status}: ${status.error}`);
      // the crawl's own figures, taken before the text job adds to them
      const serverCpuSecs: Record<string, number> = { postgres: postgresCpu.secs };
      if (redisCpu) serverCpuSecs.redis = redisCpu.secs;
      const { peakRssMiB } = ownUsage();
      const textJob = await measureTextJob(monitor, schema, id, postgresCpu);
      // What the stored bodies cost on disk (heap, TOAST and indexes), the figure a body format is chosen by.
      const stored = await monitor.query<{ contents: string; responses: string }>(
        `SELECT pg_total_relation_size('"${schema}".page_contents') AS contents,
                pg_total_relation_size('"${schema}".page_responses') AS responses`,
      );
      const mib = (bytes: string | undefined) => (Number(bytes ?? 0) / 2 ** 20).toFixed(1);
      return {
        crawlMs,
        cpuSecs,
        peakRssMiB,
        serverCpuSecs,
        notes:
          `pagesFetched ${status.pagesFetched}, counts ${JSON.stringify(status.counts)}, bodies on disk: ` +
          `page_contents ${mib(stored.rows[0]?.contents)} MiB, page_responses ${mib(stored.rows[0]?.responses)} MiB`,
        textJob,
        ...(statements ? { statements: statements() } : {}),
      };
    } finally {
      await app.close();
    }
  } finally {
    await runtime.close();
    await dropBenchSchemas(monitor, schema);
    await monitor.end();
  }
}

// Forked by bench/crawl.ts with the options as JSON; answers with one IPC message.
if (process.argv[2] === '--child' && process.send) {
  const options = JSON.parse(process.argv[3] ?? '{}') as CrawlChildOptions;
  crawlWithTrawl(options).then(
    (report) => process.send?.({ report }, () => process.exit(0)),
    (error: unknown) =>
      process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () =>
        process.exit(1),
      ),
  );
}
