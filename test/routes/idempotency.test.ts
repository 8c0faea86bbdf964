// Idempotency-Key on job-creating POSTs: a retry with the same key and body gets the first answer and
// creates nothing; another body is a 422; a request while the first runs is a 409; replays spend no create
// budget; keys are scoped per API key.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from '../helper.js';

const CRAWL = { seeds: ['http://127.0.0.1:9/'], maxPages: 1 };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function crawlCount(runtime: { db: { pool: { query(text: string): Promise<{ rows: unknown[] }> } } }) {
  const { rows } = await runtime.db.pool.query('SELECT count(*)::int AS n FROM crawls');
  return (rows[0] as { n: number }).n;
}

test('the same key and body: the first answer again, one crawl', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const send = () =>
    app.inject({ method: 'POST', url: '/v1/crawls', payload: CRAWL, headers: { 'idempotency-key': 'k-1' } });
  const first = await send();
  assert.equal(first.statusCode, 202, first.body);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  const again = await send();
  assert.equal(again.statusCode, 202);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.deepEqual(again.json(), first.json());
  assert.equal(again.headers.location, first.headers.location);
  assert.match(again.headers['content-type'] as string, /^application\/json/);
  assert.equal(await crawlCount(runtime), 1);
  // without a key, or with another one, a new crawl each time
  assert.equal((await app.inject({ method: 'POST', url: '/v1/crawls', payload: CRAWL })).statusCode, 202);
  const other = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: CRAWL,
    headers: { 'idempotency-key': 'k-2' },
  });
  assert.notEqual(other.json().id, first.json().id);
  assert.equal(await crawlCount(runtime), 3);
});

test('the same key with another body is a 422 naming the header; a malformed key a 400', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const headers = { 'idempotency-key': 'k-body' };
  assert.equal(
    (await app.inject({ method: 'POST', url: '/v1/crawls', payload: CRAWL, headers })).statusCode,
    202,
  );
  const changed = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { ...CRAWL, maxPages: 2 },
    headers,
  });
  assert.equal(changed.statusCode, 422, changed.body);
  assert.match(changed.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(changed.json().field, 'idempotency-key');
  // the same key on another job-creating route is another request too
  const elsewhere = await app.inject({
    method: 'POST',
    url: '/v1/corpora',
    payload: { name: 'c', documents: [{ text: 'cats' }] },
    headers,
  });
  assert.equal(elsewhere.statusCode, 422, elsewhere.body);
  const malformed = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: CRAWL,
    headers: { 'idempotency-key': 'x'.repeat(256) },
  });
  assert.equal(malformed.statusCode, 400, malformed.body);
  assert.equal(malformed.json().field, 'idempotency-key');
  assert.equal(await crawlCount(runtime), 1);
});

test('a request while the first with its key is running is a 409; concurrent retries create one crawl', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  // the first request holds the key (as while its handler runs)
  await runtime.db.pool.query(
    "INSERT INTO idempotency_keys (scope, key, request_hash, state) VALUES ('ip:127.0.0.1', 'k-held', 'x', 'in_progress')",
  );
  const held = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: CRAWL,
    headers: { 'idempotency-key': 'k-held' },
  });
  assert.equal(held.statusCode, 409, held.body);
  assert.equal(held.json().field, 'idempotency-key');
  // one left in progress for longer than a request can take (its process died) is taken over
  await runtime.db.pool.query(
    "UPDATE idempotency_keys SET created_at = now() - interval '10 minutes' WHERE key = 'k-held'",
  );
  const takenOver = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: CRAWL,
    headers: { 'idempotency-key': 'k-held' },
  });
  assert.equal(takenOver.statusCode, 202, takenOver.body);
  await runtime.db.pool.query('DELETE FROM crawls');

  const answers = await Promise.all(
    Array.from({ length: 6 }, () =>
      app.inject({
        method: 'POST',
        url: '/v1/crawls',
        payload: CRAWL,
        headers: { 'idempotency-key': 'k-race' },
      }),
    ),
  );
  const statuses = answers.map((answer) => answer.statusCode);
  assert.ok(
    statuses.every((status) => status === 202 || status === 409),
    statuses.join(),
  );
  const ids = new Set(
    answers.filter((answer) => answer.statusCode === 202).map((answer) => answer.json().id),
  );
  assert.equal(ids.size, 1, `one crawl id in ${statuses.join()}`);
  assert.equal(await crawlCount(runtime), 1);
});

test('replays spend no create budget', async (t) => {
  const { app } = await build(t, { worker: false, env: { RATE_LIMIT_CREATE_PER_MIN: '2' } });
  const send = (key: string) =>
    app.inject({ method: 'POST', url: '/v1/crawls', payload: CRAWL, headers: { 'idempotency-key': key } });
  assert.equal((await send('a')).statusCode, 202);
  for (let i = 0; i < 5; i++) {
    const replay = await send('a');
    assert.equal(replay.statusCode, 202, replay.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
  }
  assert.equal((await send('b')).statusCode, 202, 'the second crawl of the budget');
  assert.equal((await send('c')).statusCode, 429, 'the third is over the budget of 2');
  assert.equal((await send('a')).statusCode, 202, 'a replay still answers past the budget');
});

test('keys are scoped per API key', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const a = await runtime.keys.create({ name: 'a' });
  const b = await runtime.keys.create({ name: 'b' });
  const send = (key: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: CRAWL,
      headers: { ...bearer(key), 'idempotency-key': 'shared-key' },
    });
  const fromA = await send(a.key);
  const fromB = await send(b.key);
  assert.equal(fromA.statusCode, 202);
  assert.equal(fromB.statusCode, 202);
  assert.notEqual(fromA.json().id, fromB.json().id);
  assert.equal(fromB.headers['idempotent-replayed'], undefined);
  assert.equal((await send(a.key)).json().id, fromA.json().id);
  assert.equal(await crawlCount(runtime), 2);
});

test('a text/plain edges upload is matched by its body: the same length with other edges is a 422', async (t) => {
  const { app, runtime } = await build(t, {
    worker: false,
    env: { RANK_JOB_UPLOAD_BYTES: '1024', RANK_MAX_UPLOAD_BYTES: '8192' },
  });
  const upload = (key: string, payload: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/rankings',
      headers: { 'content-type': 'text/plain', 'idempotency-key': key },
      payload,
    });
  const rankings = async () =>
    ((await runtime.db.pool.query('SELECT count(*)::int AS n FROM rankings')).rows[0] as { n: number }).n;

  const first = await upload('k-edges', '3\na b\nb c\n');
  assert.equal(first.statusCode, 201, first.body);
  const replayed = await upload('k-edges', '3\na b\nb c\n');
  assert.equal(replayed.headers['idempotent-replayed'], 'true');
  assert.deepEqual(replayed.json(), first.json());
  // the same number of bytes, another graph
  const changed = await upload('k-edges', '3\na c\nb c\n');
  assert.equal(changed.statusCode, 422, changed.body);
  assert.equal(changed.json().field, 'idempotency-key');
  assert.equal(await rankings(), 1);

  // an upload past the job threshold streams into PostgreSQL; its fingerprint is the whole body still
  const edges = Array.from({ length: 400 }, (_, i) => `v${i} v${i + 1}`);
  const big = ['401', ...edges].join('\n');
  const queued = await upload('k-big', big);
  assert.equal(queued.statusCode, 202, queued.body);
  assert.equal((await upload('k-big', big)).headers['idempotent-replayed'], 'true');
  const bigChanged = ['401', ...edges.slice(0, -1), 'v400 v399'].join('\n');
  assert.equal(bigChanged.length, big.length);
  assert.equal((await upload('k-big', bigChanged)).statusCode, 422);
  assert.equal(await rankings(), 2);

  // an answer given before the body was read to its end (413 past the cap) is not kept: a retry runs anew
  const tooBig = ['3', ...Array.from({ length: 3000 }, () => 'a b')].join('\n');
  assert.equal((await upload('k-cut', tooBig)).statusCode, 413);
  const retried = await upload('k-cut', '3\na b\nb c\n');
  assert.equal(retried.statusCode, 201, retried.body);
  assert.equal(retried.headers['idempotent-replayed'], undefined);
});
