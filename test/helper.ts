// build(t): the app the server runs, on a fresh database schema (and job namespace) of its own, closed and
// dropped on teardown. DATABASE_URL (default: the local test database) and REDIS_URL pick the backends.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, type TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { type CrawlStatusName, isFinished } from '../src/crawler/vocabulary.js';
import { openRuntime, type Runtime } from '../src/runtime.js';
import type { PageListItem } from '../src/schemas/crawls.js';
import { eventually } from './support/eventually.js';

export { eventually } from './support/eventually.js';

export const TEST_DATABASE_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL ?? '',
    DB_SCHEMA: `t_${randomBytes(5).toString('hex')}`,
    ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    LEASE_SECS: '10',
    JOB_LOCK_MS: '5000',
    WORKER_CONCURRENCY: '8',
    // a test's teardown should not wait out production's grace for fetches still in flight
    SHUTDOWN_GRACE_MS: '500',
    ...overrides,
  });
}

/**
 * Removes the Redis keys of a test namespace (BullMQ queues, rate-limit counters: all under `<schema>:`), so
 * runs on the Redis backend leave nothing behind. SCAN + UNLINK: never KEYS, never the keys of other runs.
 */
async function dropRedisKeys(namespace: string): Promise<void> {
  if (!process.env.REDIS_URL) return;
  const redis = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Drops a test schema and its job namespace (in PostgreSQL, or on Redis when REDIS_URL is set). A connection that outlived its runtime by a moment (a queue
 * client's last poll) can make DROP ... CASCADE deadlock, so that error is retried a few times.
 */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    for (const name of [schema, `${schema}_bullmq`]) {
      for (let attempt = 1; ; attempt++) {
        try {
          await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
          break;
        } catch (error) {
          if ((error as { code?: string }).code !== '40P01' || attempt === 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        }
      }
    }
  } finally {
    await client.end();
  }
  await dropRedisKeys(schema);
}

// Tests that start two runtimes on one schema (an API and a separate worker) must drop it only after the
// last of them has closed; otherwise the drop races the other runtime's queries.
const runtimesOnSchema = new Map<string, number>();

export interface Built {
  app: FastifyInstance;
  runtime: Runtime;
  config: Config;
}

export interface BuildOptions {
  worker?: boolean;
  env?: Record<string, string>;
}

/** Opens the app and its runtime; `close` closes both and drops the schema once its last runtime is closed. */
async function open(options: BuildOptions): Promise<{ built: Built; close: () => Promise<void> }> {
  const config = testConfig(options.env);
  const log = pino({ level: config.logLevel });
  const runtime = await openRuntime(config, log);
  if (options.worker ?? true) runtime.startWorker();
  const app = await buildApp({ runtime, logger: log });
  runtimesOnSchema.set(config.dbSchema, (runtimesOnSchema.get(config.dbSchema) ?? 0) + 1);
  const close = async () => {
    try {
      await app.close();
      await runtime.close();
    } finally {
      const left = (runtimesOnSchema.get(config.dbSchema) ?? 1) - 1;
      if (left > 0) runtimesOnSchema.set(config.dbSchema, left);
      else {
        runtimesOnSchema.delete(config.dbSchema);
        await dropSchema(config.dbSchema);
      }
    }
  };
  return { built: { app, runtime, config }, close };
}

/** The app for one test, closed when that test ends. */
export async function build(t: TestContext, options: BuildOptions = {}): Promise<Built> {
  const { built, close } = await open(options);
  t.after(close);
  return built;
}

/**
 * One app for all the tests of a file that isolate themselves by their own ids (crawl, ranking, key): built in
 * the file's `before`, closed in its `after`. Call it at the top of the file; its fields are there once `before`
 * has run, so read them inside a test. Tests that need their own environment keep build(t).
 */
export function buildShared(options: BuildOptions = {}): Built {
  const shared = {} as Built;
  let close: (() => Promise<void>) | undefined;
  before(async () => {
    const opened = await open(options);
    Object.assign(shared, opened.built);
    close = opened.close;
  });
  after(async () => {
    await close?.();
  });
  return shared;
}

/** Every page of a crawl's list, following its `next` links; `query` (e.g. `&result=true`) narrows it. */
export async function allPages(app: FastifyInstance, id: string, query = ''): Promise<PageListItem[]> {
  const items: PageListItem[] = [];
  let next: string | null = `/v1/crawls/${id}/pages?limit=200${query}`;
  while (next) {
    // typed here: inferred, it would depend on `next`, which this loop assigns from it
    const response: { statusCode: number; body: string; json(): unknown } = await app.inject({
      method: 'GET',
      url: next,
    });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json() as { items: PageListItem[]; next: string | null };
    items.push(...body.items);
    next = body.next;
  }
  return items;
}

/** Polls GET /v1/crawls/:id until the crawl ends (or `timeoutMs` passes, which fails the test). */
export async function waitForCrawl(
  app: FastifyInstance,
  id: string,
  timeoutMs = 60_000,
): Promise<Record<string, unknown> & { status: string }> {
  return eventually(
    async () => {
      const body = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json();
      if (!isFinished(body.status)) {
        throw new Error(`still ${body.status} (${body.pagesFetched} pages fetched)`);
      }
      return body;
    },
    { message: `crawl ${id} to end`, timeoutMs, intervalMs: 100 },
  );
}

/** POSTs a crawl request to /v1/crawls and returns the new crawl's id; any answer but 202 fails with its body. */
export async function startCrawl(app: FastifyInstance, request: object): Promise<string> {
  const created = await app.inject({ method: 'POST', url: '/v1/crawls', payload: request });
  assert.equal(created.statusCode, 202, `POST /v1/crawls answered ${created.statusCode}: ${created.body}`);
  return (created.json() as { id: string }).id;
}

/**
 * Starts a crawl, waits for it to end and checks that it ended `expect` (completed unless told); returns its final
 * status (GET /v1/crawls/:id). A crawl that ends otherwise fails with that status in the message.
 */
export async function crawlToEnd(
  app: FastifyInstance,
  request: object,
  options: { expect?: CrawlStatusName; timeoutMs?: number } = {},
): Promise<Record<string, unknown> & { id: string; status: string }> {
  const id = await startCrawl(app, request);
  const status = await waitForCrawl(app, id, options.timeoutMs);
  const expected = options.expect ?? 'completed';
  assert.equal(status.status, expected, `crawl ${id} ended ${status.status}: ${JSON.stringify(status)}`);
  return status as typeof status & { id: string };
}

/**
 * Waits until the crawl's text job has counted every stored page (GET …/stats/words says `complete`): the job
 * runs after the crawl ends and writes each page's main text, simhash and near-duplicate mark, so a test that
 * reads those, or rewrites page rows, waits for it first.
 */
export async function textJobDone(app: FastifyInstance, crawlId: string, timeoutMs = 120_000): Promise<void> {
  await eventually(
    async () => {
      const stats = await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}/stats/words` });
      if (stats.statusCode !== 200 || stats.json().complete !== true) throw new Error(stats.body);
      return true;
    },
    { message: `the text job of crawl ${crawlId}`, timeoutMs },
  );
}

/**
 * Polls GET /readyz until it is a 200 and returns its body. A runtime just built may still be connecting to its
 * queue backend, and /readyz gives a dependency 2 s before it answers 503: on a loaded machine (CI runs two test
 * files at once) the first probe can come back 503, as a readiness probe's may, and be 200 the next time.
 */
export async function waitUntilReady(
  app: FastifyInstance,
  timeoutMs = 30_000,
): Promise<Record<string, unknown>> {
  return eventually(
    async () => {
      const response = await app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as Record<string, unknown>;
    },
    { message: '/readyz to answer 200', timeoutMs, intervalMs: 200 },
  );
}
