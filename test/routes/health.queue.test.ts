import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, waitUntilReady } from '../helper.js';

test('GET /healthz answers while the process is up', async (t) => {
  const { app } = await build(t, { worker: false });
  const response = await app.inject({ method: 'GET', url: '/healthz' });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(response.json(), { status: 'ok' });
});

test('GET /readyz checks the database and the queue backend', async (t) => {
  const { app } = await build(t, { worker: false });
  const body = await waitUntilReady(app);
  assert.equal(body.status, 'ready');
  assert.equal(body.queue, process.env.REDIS_URL ? 'redis' : 'postgres');
});

test('an unknown route is a problem+json 404', async (t) => {
  const { app } = await build(t, { worker: false });
  const response = await app.inject({ method: 'GET', url: '/nope' });
  assert.equal(response.statusCode, 404);
  assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(response.json().status, 404);
});
