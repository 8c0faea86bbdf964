// What a client sees while PostgreSQL or Redis is down (docs/operations.md, Outages): /readyz is a 503 within seconds,
// /v1 a 503 problem with Retry-After, POST /v1/crawls creates nothing it cannot queue, the log writes a
// line per dependency every few seconds; and a crawl left queued without runner jobs is picked up later.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { type TestContext, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../../src/app.js';
import { CRAWL_QUEUE } from '../../src/jobs/queues.js';
import { openRuntime } from '../../src/runtime.js';
import {
  build,
  crawlToEnd,
  dropSchema,
  eventually,
  startCrawl,
  TEST_DATABASE_URL,
  testConfig,
  waitForCrawl,
} from '../helper.js';
import { BENCHMARK_FEATURES, crawlRequestFor, startTestWeb } from '../support/testweb/index.js';

/** A port nothing listens on (taken from the OS, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether a Redis server answers PING on `port`. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += String(chunk);
      if (reply.includes('\r\n')) socket.end();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
  });
}

/**
 * A Redis server of this test's own, which it may stop and start again on the same port. It is ready when it
 * answers PING; one that exits first fails the test with what it printed, so a refusal says why.
 */
async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir()],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const record = (chunk: Buffer) => {
    output = (output + String(chunk)).slice(-4000);
  };
  redis.stdout?.on('data', record);
  redis.stderr?.on('data', record);
  let failure: Error | undefined;
  redis.once('error', (error) => {
    failure = error;
  });
  redis.once('exit', (code, signal) => {
    failure ??= new Error(`redis-server exited (${code ?? signal}) before it answered: ${output}`);
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (failure) throw failure;
    if (await answersPing(port)) return redis;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  redis.kill('SIGKILL');
  throw new Error(`redis-server did not answer PING on port ${port} within 30 s: ${output}`);
}

async function stopRedis(redis: ChildProcess): Promise<void> {
  // a process killed by a signal has a null exitCode: waiting for its 'exit' again would wait forever
  if (redis.exitCode !== null || redis.signalCode !== null) return;
  const exited = new Promise((resolve) => redis.once('exit', resolve));
  redis.kill('SIGKILL');
  await exited;
}

/** A runtime and app of their own, logging into `lines` (warnings and up). */
async function openLogged(t: TestContext, env: Record<string, string>, options: { worker?: boolean } = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = testConfig(env);
  const log = pino({ level: 'warn' }, sink);
  const runtime = await openRuntime(config, log);
  if (options.worker) runtime.startWorker();
  const app = await buildApp({ runtime, logger: log });
  t.after(async () => {
    await app.close();
    await runtime.close();
    await dropSchema(config.dbSchema);
  });
  return { app, runtime, config, lines };
}

/** Waits (30 s at most) until /readyz answers 200. */
async function untilReady(app: FastifyInstance): Promise<void> {
  const deadline = Date.now() + 30_000;
  while ((await app.inject({ method: 'GET', url: '/readyz' })).statusCode !== 200) {
    assert.ok(Date.now() < deadline, '/readyz answers 200 once Redis is up');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await work();
  return { result, ms: Date.now() - started };
}

async function crawlCount(schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".crawls`)).rows[0]!
      .n;
  } finally {
    await client.end();
  }
}

test('Redis unreachable from the start: /readyz and POST /v1/crawls are 503 within seconds, nothing is created', {
  timeout: 60_000,
}, async (t) => {
  const { app, config } = await openLogged(t, { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
  const ready = await timed(() => app.inject({ method: 'GET', url: '/readyz' }));
  assert.equal(ready.result.statusCode, 503, ready.result.body);
  assert.ok(ready.ms < 5000, `/readyz took ${ready.ms} ms`);
  assert.equal(ready.result.headers['retry-after'], '5');
  assert.match(ready.result.json().detail, /job queue \(redis\)/);

  const created = await timed(() =>
    app.inject({ method: 'POST', url: '/v1/crawls', payload: { seeds: ['http://127.0.0.1:9/'] } }),
  );
  assert.equal(created.result.statusCode, 503, created.result.body);
  assert.ok(created.ms < 10_000, `POST /v1/crawls took ${created.ms} ms`);
  assert.equal(created.result.headers['retry-after'], '5');
  assert.match(created.result.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(await crawlCount(config.dbSchema), 0, 'the crawl that could not be queued was removed');

  // a corpus that could not be queued is not left queued either: it failed, saying why
  const corpus = await app.inject({
    method: 'POST',
    url: '/v1/corpora',
    payload: { name: 'c', documents: [{ text: 'cats and dogs' }] },
  });
  assert.equal(corpus.statusCode, 503, corpus.body);
  const listed = await app.inject({ method: 'GET', url: '/v1/corpora' });
  assert.deepEqual(
    listed.json().items.map((item: { status: string }) => item.status),
    ['failed'],
  );
});

test('Redis going down and coming back: 503s while down, a quiet log, then work again', {
  timeout: 120_000,
}, async (t) => {
  // another file's server may take the free port before Redis binds it: then try another
  let port = await closedPort();
  let redis = await startRedis(port).catch(async () => {
    port = await closedPort();
    return startRedis(port);
  });
  const web = await startTestWeb({ seed: 3, hosts: 1, pagesPerHost: 5, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  // A body that fails while Redis is down must not leave the runtime to close against a dead Redis (such a
  // close can wait on it until the file times out): hooks run in order, so this one, registered before the
  // runtime's, brings Redis back first.
  t.after(async () => {
    if (redis.exitCode !== null || redis.signalCode !== null) redis = await startRedis(port);
  });
  const { app, config, lines } = await openLogged(
    t,
    { REDIS_URL: `redis://127.0.0.1:${port}` },
    { worker: true },
  );
  // after the runtime has closed (hooks run in order): it closes with Redis up, as a test's should
  t.after(() => stopRedis(redis));
  await untilReady(app);

  await stopRedis(redis);
  const downAt = Date.now();
  const logged = lines.length;
  const ready = await timed(() => app.inject({ method: 'GET', url: '/readyz' }));
  assert.equal(ready.result.statusCode, 503);
  assert.ok(ready.ms < 5000, `/readyz took ${ready.ms} ms`);
  const created = await timed(() =>
    app.inject({ method: 'POST', url: '/v1/crawls', payload: crawlRequestFor(web, { maxPages: 5 }) }),
  );
  assert.equal(created.result.statusCode, 503, created.result.body);
  assert.ok(created.ms < 10_000, `POST /v1/crawls took ${created.ms} ms`);
  assert.equal(await crawlCount(config.dbSchema), 0);
  // at least six seconds of outage with five workers, the queues, the event bus and the rate limiter all
  // retrying; on a loaded machine the first reconnect attempt (and so the first line) can come later
  const outage = () => lines.slice(logged).filter((line) => /unreachable/.test(String(line.msg)));
  await eventually(() => (outage().length > 0 ? true : undefined), {
    message: 'the outage to be logged',
    timeoutMs: 30_000,
    intervalMs: 100,
  });
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, 6000 - (Date.now() - downAt))));
  const outageLines = outage();
  const windows = Math.ceil((Date.now() - downAt) / 5000);
  t.diagnostic(
    `${outageLines.length} outage log lines in ${windows} × 5 s; ${lines.length - logged} lines in all`,
  );
  // one line per dependency per 5 s, from the runtime's log and the rate limiter's: at most 2 × 2 a window
  assert.ok(outageLines.length <= 4 * windows, JSON.stringify(outageLines.map((line) => line.msg)));
  assert.ok(lines.length - logged <= 6 * windows, `${lines.length - logged} log lines during the outage`);

  redis = await startRedis(port);
  await untilReady(app);
  await crawlToEnd(app, crawlRequestFor(web, { maxPages: 5 }));
});

test('PostgreSQL unreachable: /v1 is a 503 problem with Retry-After, /readyz a 503 at once', {
  timeout: 60_000,
}, async (t) => {
  const { app, runtime } = await openLogged(t, {});
  assert.equal((await app.inject({ method: 'GET', url: '/v1/crawls' })).statusCode, 200);
  // the pool's next connections go to a closed port; the ones it holds are ended by the server
  const pool = runtime.db.pool as unknown as { options: { connectionString: string } };
  const url = pool.options.connectionString;
  pool.options.connectionString = `postgres://postgres@127.0.0.1:${await closedPort()}/test`;
  t.after(() => {
    pool.options.connectionString = url; // so the runtime can close and its schema be dropped
  });
  // Ended until the pool holds none: a connection it was opening with the old address as the address changed
  // is ended by the next round, and on a loaded machine the pool may learn of an end only after a while.
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  const held = runtime.db.pool as unknown as { totalCount: number };
  await eventually(
    async () => {
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [runtime.db.clientConfig.application_name],
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      return held.totalCount === 0 ? true : undefined;
    },
    { message: 'the pool to hold no connection to the server', timeoutMs: 30_000 },
  );
  await admin.end();

  const listed = await app.inject({ method: 'GET', url: '/v1/crawls' });
  assert.equal(listed.statusCode, 503, listed.body);
  assert.equal(listed.headers['retry-after'], '5');
  assert.match(listed.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(listed.json().type, 'urn:trawl:problem:unavailable');
  const ready = await timed(() => app.inject({ method: 'GET', url: '/readyz' }));
  assert.equal(ready.result.statusCode, 503);
  assert.ok(ready.ms < 5000, `/readyz took ${ready.ms} ms`);
  assert.match(ready.result.json().detail, /the database/);
});

test('a crawl left queued without runner jobs is queued again by a worker and completes', {
  timeout: 120_000,
}, async (t) => {
  const web = await startTestWeb({ seed: 5, hosts: 1, pagesPerHost: 8, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const schema = `t_${randomBytes(5).toString('hex')}`;
  const api = await build(t, { worker: false, env: { DB_SCHEMA: schema } });
  const id = await startCrawl(api.app, crawlRequestFor(web, { maxPages: 20 }));
  // as if the enqueue after the insert had failed and the API died before undoing the crawl
  await api.runtime.jobs.queue(CRAWL_QUEUE).obliterate({ force: true });
  await api.runtime.db.pool.query("UPDATE crawls SET created_at = now() - interval '1 hour' WHERE id = $1", [
    id,
  ]);
  assert.equal((await api.app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json().status, 'queued');

  await build(t, { worker: true, env: { DB_SCHEMA: schema } });
  const status = await waitForCrawl(api.app, id, 60_000);
  assert.equal(status.status, 'completed');
  assert.ok((status.pagesFetched as number) > 1);
});
