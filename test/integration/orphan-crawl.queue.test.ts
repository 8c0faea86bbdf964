// A running crawl whose runner jobs vanished from the queue (flushed, obliterated) is found by a worker's
// orphan sweeper and finished: the crawl's state lives in PostgreSQL, the queue only carries runners.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { CRAWL_QUEUE } from '../../src/jobs/queues.js';
import { build, startCrawl, waitForCrawl } from '../helper.js';
import { BENCHMARK_FEATURES, startTestWeb } from '../support/testweb/index.js';

test('a running crawl whose jobs were lost is re-queued and completes', { timeout: 120_000 }, async (t) => {
  const web = await startTestWeb({ seed: 9, hosts: 1, pagesPerHost: 12, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const schema = `t_${randomBytes(5).toString('hex')}`;
  const api = await build(t, { worker: false, env: { DB_SCHEMA: schema } });
  const id = await startCrawl(api.app, { seeds: web.seeds, politeness: { delayMs: 0 }, maxPages: 100 });

  // the queue loses the runners; the crawl row says it was running, with no heartbeat for an hour
  await api.runtime.jobs.queue(CRAWL_QUEUE).obliterate({ force: true });
  await api.runtime.db.pool.query(
    "UPDATE crawls SET status = 'running', started_at = now(), heartbeat_at = now() - interval '1 hour' WHERE id = $1",
    [id],
  );

  await build(t, { worker: true, env: { DB_SCHEMA: schema } });
  const status = await waitForCrawl(api.app, id, 60_000);
  assert.equal(status.status, 'completed');
  assert.ok((status.pagesFetched as number) > 1, 'the resumed runners fetched the site');
});
