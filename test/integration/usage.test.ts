// Usage (docs/operations.md#usage): a crawl's status carries what it stores, exactly as PostgreSQL holds it
// (bytes after compression, rows of pages and links), GET /v1/usage sums a tenant's crawls and its fetched
// pages (a key sees its own, an admin key every tenant's), and /metrics exports each table's bytes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type pg from 'pg';
import { isFinished } from '../../src/crawler/vocabulary.js';
import { build, eventually } from '../helper.js';
import { crawlRequestFor, startTestWeb, type TestWeb } from '../support/testweb/index.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({
    seed: 41,
    hosts: 2,
    pagesPerHost: 15,
    features: { slow: false, trap: false, bigBinary: false, hostile: false, oversize: false },
  });
});
after(() => web.close());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The crawl's storage measured independently of crawl_storage.sql: one aggregate per table. */
async function measured(pool: pg.Pool, crawlId: string) {
  const one = async (text: string) => Number((await pool.query(text, [crawlId])).rows[0].n);
  const pagesOf = 'SELECT id FROM pages WHERE crawl_id = $1';
  return {
    bodyBytes: await one(
      `SELECT coalesce(sum(pg_column_size(html)), 0) + coalesce(sum(pg_column_size(html_gzip)), 0) AS n
       FROM page_contents WHERE page_id IN (${pagesOf})`,
    ),
    warcBodyBytes: await one(
      `SELECT coalesce(sum(pg_column_size(body)), 0) + coalesce(sum(pg_column_size(body_gzip)), 0) AS n
       FROM page_responses WHERE page_id IN (${pagesOf})`,
    ),
    screenshotBytes: await one(
      `SELECT coalesce(sum(pg_column_size(png)), 0) AS n FROM page_screenshots WHERE page_id IN (${pagesOf})`,
    ),
    pageRows: await one('SELECT count(*) AS n FROM pages WHERE crawl_id = $1'),
    linkRows: await one(`SELECT count(*) AS n FROM links WHERE from_page IN (${pagesOf})`),
  };
}

test("a crawl's storage is exact; /v1/usage sums each tenant's; /metrics has bytes per table", {
  timeout: 180_000,
}, async (t) => {
  const { app, runtime } = await build(t);
  const pool = runtime.db.pool;
  const admin = await runtime.keys.create({ name: 'root', admin: true });
  const a = await runtime.keys.create({ name: 'a' });
  const b = await runtime.keys.create({ name: 'b' });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    headers: bearer(a.key),
    payload: crawlRequestFor(web, { maxPages: 30, store: { warc: true } }),
  });
  assert.equal(created.statusCode, 202, created.body);
  const id = created.json().id as string;
  await eventually(
    async () =>
      isFinished(
        (await app.inject({ method: 'GET', url: `/v1/crawls/${id}`, headers: bearer(a.key) })).json().status,
      ),
    { message: 'the crawl to end', timeoutMs: 60_000 },
  );
  // the text job rewrites each body's row once (which may compress a body stored inline): its storage is final
  // once that is done
  await eventually(
    async () =>
      (
        await app.inject({ method: 'GET', url: `/v1/crawls/${id}/stats/words?top=1`, headers: bearer(a.key) })
      ).json().complete === true,
    { message: 'the text job to finish', timeoutMs: 60_000 },
  );
  // a screenshot as a rendering crawl stores it (no Chromium here) and a WARC-only body (this little web has
  // few error pages), then measured anew, as if the ended crawl were read for the first time now
  await pool.query(
    `INSERT INTO page_screenshots (page_id, png)
     SELECT id, decode(repeat('89504e47', 300), 'hex') FROM pages WHERE crawl_id = $1 AND type = 'HTML' LIMIT 2`,
    [id],
  );
  await pool.query(
    `UPDATE page_responses SET body = convert_to(repeat('not found ', 200), 'UTF8')
     WHERE page_id = (SELECT r.page_id FROM page_responses r JOIN pages p ON p.id = r.page_id
                      WHERE p.crawl_id = $1 AND r.body IS NULL ORDER BY r.page_id LIMIT 1)`,
    [id],
  );
  await pool.query('UPDATE crawls SET storage = NULL WHERE id = $1', [id]);
  runtime.crawls.forgetStatus(id);
  const status = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${id}`, headers: bearer(a.key) })
  ).json();
  const expected = await measured(pool, id);
  const { measuredAt, bytes, ...figures } = status.storage;
  assert.deepEqual(figures, expected);
  assert.equal(bytes, expected.bodyBytes + expected.warcBodyBytes + expected.screenshotBytes);
  assert.ok(
    expected.bodyBytes > 0 && expected.warcBodyBytes > 0 && expected.screenshotBytes > 0,
    JSON.stringify(expected),
  );
  assert.ok(
    expected.linkRows > 0 &&
      expected.pageRows ===
        status.counts.HTML +
          status.counts.FRONTIER +
          status.counts.BINARY +
          status.counts.DUPLICATE +
          status.counts.INVALID +
          status.counts.DISALLOWED,
  );
  assert.ok(Date.parse(measuredAt) > 0);

  // the key's own usage: before and after the worker's sweep adds its pages to the month, the same figures
  const usageOf = async (key: string) => {
    const response = await app.inject({ method: 'GET', url: '/v1/usage', headers: bearer(key) });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };
  const own = await usageOf(a.key);
  assert.equal(own.month, new Date().toISOString().slice(0, 7));
  assert.equal(own.tenants.length, 1);
  const [mine] = own.tenants;
  assert.equal(mine.tenant, a.id);
  assert.equal(mine.crawls.completed, 1);
  assert.equal(mine.crawls.total, 1);
  assert.deepEqual(mine.pagesFetched, { thisMonth: status.pagesFetched, total: status.pagesFetched });
  assert.deepEqual(mine.storage, { bytes, ...figures });
  await eventually(
    async () =>
      Number(
        (
          await pool.query(
            'SELECT coalesce(sum(pages_fetched), 0) AS n FROM usage_months WHERE tenant = $1',
            [a.id],
          )
        ).rows[0].n,
      ) === status.pagesFetched,
    { message: "the sweep to add the crawl's pages to the month", timeoutMs: 60_000 },
  );
  assert.deepEqual((await usageOf(a.key)).tenants[0].pagesFetched, mine.pagesFetched);

  // another key sees only its own (nothing); the admin key every tenant's
  const other = await usageOf(b.key);
  assert.deepEqual(
    other.tenants.map((tenant: { tenant: string; crawls: { total: number } }) => [
      tenant.tenant,
      tenant.crawls.total,
    ]),
    [[b.id, 0]],
  );
  const all = (await usageOf(admin.key)).tenants as Array<{ tenant: string; pagesFetched: unknown }>;
  assert.deepEqual(all.find((tenant) => tenant.tenant === a.id)?.pagesFetched, mine.pagesFetched);

  const metrics = await app.inject({ method: 'GET', url: '/metrics', headers: bearer(admin.key) });
  assert.equal(metrics.statusCode, 200, metrics.body);
  const line = metrics.body
    .split('\n')
    .find((text) => text.startsWith('trawl_stored_bytes{table="page_contents"}'));
  assert.ok(line && Number(line.split(' ')[1]) > 0, line);

  // a purge gives back the bytes, not the month's pages
  assert.equal(
    (await app.inject({ method: 'DELETE', url: `/v1/crawls/${id}?purge=true`, headers: bearer(a.key) }))
      .statusCode,
    202,
  );
  await eventually(
    async () =>
      (await app.inject({ method: 'GET', url: `/v1/crawls/${id}`, headers: bearer(a.key) })).statusCode ===
      404,
    {
      message: 'the purge to end',
      timeoutMs: 60_000,
    },
  );
  const purged = (await usageOf(a.key)).tenants[0];
  assert.equal(purged.storage.bytes, 0);
  assert.equal(purged.crawls.total, 0);
  assert.deepEqual(purged.pagesFetched, mine.pagesFetched);
});
