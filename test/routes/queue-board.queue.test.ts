import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ADMIN_KEY_COOKIE } from '../../src/plugins/queue-board.js';
import { build } from '../helper.js';

// Runs on the job backend the environment picks: PostgreSQL by default, Redis with REDIS_URL set.
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
type Response = Awaited<ReturnType<FastifyInstance['inject']>>;

function assertProblem(response: Response, status: number, what: string) {
  assert.equal(response.statusCode, status, `${what}: ${response.body}`);
  assert.match(response.headers['content-type'] as string, /^application\/problem\+json/, what);
}

interface BoardQueue {
  name: string;
  counts: Record<string, number>;
  jobs: Array<{ id: string; data: { crawlId?: string } }>;
}

test('the queue board lists every queue and a new crawl’s job for an admin key; others are refused', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const admin = await runtime.keys.create({ name: 'ops', admin: true });
  const user = await runtime.keys.create({ name: 'ci' });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { seeds: ['https://example.org/'] },
    headers: bearer(user.key),
  });
  assert.equal(created.statusCode, 202, created.body);
  const crawlId: string = created.json().id;

  const page = await app.inject({ method: 'GET', url: '/admin/queues', headers: bearer(admin.key) });
  assert.equal(page.statusCode, 200, page.body);
  assert.match(page.headers['content-type'] as string, /^text\/html/);
  const asset = /(?:src|href)="([^"]*static\/[^"]+\.js)"/.exec(page.body)?.[1];
  assert.ok(asset, 'the board page loads a script from its static path');
  const assetUrl = new URL(asset, 'http://board/admin/queues/').pathname;

  const api = await app.inject({
    method: 'GET',
    url: '/admin/queues/api/queues?activeQueue=crawl&status=latest&page=1&jobsPerPage=10',
    headers: bearer(admin.key),
  });
  assert.equal(api.statusCode, 200, api.body);
  const queues: BoardQueue[] = api.json().queues;
  assert.deepEqual(queues.map((queue) => queue.name).sort(), [
    'corpus',
    'crawl',
    'crawl-text',
    'purge',
    'rank',
    'schedule',
    'webhook',
  ]);
  const crawl = queues.find((queue) => queue.name === 'crawl')!;
  assert.ok((crawl.counts.waiting ?? 0) >= 1, JSON.stringify(crawl.counts));
  assert.ok(
    crawl.jobs.some((job) => job.data.crawlId === crawlId),
    `the crawl queue shows ${crawlId}'s runner job`,
  );

  // The other panels the board polls answer on this backend too (PostgreSQL has no Redis INFO).
  for (const url of [
    assetUrl,
    '/admin/queues/api/redis/stats',
    '/admin/queues/api/job-schedulers',
    '/admin/queues/api/queues/crawl/metrics',
    '/admin/queues/api/queues/crawl/workers',
    '/admin/queues/api/queues/crawl/default-job-options',
    `/admin/queues/api/queues/crawl/${encodeURIComponent(`${crawlId}.0`)}`,
  ]) {
    const response = await app.inject({ method: 'GET', url, headers: bearer(admin.key) });
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
  }

  for (const url of ['/admin/queues', '/admin/queues/api/queues', assetUrl]) {
    const anonymous = await app.inject({ method: 'GET', url });
    assertProblem(anonymous, 401, `${url} without a key`);
    assert.match(anonymous.headers['www-authenticate'] as string, /^Bearer/);
    assertProblem(
      await app.inject({ method: 'GET', url, headers: bearer(user.key) }),
      403,
      `${url} with a user key`,
    );
    assertProblem(
      await app.inject({ method: 'GET', url, headers: bearer('trawl_unknown') }),
      401,
      `${url} with an unknown key`,
    );
  }
  // a board action is refused the same way (it would empty the queue)
  assertProblem(
    await app.inject({
      method: 'PUT',
      url: '/admin/queues/api/queues/crawl/empty',
      headers: bearer(user.key),
    }),
    403,
    'emptying a queue with a user key',
  );
  const still = await app.inject({
    method: 'GET',
    url: '/admin/queues/api/queues',
    headers: bearer(admin.key),
  });
  assert.ok(
    (still.json().queues as BoardQueue[]).find((queue) => queue.name === 'crawl')!.counts.waiting! >= 1,
  );
});

test('a browser signs in once with ?key=: an HttpOnly SameSite=Strict cookie on /admin, checked on every request', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const admin = await runtime.keys.create({ name: 'ops', admin: true });
  const user = await runtime.keys.create({ name: 'ci' });

  const signIn = await app.inject({ method: 'GET', url: `/admin/queues?key=${admin.key}` });
  assert.equal(signIn.statusCode, 303, signIn.body);
  assert.equal(signIn.headers.location, '/admin/queues', 'the key leaves the address bar');
  const cookie = String(signIn.headers['set-cookie']);
  assert.ok(cookie.startsWith(`${ADMIN_KEY_COOKIE}=`), cookie);
  for (const attribute of ['HttpOnly', 'SameSite=Strict', 'Path=/admin']) {
    assert.ok(cookie.split('; ').includes(attribute), `${attribute} in ${cookie}`);
  }
  const session = { cookie: cookie.split(';')[0]! };
  const page = await app.inject({ method: 'GET', url: '/admin/queues', headers: session });
  assert.equal(page.statusCode, 200, page.body);
  const api = await app.inject({ method: 'GET', url: '/admin/queues/api/queues', headers: session });
  assert.equal(api.statusCode, 200, api.body);
  // the cookie opens only the board: /v1 still wants the header
  assertProblem(
    await app.inject({ method: 'GET', url: '/v1/crawls', headers: session }),
    401,
    '/v1 with the cookie',
  );

  assertProblem(
    await app.inject({ method: 'GET', url: `/admin/queues?key=${user.key}` }),
    403,
    '?key= with a user key',
  );
  assertProblem(
    await app.inject({
      method: 'GET',
      url: '/admin/queues',
      headers: { cookie: `${ADMIN_KEY_COOKIE}=${user.key}` },
    }),
    403,
    'a user key in the cookie',
  );

  await runtime.keys.revoke(admin.id);
  assertProblem(
    await app.inject({ method: 'GET', url: '/admin/queues/api/queues', headers: session }),
    401,
    'revoked',
  );
});
