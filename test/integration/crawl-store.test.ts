// PgCrawlStore against a real PostgreSQL: the per-page statements are prepared, so their generic plans are
// only as good as the page table's statistics; the store refreshes them itself as a crawl fills the table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DiscoveredUrl } from '../../src/crawler/engine/ports.js';
import { PgCrawlStore } from '../../src/db/crawl-store.js';
import { sql } from '../../src/db/sql.js';
import { build } from '../helper.js';

test('queuing pages past the table’s last estimated size refreshes its statistics', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { seeds: ['http://127.0.0.1:9/'], maxPages: 5000 },
  });
  assert.equal(created.statusCode, 202, created.body);
  const crawlId: string = created.json().id;
  const pool = runtime.db.pool;
  const rowEstimate = async () =>
    (await pool.query<{ rows: number }>(sql('pages_row_estimate'))).rows[0]!.rows;
  assert.ok((await rowEstimate()) < 100, 'a new schema starts without statistics');

  const failures: Error[] = [];
  const store = new PgCrawlStore(pool, (error) => failures.push(error));
  const frontier = { slots: 1, maxDiscovered: null };
  const batch = (from: number): DiscoveredUrl[] =>
    Array.from({ length: 100 }, (_, i) => ({
      url: `http://127.0.0.1:9/page-${from + i}`,
      origin: 'http://127.0.0.1:9',
      depth: 1,
      priority: 0,
      anchor: '',
    }));
  for (let from = 0; from < 400; from += 100) await store.enqueue(crawlId, null, batch(from), frontier);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok((await rowEstimate()) < 100, 'no refresh before 500 pages were queued');

  for (let from = 400; from < 500; from += 100) await store.enqueue(crawlId, null, batch(from), frontier);
  const deadline = Date.now() + 10_000;
  while ((await rowEstimate()) < 500 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok((await rowEstimate()) >= 500, 'ANALYZE ran once 500 pages were queued: the estimate counts them');
  assert.deepEqual(failures, []);
});

test('text from the web is stored without NUL or lone surrogates: robots.txt, disallow reasons, crawl errors', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { seeds: ['http://127.0.0.1:9/'], maxPages: 10 },
  });
  assert.equal(created.statusCode, 202, created.body);
  const crawlId: string = created.json().id;
  const pool = runtime.db.pool;
  const store = new PgCrawlStore(pool);
  const sites = await store.ensureSites(crawlId, ['http://127.0.0.1:9'], 1);
  const siteId = sites.get('http://127.0.0.1:9')!;
  await store.saveRobots(
    siteId,
    { status: 200, body: 'User-agent: *\u0000\nDisallow: /x\ud800\n', error: null, fetchedAt: new Date() },
    null,
    [],
  );
  assert.equal((await store.loadRobots(siteId))?.body, 'User-agent: *\nDisallow: /x\ufffd\n');
  const [refused] = await store.enqueue(
    crawlId,
    null,
    [
      {
        url: 'http://127.0.0.1:9/no',
        origin: 'http://127.0.0.1:9',
        depth: 1,
        priority: 0,
        anchor: '',
        disallowed: 'robots.txt\u0000 says no',
      },
    ],
    { slots: 1, maxDiscovered: null },
  );
  assert.equal(refused?.error, 'robots.txt says no');
  await store.finishCrawl(crawlId, 'failed', 'scorer: bad\u0000 query \udc00');
  const crawl = (await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}` })).json();
  assert.equal(crawl.error, 'scorer: bad query \ufffd');
});
