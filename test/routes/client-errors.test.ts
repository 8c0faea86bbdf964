// Client mistakes that once answered 500: each is a 4xx application/problem+json naming the field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { build } from '../helper.js';

type Response = Awaited<ReturnType<FastifyInstance['inject']>>;

const SEED = 'http://127.0.0.1:9/';
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function problemOf(response: Response, status: number, field?: string) {
  assert.equal(response.statusCode, status, response.body);
  assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
  const problem = response.json() as { status: number; field?: string; detail: string; type: string };
  assert.equal(problem.status, status);
  if (field !== undefined) assert.equal(problem.field, field, response.body);
  return problem;
}

test('tampered cursors: odd dates, out-of-range dates, non-uuid ids, oversized ids and measures are 400 cursor', async (t) => {
  const { app } = await build(t, { worker: false });
  const crawl = await app.inject({ method: 'POST', url: '/v1/crawls', payload: { seeds: [SEED] } });
  const crawlId = crawl.json().id as string;
  const ranking = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    payload: {
      edges: [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
      ],
    },
  });
  assert.equal(ranking.statusCode, 201, ranking.body);
  const rankingId = ranking.json().id as string;

  for (const list of ['/v1/crawls', '/v1/corpora']) {
    for (const createdAt of ['2000', '1', '+275760-09-13T00:00:00.000Z', '0000-01-01T00:00:00.000Z']) {
      const cursor = cursorOf({ createdAt, id: ZERO_UUID });
      problemOf(await app.inject({ method: 'GET', url: `${list}?cursor=${cursor}` }), 400, 'cursor');
    }
    for (const id of ['-'.repeat(36), 'not-a-uuid', 42]) {
      const cursor = cursorOf({ createdAt: '2020-01-01T00:00:00.000Z', id });
      problemOf(await app.inject({ method: 'GET', url: `${list}?cursor=${cursor}` }), 400, 'cursor');
    }
    // a cursor as the service writes it still pages
    const good = cursorOf({ createdAt: '2999-01-01T00:00:00.000Z', id: ZERO_UUID });
    const listed = await app.inject({ method: 'GET', url: `${list}?cursor=${good}` });
    assert.equal(listed.statusCode, 200, listed.body);
  }

  problemOf(
    await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}/webhooks?after=99999999999999999999` }),
    400,
    'after',
  );
  problemOf(
    await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}/pages/99999999999999999999` }),
    400,
    'pageId',
  );
  // the largest id a cursor may hold reaches PostgreSQL as a bigint (it overflowed an int4 before)
  const last = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${crawlId}/pages?cursor=${cursorOf({ after: 9007199254740991 })}`,
  });
  assert.equal(last.statusCode, 200, last.body);
  assert.deepEqual(last.json().items, []);
  const byScore = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${crawlId}/pages?sort=-score&cursor=${cursorOf({ after: 9007199254740991, score: 0.5 })}`,
  });
  assert.equal(byScore.statusCode, 200, byScore.body);
  for (const cursor of [{ after: 2 ** 53 }, { after: -1 }, { after: 1.5 }, { after: 1, score: 'x' }]) {
    // the webhook delivery log takes the same row-id cursor as the page list
    for (const list of ['pages', 'webhooks']) {
      const page = await app.inject({
        method: 'GET',
        url: `/v1/crawls/${crawlId}/${list}?cursor=${cursorOf(cursor)}`,
      });
      problemOf(page, 400, 'cursor');
    }
  }
  const deliveries = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${crawlId}/webhooks?cursor=${cursorOf({ after: 9007199254740991 })}`,
  });
  assert.equal(deliveries.statusCode, 200, deliveries.body);
  assert.deepEqual(deliveries.json(), { items: [], next: null });

  for (const cursor of [
    [1.5, 'a'],
    [1e10, 'a'],
    [-1, 'a'],
    [1, 'a\u0000'],
    [1, '\ud800'],
  ]) {
    const url = `/v1/rankings/${rankingId}/vertices?sort=-inDegree&cursor=${cursorOf(cursor)}`;
    problemOf(await app.inject({ method: 'GET', url }), 400, 'cursor');
  }
  // pageRank is a float: a fractional measure is a fine cursor there
  const byRank = await app.inject({
    method: 'GET',
    url: `/v1/rankings/${rankingId}/vertices?sort=-pageRank&cursor=${cursorOf([0.5, 'a'])}`,
  });
  assert.equal(byRank.statusCode, 200, byRank.body);
});

test('NUL and lone surrogates in any stored string are a 400 naming the field, whatever the route', async (t) => {
  const { app } = await build(t, { worker: false });
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload });
  const crawl = (extra: object) => post('/v1/crawls', { seeds: [SEED], ...extra });

  const nul = /NUL/;
  const surrogate = /surrogate/;
  assert.match(problemOf(await crawl({ topics: ['a\u0000b'] }), 400, 'topics[0]').detail, nul);
  assert.match(
    problemOf(await crawl({ politeness: { userAgent: 'bot\u0000' } }), 400, 'politeness.userAgent').detail,
    nul,
  );
  problemOf(await crawl({ scope: { include: ['x', 'y\u0000'] } }), 400, 'scope.include[1]');
  problemOf(
    await crawl({ webhook: { url: SEED, headers: { 'x-a': 'v\u0000' } } }),
    400,
    'webhook.headers.x-a',
  );
  assert.match(
    problemOf(await post('/v1/rankings', { edges: [['\ud800', 'b']] }), 400, 'edges[0][0]').detail,
    surrogate,
  );
  problemOf(await post('/v1/rankings', { edges: [['a', 'b\u0000']] }), 400, 'edges[0][1]');
  problemOf(await post('/v1/corpora', { name: 'n\u0000', documents: [{ text: 'a' }] }), 400, 'name');
  problemOf(
    await post('/v1/corpora', { name: 'n', documents: [{ text: 'a\udfff' }] }),
    400,
    'documents[0].text',
  );
  // a surrogate pair (an emoji) is fine; only a lone half is refused
  assert.equal((await crawl({ topics: ['otters \ud83e\udda6'] })).statusCode, 202);
  // a property name is text too
  problemOf(
    await crawl({ webhook: { url: SEED, headers: { 'x-\u0000': 'v' } } }),
    400,
    'webhook.headers.x-\u0000',
  );
  // query strings and path parameters are walked as well
  const vertex = await app.inject({ method: 'GET', url: `/v1/rankings/${ZERO_UUID}/vertices?name=a%00b` });
  problemOf(vertex, 400, 'name');
});

test('bodies are not coerced: a string for an integer or an array is a 400; query strings still are', async (t) => {
  const { app } = await build(t, { worker: false });
  const post = (payload: object) => app.inject({ method: 'POST', url: '/v1/crawls', payload });
  assert.match(problemOf(await post({ seeds: [SEED], maxPages: '100' }), 400, 'maxPages').detail, /integer/);
  assert.match(problemOf(await post({ seeds: SEED }), 400, 'seeds').detail, /array/);
  problemOf(
    await post({ seeds: [SEED], politeness: { respectRobots: 'true' } }),
    400,
    'politeness.respectRobots',
  );
  const limited = await app.inject({ method: 'GET', url: '/v1/crawls?limit=5' });
  assert.equal(limited.statusCode, 200, limited.body);
});

test('enum errors list the allowed values; a non-http(s) seed says it must be an http(s) URL', async (t) => {
  const { app } = await build(t, { worker: false });
  const graph = await app.inject({ method: 'GET', url: `/v1/crawls/${ZERO_UUID}/graph?format=dot` });
  const problem = problemOf(graph, 400, 'format');
  assert.equal(problem.detail, 'format: must be one of "edges", "json", "gexf"');
  const events = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { seeds: [SEED], webhook: { url: SEED, events: ['sometimes'] } },
  });
  assert.match(problemOf(events, 400, 'webhook.events[0]').detail, /must be one of "started", "page"/);
  for (const seed of ['ftp://x', 'ftp://example.org/file', 'example.org']) {
    const response = await app.inject({ method: 'POST', url: '/v1/crawls', payload: { seeds: [seed] } });
    const refused = problemOf(response, 400, 'seeds[0]');
    assert.equal(refused.detail, 'seeds[0]: must be an http(s) URL');
  }
  // a seed with credentials is named as the client sent it, not by the scope object's own layout
  const credentials = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { seeds: [SEED, 'https://user:pw@example.org/'] },
  });
  assert.match(problemOf(credentials, 400, 'seeds[1]').detail, /^seeds\[1\] .*without credentials/);
});

test("Fastify's own errors are problem+json; a known path with the wrong method is a 405 with Allow", async (t) => {
  const { app } = await build(t, { worker: false });
  const badUrl = problemOf(await app.inject({ method: 'GET', url: '/v1/crawls/%E0%A4%A' }), 400, 'path');
  assert.match(badUrl.type, /bad-url/);
  const long = await app.inject({ method: 'GET', url: `/v1/crawls/${'a'.repeat(200)}` });
  problemOf(long, 414, 'path');

  const put = await app.inject({ method: 'PUT', url: `/v1/crawls/${ZERO_UUID}` });
  problemOf(put, 405, 'method');
  assert.equal(put.headers.allow, 'GET, HEAD, DELETE');
  const patch = await app.inject({ method: 'PATCH', url: '/v1/crawls?limit=1' });
  problemOf(patch, 405);
  assert.equal(patch.headers.allow, 'GET, HEAD, POST');
  const probe = await app.inject({ method: 'POST', url: '/healthz' });
  problemOf(probe, 405);
  assert.equal(probe.headers.allow, 'GET, HEAD');
  // an unknown path stays a 404
  problemOf(await app.inject({ method: 'PUT', url: '/v1/nothing' }), 404);
});

test('webhook headers the HTTP client would refuse to send are a 400 naming the header', async (t) => {
  const { app } = await build(t, { worker: false });
  const withHeaders = (headers: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: { seeds: [SEED], webhook: { url: SEED, headers } },
    });

  for (const name of [
    'upgrade',
    'expect',
    'keep-alive',
    'connection',
    'transfer-encoding',
    'host',
    'content-length',
  ]) {
    const problem = problemOf(await withHeaders({ [name]: '1' }), 400, `webhook.headers.${name}`);
    assert.match(problem.detail, /managed by the HTTP client/);
  }
  // the name as sent is the field, whatever its case
  problemOf(await withHeaders({ Upgrade: 'websocket' }), 400, 'webhook.headers.Upgrade');
  for (const value of ['a\r\nx-injected: 1', 'a\nb', 'a\rb', 'a\u007fb', 'caf\u20ac']) {
    const problem = problemOf(await withHeaders({ 'x-team': value }), 400, 'webhook.headers.x-team');
    assert.match(problem.detail, /cannot send/);
  }
  // what undici sends is still accepted: a tab, obs-text, spaces inside
  const fine = await withHeaders({ 'x-team': 'search\tteam caf\u00e9', 'x-other': 'a  b' });
  assert.equal(fine.statusCode, 202, fine.body);
});
