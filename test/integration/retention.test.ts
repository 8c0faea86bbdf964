// Retention (docs/operations.md#retention): CRAWL_RETENTION_DAYS bounds a request's retention.days (400 naming
// the field past it), an ended crawl's status says when it expires, and the sweeper purges a crawl past its
// days, and only that one; while another process holds the sweeper's lock a sweep does nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { build, crawlToEnd, eventually } from '../helper.js';
import { crawlRequestFor, startTestWeb, type TestWeb } from '../support/testweb/index.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 5, hosts: 1, pagesPerHost: 8, features: { slow: false, trap: false } });
});
after(() => web.close());

const DAY_MS = 86_400_000;

test('retention.days is at most CRAWL_RETENTION_DAYS; the sweeper purges a crawl past its days', {
  timeout: 180_000,
}, async (t) => {
  const { app, runtime, config } = await build(t, { env: { CRAWL_RETENTION_DAYS: '30' } });
  const pool = runtime.db.pool;
  for (const days of [31, 0]) {
    const refused = await app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: crawlRequestFor(web, { maxPages: 3, retention: { days } }),
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.headers['content-type'] as string, /^application\/problem\+json/);
    assert.equal(refused.json().field, 'retention.days', refused.body);
  }

  const short = await crawlToEnd(app, crawlRequestFor(web, { maxPages: 5, retention: { days: 2 } }));
  const kept = await crawlToEnd(app, crawlRequestFor(web, { maxPages: 5 }));
  const expiry = (status: Record<string, unknown>) =>
    Date.parse(status.expiresAt as string) - Date.parse(status.finishedAt as string);
  assert.equal(expiry(short), 2 * DAY_MS);
  assert.equal(expiry(kept), 30 * DAY_MS);

  // nothing has expired yet
  assert.deepEqual(await runtime.retention.sweep(), []);
  // the short one ended three days ago
  await pool.query("UPDATE crawls SET finished_at = finished_at - interval '3 days' WHERE id = $1", [
    short.id,
  ]);

  // another process sweeping (holding the lock): this one does nothing
  const other = await pool.connect();
  try {
    await other.query('BEGIN');
    await other.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${config.dbSchema}.retention-sweeper`]);
    assert.deepEqual(await runtime.retention.sweep(), []);
  } finally {
    await other.query('ROLLBACK');
    other.release();
  }

  // this process's own sweeper, on its timer, may have come first: then the crawl is purging already
  const swept = await runtime.retention.sweep();
  const status = (await app.inject({ method: 'GET', url: `/v1/crawls/${short.id}` })).json();
  assert.ok(
    swept.includes(short.id) || status.status === 'purging' || status.status === undefined,
    swept.join(),
  );
  assert.ok(!swept.includes(kept.id));
  await eventually(
    async () => (await app.inject({ method: 'GET', url: `/v1/crawls/${short.id}` })).statusCode === 404,
    { message: 'the expired crawl purged', timeoutMs: 60_000 },
  );
  const left = await pool.query('SELECT count(*)::int AS n FROM pages WHERE crawl_id = $1', [short.id]);
  assert.equal(left.rows[0].n, 0);
  assert.equal((await app.inject({ method: 'GET', url: `/v1/crawls/${kept.id}/pages` })).statusCode, 200);
  assert.deepEqual(await runtime.retention.sweep(), []);
});
