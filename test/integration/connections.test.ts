// PostgreSQL connections per process: one pool shared by trawl's statements and BullMQ's, plus one LISTEN
// connection, so a process holds at most DB_POOL_SIZE + 1 (docs/operations.md, Scaling). Counted in pg_stat_activity
// by application_name (`trawl-<role>:<pid>`), while an API and two workers run a crawl, and with eight
// workers started at once. And a connection the server ends while it is checked out (a pooled one, a queue's
// own) does not take the process with it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../../src/app.js';
import { openDatabase } from '../../src/db/database.js';
import { openDedicatedClient } from '../../src/jobs/queues.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import {
  dropSchema,
  eventually,
  startCrawl,
  TEST_DATABASE_URL,
  testConfig,
  waitForCrawl,
} from '../helper.js';
import { BENCHMARK_FEATURES, crawlRequestFor, startTestWeb } from '../support/testweb/index.js';

const POOL_SIZE = 4;
/** The formula docs/operations.md documents: the pool, plus the one LISTEN connection. */
const MAX_PER_PROCESS = POOL_SIZE + 1;

/** Connections to the test database per application_name, for the given names. */
async function connectionsOf(client: pg.Client, names: string[]): Promise<Map<string, number>> {
  const { rows } = await client.query<{ name: string; n: number }>(
    `SELECT application_name AS name, count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = ANY($1) GROUP BY application_name`,
    [names],
  );
  return new Map(rows.map((row) => [row.name, row.n]));
}

function nameOf(runtime: Runtime): string {
  return String(runtime.db.clientConfig.application_name);
}

async function observer(t: { after(fn: () => Promise<void>): void }): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  t.after(() => client.end());
  return client;
}

test('an API and two workers running a crawl hold at most DB_POOL_SIZE + 1 connections each', {
  timeout: 120_000,
}, async (t) => {
  const web = await startTestWeb({ seed: 7, hosts: 4, pagesPerHost: 40, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const config = testConfig({ DB_POOL_SIZE: String(POOL_SIZE), WORKER_CONCURRENCY: '4' });
  const log = pino({ level: config.logLevel });
  const api = await openRuntime(config, log, { role: 'api' });
  const workers = [
    await openRuntime(config, log, { role: 'worker' }),
    await openRuntime(config, log, { role: 'worker' }),
  ];
  const app = await buildApp({ runtime: api, logger: log });
  t.after(async () => {
    await app.close();
    for (const runtime of [api, ...workers]) await runtime.close();
    await dropSchema(config.dbSchema);
  });
  for (const worker of workers) worker.startWorker();
  const names = [api, ...workers].map(nameOf);
  assert.equal(new Set(names).size, 3, `each runtime has a name of its own: ${names.join(', ')}`);
  assert.match(names[0]!, /^trawl-api:\d+/);
  assert.match(names[1]!, /^trawl-worker:\d+/);

  const id = await startCrawl(app, crawlRequestFor(web, { maxPages: 160, workers: 4, concurrency: 16 }));
  // a live stream on the API makes it LISTEN too
  const stream = app.inject({ method: 'GET', url: `/v1/crawls/${id}/events` });

  const client = await observer(t);
  const most = new Map<string, number>();
  let ended = false;
  const done = waitForCrawl(app, id, 90_000).finally(() => {
    ended = true;
  });
  while (!ended) {
    for (const [name, n] of await connectionsOf(client, names))
      most.set(name, Math.max(most.get(name) ?? 0, n));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const status = await done;
  await stream;
  assert.equal(status.status, 'completed');
  assert.ok((status.pagesFetched as number) > 50, `the crawl fetched ${status.pagesFetched} pages`);
  t.diagnostic(`most connections seen: ${JSON.stringify(Object.fromEntries(most))}`);
  for (const name of names) {
    const n = most.get(name) ?? 0;
    assert.ok(n > 0, `${name} was seen in pg_stat_activity`);
    assert.ok(n <= MAX_PER_PROCESS, `${name} held ${n} connections, more than ${MAX_PER_PROCESS}`);
  }
  // both workers ran runners: the bound held under load, not idle
  assert.ok((most.get(names[1]!) ?? 0) >= 2 && (most.get(names[2]!) ?? 0) >= 2, JSON.stringify([...most]));
});

test('eight workers and an API start against one database within the formula', {
  timeout: 120_000,
}, async (t) => {
  // the default pool size: eight workers and an API need at most 9 × 9 = 81 of a default PostgreSQL's 100
  const config = testConfig({ WORKER_CONCURRENCY: '4' });
  const log = pino({ level: config.logLevel });
  const runtimes = await Promise.all([
    openRuntime(config, log, { role: 'api' }),
    ...Array.from({ length: 8 }, () => openRuntime(config, log, { role: 'worker' })),
  ]);
  t.after(async () => {
    await Promise.all(runtimes.map((runtime) => runtime.close()));
    await dropSchema(config.dbSchema);
  });
  const workers = runtimes.slice(1);
  for (const worker of workers) worker.startWorker();
  const client = await observer(t);
  const names = runtimes.map(nameOf);
  let counts = new Map<string, number>();
  const deadline = Date.now() + 60_000;
  // each worker's LISTEN connection shows up once it waits for jobs
  while (Date.now() < deadline) {
    counts = await connectionsOf(client, names);
    if (names.slice(1).every((name) => (counts.get(name) ?? 0) >= 1)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  t.diagnostic(`connections: ${total} in all, ${JSON.stringify(Object.fromEntries(counts))}`);
  for (const name of names.slice(1)) assert.ok((counts.get(name) ?? 0) >= 1, `${name} connected`);
  for (const [name, n] of counts) assert.ok(n <= 8 + 1, `${name} holds ${n} connections`);
  assert.ok(total <= 9 * (8 + 1), `${total} connections in all`);
  // and they all answer: the queue works with every worker up
  for (const runtime of runtimes) await runtime.jobs.ping();
});

/**
 * Ends the server side of `client`'s connection while it runs no statement, and waits until the client refuses
 * statements; answers how many connections were ended. The server's word arrives as an error event with no
 * statement running: an unheard one would end this process, and the test would fail as an uncaught exception.
 * Only this connection is ended, by its backend's pid: ending every connection of the application would also
 * end the pool's idle ones, and the pool may hand one out before it has heard that the server ended it.
 */
async function endWhileIdle(client: { query(text: string): Promise<unknown> }) {
  const { rows } = (await client.query('SELECT pg_backend_pid() AS pid')) as { rows: Array<{ pid: number }> };
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  const ended = await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
  await admin.end();
  // The server's own error (57P01, "terminating connection due to administrator command") can answer a
  // statement before the socket closes; only once it has closed does the client know it is done for, and a
  // pool drop it when it is released.
  await eventually(
    async () => {
      await assert.rejects(client.query('SELECT 1'), (error: { code?: string }) => error.code !== '57P01');
      return true;
    },
    { message: 'the ended connection to refuse statements', timeoutMs: 10_000 },
  );
  return ended.rowCount;
}

test('a queue connection the server ends between statements does not crash the process; its next statement fails', async () => {
  const name = `trawl-test-dedicated:${process.pid}`;
  const client = await openDedicatedClient({ connectionString: TEST_DATABASE_URL, application_name: name });
  await client.query('SELECT 1');
  assert.equal(await endWhileIdle(client), 1);
  client.release();
});

test('a pooled connection the server ends while it is checked out does not crash the process; the pool goes on', async (t) => {
  const config = { ...testConfig(), applicationName: `trawl-test-pooled:${process.pid}` };
  const db = await openDatabase(config, () => {});
  t.after(async () => {
    await db.close();
    await dropSchema(config.dbSchema);
  });
  // checked out, it has no listener of pg-pool's
  const client = await db.pool.connect();
  await client.query('SELECT 1');
  await endWhileIdle(client);
  client.release();
  assert.deepEqual((await db.pool.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
});
