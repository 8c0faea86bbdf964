import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../src/app.js';
import { openRuntime } from '../../src/runtime.js';
import { build } from '../helper.js';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function assertLimited(response: Awaited<ReturnType<FastifyInstance['inject']>>, limit: number) {
  assert.equal(response.statusCode, 429, response.body);
  assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  const problem = response.json();
  assert.equal(problem.status, 429);
  assert.equal(problem.type, 'urn:trawl:problem:rate-limited');
  assert.equal(problem.limit, limit);
  assert.equal(problem.retryAfterSecs, retryAfter);
}

test('the N+1-th read in a window is a 429 problem with Retry-After; per key, probes exempt', async (t) => {
  const { app, runtime } = await build(t, { worker: false, env: { RATE_LIMIT_READ_PER_MIN: '3' } });
  const a = await runtime.keys.create({ name: 'a' });
  const b = await runtime.keys.create({ name: 'b' });
  for (let i = 1; i <= 3; i++) {
    const response = await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(a.key) });
    assert.equal(response.statusCode, 200, `request ${i}: ${response.body}`);
    assert.equal(response.headers['x-ratelimit-remaining'], String(3 - i));
  }
  assertLimited(await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(a.key) }), 3);
  // key B has a budget of its own
  assert.equal(
    (await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(b.key) })).statusCode,
    200,
  );
  for (let i = 0; i < 5; i++) {
    assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  }
});

test('open mode: budgets are per client IP; crawl creation has its own, smaller budget', async (t) => {
  const { app } = await build(t, {
    worker: false,
    env: { RATE_LIMIT_CREATE_PER_MIN: '2', RATE_LIMIT_READ_PER_MIN: '5' },
  });
  const create = (ip: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: { seeds: ['https://example.org/'] },
      remoteAddress: ip,
    });
  assert.equal((await create('10.0.0.1')).statusCode, 202);
  assert.equal((await create('10.0.0.1')).statusCode, 202);
  const third = await create('10.0.0.1');
  assertLimited(third, 2);
  assert.match(third.json().detail, /2 crawls started per minute/);
  // another client is not held back, and reads still pass for the first
  assert.equal((await create('10.0.0.2')).statusCode, 202);
  const read = await app.inject({ method: 'GET', url: '/v1/crawls', remoteAddress: '10.0.0.1' });
  assert.equal(read.statusCode, 200);
});

test('two API instances on one Redis share one budget', {
  skip: process.env.REDIS_URL ? false : 'REDIS_URL is not set: the shared Redis budget needs a Redis',
}, async (t) => {
  const { app: first, config } = await build(t, {
    worker: false,
    env: { RATE_LIMIT_READ_PER_MIN: '4' },
  });
  // a second process's runtime and app on the same database schema and Redis namespace
  const runtime = await openRuntime(config, pino({ level: 'silent' }));
  const second = await buildApp({ runtime });
  t.after(async () => {
    await second.close();
    await runtime.close();
  });
  const read = (app: FastifyInstance) =>
    app.inject({ method: 'GET', url: '/v1/crawls', remoteAddress: '10.1.2.3' });
  assert.equal((await read(first)).statusCode, 200);
  assert.equal((await read(second)).statusCode, 200);
  assert.equal((await read(first)).statusCode, 200);
  assert.equal((await read(second)).statusCode, 200);
  assertLimited(await read(first), 4);
  assertLimited(await read(second), 4);
});

test('a refused crawl start does not use up the create budget', async (t) => {
  const { app } = await build(t, { worker: false, env: { RATE_LIMIT_CREATE_PER_MIN: '2' } });
  const create = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/v1/crawls', payload, remoteAddress: '10.0.0.9' });
  // bad requests (a schema fault, a check of the service) are answered and not counted
  for (let i = 0; i < 4; i++) {
    assert.equal((await create({ seeds: ['not a url'] })).statusCode, 400);
    assert.equal((await create({ seeds: ['https://example.org/'], maxResults: 3 })).statusCode, 400);
  }
  const first = await create({ seeds: ['https://example.org/'] });
  assert.equal(first.statusCode, 202, first.body);
  assert.equal(first.headers['x-ratelimit-remaining'], '1');
  assert.equal((await create({ seeds: ['https://example.org/'] })).statusCode, 202);
  assertLimited(await create({ seeds: ['https://example.org/'] }), 2);
});

test('the running-crawls cap answers 429 with Retry-After, and the refusal costs no create budget', async (t) => {
  const { app, runtime } = await build(t, {
    worker: false,
    env: { MAX_RUNNING_CRAWLS_PER_KEY: '1', RATE_LIMIT_CREATE_PER_MIN: '2' },
  });
  const a = await runtime.keys.create({ name: 'a' });
  const start = () =>
    app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: { seeds: ['https://example.org/'] },
      headers: bearer(a.key),
    });
  const first = await start();
  assert.equal(first.statusCode, 202, first.body);
  for (let i = 0; i < 3; i++) {
    const capped = await start();
    assert.equal(capped.statusCode, 429, capped.body);
    assert.match(capped.headers['content-type'] as string, /^application\/problem\+json/);
    const retryAfter = Number(capped.headers['retry-after']);
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1,
      `Retry-After ${capped.headers['retry-after']}`,
    );
    assert.equal(capped.json().retryAfterSecs, retryAfter);
    assert.match(capped.json().detail, /MAX_RUNNING_CRAWLS_PER_KEY/);
  }
  // the three refusals drew nothing: with the first crawl cancelled, the second start of the window passes
  await app.inject({ method: 'DELETE', url: `/v1/crawls/${first.json().id}`, headers: bearer(a.key) });
  const second = await start();
  assert.equal(second.statusCode, 202, second.body);
  assert.equal(second.headers['x-ratelimit-remaining'], '0');
});
