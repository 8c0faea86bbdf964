// SIGTERM to a worker process in the middle of a crawl: it stops claiming, lets its in-flight fetches
// finish, releases its leases and hands its runner jobs back to the queue, so the other worker carries the
// crawl on within seconds (not after the job lock or the leases expire) and no URL is fetched twice.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { pino } from 'pino';
import { CRAWL_QUEUE } from '../../src/jobs/queues.js';
import { openRuntime } from '../../src/runtime.js';
import { build, eventually, startCrawl, TEST_DATABASE_URL, testConfig, waitForCrawl } from '../helper.js';
import { entryArgs, REPO_ROOT } from '../support/paths.js';
import {
  BENCHMARK_FEATURES,
  countRepeatedRequests,
  crawlRequestFor,
  loggedPageUrls,
  scopeOf,
  startTestWeb,
} from '../support/testweb/index.js';

/** A worker process on the test schema; resolves once it has started its crawl worker. */
async function startWorker(schema: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, entryArgs('src/worker'), {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: TEST_DATABASE_URL,
      DB_SCHEMA: schema,
      ALLOW_PRIVATE_NETWORKS: 'true',
      WORKER_CONCURRENCY: '2',
      // long: a worker that just vanished would leave its jobs and leases for this long
      LEASE_SECS: '60',
      JOB_LOCK_MS: '30000',
      SHUTDOWN_GRACE_MS: '5000',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (line.includes('"crawl worker started"')) break;
  }
  child.stdout!.resume();
  assert.equal(child.exitCode, null, 'the worker started');
  return child;
}

test('SIGTERM to a worker hands its runners to another at once', { timeout: 180_000 }, async (t) => {
  const web = await startTestWeb({ seed: 5, hosts: 4, pagesPerHost: 60, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const schema = `t_${randomBytes(5).toString('hex')}`;
  const { app, runtime } = await build(t, { worker: false, env: { DB_SCHEMA: schema } });
  const first = await startWorker(schema);
  const workers = [first];
  t.after(() => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
  });

  const truth = web.groundTruth({ maxDepth: null });
  const id = await startCrawl(app, {
    seeds: web.seeds,
    maxPages: 10_000,
    scope: scopeOf(web),
    // slow enough that the SIGTERM lands mid-crawl
    politeness: { delayMs: 300, maxCrawlDelayMs: 300 },
    concurrency: 4,
    workers: 2,
  });

  const leasedBy = async () =>
    (
      await runtime.db.pool.query<{ leased_by: string }>(
        'SELECT DISTINCT leased_by FROM pages WHERE crawl_id = $1 AND leased_by IS NOT NULL',
        [id],
      )
    ).rows.map((row) => row.leased_by);
  // both runners on the first worker; the second one joins, idle; a quarter of the site fetched
  const crawlQueue = runtime.jobs.queue(CRAWL_QUEUE);
  await eventually(async () => ((await crawlQueue.getJobCounts('active')).active ?? 0) >= 2, {
    message: 'both runner jobs to be active on the first worker',
    timeoutMs: 60_000,
  });
  const second = await startWorker(schema);
  workers.push(second);
  const quarter = await eventually(
    async () => {
      const status = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json();
      // a crawl that ended early is returned too, so the assertion below fails at once
      return status.status !== 'running' || status.pagesFetched >= truth.fetched.size / 4
        ? status
        : undefined;
    },
    {
      message: `a quarter of the ${truth.fetched.size} pages to be fetched`,
      timeoutMs: 120_000,
      intervalMs: 100,
    },
  );
  assert.equal(quarter.status, 'running', 'the crawl runs until the SIGTERM');

  const termAt = Date.now();
  const exited = once(first, 'exit');
  let exitMs = 0;
  first.once('exit', () => {
    exitMs = Date.now() - termAt;
  });
  first.kill('SIGTERM');
  // the second worker runs both runners (its pid in the page leases) within 10 s of the SIGTERM
  const runnersOfSecond = new Set<string>();
  await eventually(
    async () => {
      for (const lease of await leasedBy()) {
        if (lease.includes(`:${second.pid}/`)) runnersOfSecond.add(lease);
      }
      if (runnersOfSecond.size < 2) throw new Error(`${runnersOfSecond.size} of 2 runners taken`);
      return true;
    },
    { message: 'the second worker to take both runners within 10 s of the SIGTERM', timeoutMs: 10_000 },
  );
  const handoffMs = Date.now() - termAt;
  const [code] = await exited;
  assert.equal(code, 0, 'the first worker exits cleanly');
  t.diagnostic(`runners handed over in ${handoffMs} ms; the first worker exited in ${exitMs} ms`);
  assert.deepEqual(
    (await leasedBy()).filter((lease) => lease.includes(`:${first.pid}/`)),
    [],
    'the first worker left no lease behind',
  );

  const final = await waitForCrawl(app, id, 150_000);
  assert.equal(final.status, 'completed', JSON.stringify(final));
  const requested = loggedPageUrls(web);
  assert.deepEqual(
    [...truth.fetched].filter((url) => !requested.has(url)),
    [],
    'pages never fetched',
  );
  assert.equal(countRepeatedRequests(web), 0, 'URLs fetched twice');
  assert.equal(final.frontier, 0, 'nothing left in the frontier');
  const secondExited = once(second, 'exit');
  second.kill('SIGTERM');
  assert.deepEqual(await secondExited, [0, null], 'the second worker exits cleanly too');
});

test('a fetch still running when the grace ends is aborted and its URL given back', {
  timeout: 120_000,
}, async (t) => {
  // a page that answers after a minute: far past the grace
  const web = await startTestWeb({ seed: 2, hosts: 1, pagesPerHost: 4, slowPageDelayMs: 60_000 });
  t.after(() => web.close());
  const schema = `t_${randomBytes(5).toString('hex')}`;
  const { app, runtime: api } = await build(t, { worker: false, env: { DB_SCHEMA: schema } });
  const worker = await openRuntime(
    testConfig({ DB_SCHEMA: schema, SHUTDOWN_GRACE_MS: '300' }),
    pino({ level: 'silent' }),
  );
  let closed = false;
  t.after(async () => {
    if (!closed) await worker.close();
  });
  worker.startWorker();
  const slowUrl = `${web.hosts[0]}/slow/page.html`;
  const id = await startCrawl(app, crawlRequestFor(web, { seeds: [slowUrl], workers: 1 }));
  await eventually(() => web.log.some((entry) => entry.url === slowUrl), {
    message: 'the slow page to be requested',
    timeoutMs: 60_000,
  });

  const closingAt = Date.now();
  await worker.close();
  closed = true;
  const closeMs = Date.now() - closingAt;
  t.diagnostic(`closed in ${closeMs} ms with the slow page in flight`);
  assert.ok(closeMs < 30_000, `close waited ${closeMs} ms for a fetch past the grace`);
  const page = await api.db.pool.query<{ type: string; leased_by: string | null }>(
    'SELECT type, leased_by FROM pages WHERE crawl_id = $1 AND url = $2',
    [id, slowUrl],
  );
  assert.deepEqual(page.rows, [{ type: 'FRONTIER', leased_by: null }], 'the URL is back in the frontier');
  const slots = await api.db.pool.query(
    'SELECT 1 FROM host_slots hs JOIN sites s ON s.id = hs.site_id WHERE s.crawl_id = $1 AND hs.leased_by IS NOT NULL',
    [id],
  );
  assert.equal(slots.rowCount, 0, 'no politeness slot stays leased');
  const counts = await api.jobs.queue(CRAWL_QUEUE).getJobCounts('active', 'waiting', 'failed', 'completed');
  assert.deepEqual(
    counts,
    { active: 0, waiting: 1, failed: 0, completed: 0 },
    'the runner job waits for a worker',
  );
});
