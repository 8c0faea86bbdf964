// Quotas per API key (docs/operations.md#quotas): set when a key is made and changed with PATCH; a start over
// the running limit is a 429, over the monthly pages or the stored bytes a 403, each problem naming the limit,
// its value and what is used; a running crawl whose key reaches its page limit stops `completed` with
// stopReason `quota`, keeping what it stored.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { isFinished } from '../../src/crawler/vocabulary.js';
import { build, eventually } from '../helper.js';
import { crawlRequestFor, startTestWeb, type TestWeb } from '../support/testweb/index.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 17, hosts: 1, pagesPerHost: 40, features: { slow: false, trap: false } });
});
after(() => web.close());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function problem(
  response: { statusCode: number; body: string; headers: Record<string, unknown> },
  status: number,
) {
  assert.equal(response.statusCode, status, response.body);
  assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
  return JSON.parse(response.body);
}

async function waitEnded(app: FastifyInstance, id: string, key: string) {
  return eventually(
    async () => {
      const status = (
        await app.inject({ method: 'GET', url: `/v1/crawls/${id}`, headers: bearer(key) })
      ).json();
      return isFinished(status.status) ? status : null;
    },
    { message: `crawl ${id} to end`, timeoutMs: 90_000 },
  );
}

test('limits are set on creation and by PATCH; each start over one is refused naming it', {
  timeout: 180_000,
}, async (t) => {
  const { app, runtime } = await build(t);
  const admin = await runtime.keys.create({ name: 'root', admin: true });
  const made = await app.inject({
    method: 'POST',
    url: '/v1/keys',
    headers: bearer(admin.key),
    payload: { name: 'tenant', limits: { runningCrawls: 1 } },
  });
  assert.equal(made.statusCode, 201, made.body);
  const tenant = made.json();
  assert.deepEqual(tenant.limits, { runningCrawls: 1, pagesPerMonth: null, storedBytes: null });

  const bad = await app.inject({
    method: 'PATCH',
    url: `/v1/keys/${tenant.id}`,
    headers: bearer(admin.key),
    payload: { limits: { pagesPerMonth: -1 } },
  });
  assert.match((await problem(bad, 400)).field, /limits\.pagesPerMonth|limits\/pagesPerMonth/);
  const forbidden = await app.inject({
    method: 'PATCH',
    url: `/v1/keys/${tenant.id}`,
    headers: bearer(tenant.key),
    payload: { limits: { runningCrawls: 100 } },
  });
  await problem(forbidden, 403);

  // running: one slow crawl at a time
  const slow = crawlRequestFor(web, { maxPages: 40, politeness: { delayMs: 2_000, maxCrawlDelayMs: 0 } });
  const start = (payload: object = slow) =>
    app.inject({ method: 'POST', url: '/v1/crawls', headers: bearer(tenant.key), payload });
  const first = await start();
  assert.equal(first.statusCode, 202, first.body);
  const running = await problem(await start(), 429);
  assert.deepEqual([running.limit, running.value, running.used], ['runningCrawls', 1, 1]);
  assert.match(running.detail, /runningCrawls limit/);
  assert.ok(Number(running.retryAfterSecs) > 0);
  // stopped once it has stored a page or two
  await eventually(
    async () =>
      (
        await app.inject({ method: 'GET', url: `/v1/crawls/${first.json().id}`, headers: bearer(tenant.key) })
      ).json().counts.HTML >= 2,
    { message: 'the first crawl to store two pages', timeoutMs: 60_000 },
  );
  await app.inject({ method: 'DELETE', url: `/v1/crawls/${first.json().id}`, headers: bearer(tenant.key) });
  await waitEnded(app, first.json().id, tenant.key);

  // monthly pages: the month already counts more than the new limit
  await runtime.db.pool.query(
    `INSERT INTO usage_months (tenant, month, pages_fetched)
     VALUES ($1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, 100)
     ON CONFLICT (tenant, month) DO UPDATE SET pages_fetched = usage_months.pages_fetched + 100`,
    [tenant.id],
  );
  const patched = await app.inject({
    method: 'PATCH',
    url: `/v1/keys/${tenant.id}`,
    headers: bearer(admin.key),
    payload: { limits: { pagesPerMonth: 50, runningCrawls: null } },
  });
  assert.equal(patched.statusCode, 200, patched.body);
  assert.deepEqual(patched.json().limits, { runningCrawls: null, pagesPerMonth: 50, storedBytes: null });
  const monthly = await problem(await start(), 403);
  assert.equal(monthly.limit, 'pagesPerMonth');
  assert.equal(monthly.value, 50);
  assert.ok(monthly.used >= 100, JSON.stringify(monthly));

  // stored bytes: what the first crawl stored is over a 1-byte limit
  await app.inject({
    method: 'PATCH',
    url: `/v1/keys/${tenant.id}`,
    headers: bearer(admin.key),
    payload: { limits: { pagesPerMonth: null, storedBytes: 1 } },
  });
  const stored = (await app.inject({ method: 'GET', url: '/v1/usage', headers: bearer(tenant.key) })).json()
    .tenants[0].storage.bytes;
  assert.ok(stored >= 1, `the cancelled crawl stored ${stored} bytes`);
  const storage = await problem(await start(), 403);
  assert.deepEqual([storage.limit, storage.value, storage.used], ['storedBytes', 1, stored]);

  // without limits the key starts crawls again
  await app.inject({
    method: 'PATCH',
    url: `/v1/keys/${tenant.id}`,
    headers: bearer(admin.key),
    payload: { limits: { storedBytes: null } },
  });
  assert.equal((await start(crawlRequestFor(web, { maxPages: 2 }))).statusCode, 202);
});

test('a running crawl whose key reaches its monthly pages stops completed, stopReason quota', {
  timeout: 180_000,
}, async (t) => {
  const { app, runtime } = await build(t);
  const tenant = await runtime.keys.create({ name: 'tenant', limits: { pagesPerMonth: 5 } });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    headers: bearer(tenant.key),
    payload: crawlRequestFor(web, { maxPages: 40, politeness: { delayMs: 500, maxCrawlDelayMs: 0 } }),
  });
  assert.equal(created.statusCode, 202, created.body);
  const id = created.json().id as string;
  // the check every worker runs every few seconds, run here too as soon as the crawl has 5 pages (the worker's
  // own may come first)
  await eventually(
    async () => {
      const status = (
        await app.inject({ method: 'GET', url: `/v1/crawls/${id}`, headers: bearer(tenant.key) })
      ).json();
      return status.status !== 'running' || status.pagesFetched >= 5;
    },
    { message: 'the crawl to fetch 5 pages', timeoutMs: 90_000 },
  );
  await runtime.quotas.enforce();
  const final = await waitEnded(app, id, tenant.key);
  assert.equal(final.status, 'completed');
  assert.equal(final.stopReason, 'quota');
  assert.ok(final.pagesFetched >= 5 && final.pagesFetched < 40, String(final.pagesFetched));
  assert.match(final.warnings.join(), /pagesPerMonth limit/);
  const pages = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${id}/pages`,
    headers: bearer(tenant.key),
  });
  assert.equal(pages.statusCode, 200);
  assert.ok(pages.json().items.length > 0, 'what it stored is kept');
  // and the next start is refused until the limit is raised
  const again = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    headers: bearer(tenant.key),
    payload: crawlRequestFor(web, { maxPages: 2 }),
  });
  assert.equal((await problem(again, 403)).limit, 'pagesPerMonth');
});
