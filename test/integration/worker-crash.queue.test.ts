// Kills a worker process with SIGKILL in the middle of a crawl and starts another: the crawl completes,
// every page is fetched exactly once except those in flight at the kill (at most twice), nothing is lost.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { build, eventually, startCrawl, TEST_DATABASE_URL, waitForCrawl } from '../helper.js';
import { entryArgs, REPO_ROOT } from '../support/paths.js';
import {
  BENCHMARK_FEATURES,
  countDisallowedRequests,
  countRepeatedRequests,
  loggedPageUrls,
  scopeOf,
  startTestWeb,
} from '../support/testweb/index.js';

function startWorker(schema: string): ChildProcess {
  const child = spawn(process.execPath, entryArgs('src/worker'), {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: TEST_DATABASE_URL,
      DB_SCHEMA: schema,
      ALLOW_PRIVATE_NETWORKS: 'true',
      WORKER_CONCURRENCY: '1',
      LEASE_SECS: '3',
      JOB_LOCK_MS: '2000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

test('a crawl survives SIGKILL of a worker process', { timeout: 180_000 }, async (t) => {
  const web = await startTestWeb({ seed: 3, hosts: 4, pagesPerHost: 60, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const schema = `t_${randomBytes(5).toString('hex')}`;
  const { app } = await build(t, { worker: false, env: { DB_SCHEMA: schema } });
  const workers = [startWorker(schema), startWorker(schema)];
  t.after(() => {
    for (const worker of workers) if (worker.exitCode === null) worker.kill('SIGKILL');
  });

  const truth = web.groundTruth({ maxDepth: null });
  const id = await startCrawl(app, {
    seeds: web.seeds,
    maxPages: 10_000,
    scope: scopeOf(web),
    // slow enough that the kill lands mid-crawl
    politeness: { delayMs: 25, maxCrawlDelayMs: 50 },
    concurrency: 8,
    workers: 2,
  });

  // wait until a quarter of the pages are fetched, then kill the first worker without warning
  const quarter = await eventually(
    async () => {
      const status = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json();
      // a crawl that failed is returned too, so the assertion below fails at once
      return status.status === 'failed' || status.pagesFetched >= truth.fetched.size / 4 ? status : undefined;
    },
    {
      message: `a quarter of the ${truth.fetched.size} pages to be fetched`,
      timeoutMs: 120_000,
      intervalMs: 100,
    },
  );
  assert.equal(quarter.status === 'failed', false, 'crawl failed before the kill');
  workers[0]!.kill('SIGKILL');
  workers.push(startWorker(schema));

  const final = await waitForCrawl(app, id, 150_000);
  assert.equal(final.status, 'completed', JSON.stringify(final));
  const requested = loggedPageUrls(web);
  const missing = [...truth.fetched].filter((url) => !requested.has(url));
  assert.deepEqual(missing, [], 'pages never fetched');
  assert.equal(countDisallowedRequests(web), 0);
  // only what was in flight at the kill may be fetched twice: the dead runner had at most 4 (8 / 2 runners)
  const repeated = countRepeatedRequests(web);
  assert.ok(repeated <= 4, `${repeated} URLs fetched twice`);
  assert.equal(final.frontier, 0, 'nothing left in the frontier');
});
