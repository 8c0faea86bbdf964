import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { generateOpenApi } from '../../scripts/openapi.js';
import { CRAWL_QUEUE } from '../../src/jobs/queues.js';
import { build, eventually, waitForCrawl } from '../helper.js';
import { BENCHMARK_FEATURES, crawlRequestFor, startTestWeb, type TestWeb } from '../support/testweb/index.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 11, hosts: 2, pagesPerHost: 30, features: BENCHMARK_FEATURES });
});
after(() => web.close());

const crawlOf = (extra: Record<string, unknown> = {}) => crawlRequestFor(web, extra);

test('POST /v1/crawls rejects bad input with problem+json naming the field', async (t) => {
  const { app } = await build(t, { worker: false });
  const cases: Array<[unknown, string]> = [
    [{}, 'seeds'],
    [{ seeds: [] }, 'seeds'],
    [{ seeds: ['ftp://example.org/'] }, 'seeds[0]'],
    [{ seeds: ['https://example.org/'], maxPages: 0 }, 'maxPages'],
    [{ seeds: ['https://example.org/'], bogus: 1 }, 'bogus'],
    [{ seeds: ['https://example.org/'], politeness: { delayMs: -1 } }, 'politeness.delayMs'],
    [{ seeds: ['https://example.org/'], scope: { include: ['(unclosed'] } }, 'scope.include[0]'],
  ];
  for (const [payload, field] of cases) {
    const response = await app.inject({ method: 'POST', url: '/v1/crawls', payload: payload as object });
    assert.equal(response.statusCode, 400, `${JSON.stringify(payload)} → ${response.body}`);
    assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
    const problem = response.json();
    assert.equal(problem.status, 400);
    assert.equal(problem.field, field, JSON.stringify(problem));
    assert.ok(problem.type && problem.title && problem.detail);
  }
  const badJson = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    headers: { 'content-type': 'application/json' },
    payload: '{"seeds": [',
  });
  assert.equal(badJson.statusCode, 400);
  assert.equal(badJson.json().field, 'body');
  // nothing was stored by the rejected requests
  assert.deepEqual((await app.inject({ method: 'GET', url: '/v1/crawls' })).json().items, []);
});

test('a crawl names its links `_links` when created, listed and read; `links` stays as a deprecated alias', async (t) => {
  const { app } = await build(t, { worker: false });
  const created = await app.inject({ method: 'POST', url: '/v1/crawls', payload: crawlOf({ maxPages: 1 }) });
  assert.equal(created.statusCode, 202, created.body);
  const body = created.json();
  const expected = {
    self: `/v1/crawls/${body.id}`,
    pages: `/v1/crawls/${body.id}/pages`,
    graph: `/v1/crawls/${body.id}/graph`,
  };
  assert.deepEqual(body._links, expected);
  assert.deepEqual(body.links, expected, 'the deprecated alias');
  assert.equal(created.headers.location, expected.self);
  const listed = (await app.inject({ method: 'GET', url: '/v1/crawls' })).json().items[0];
  assert.deepEqual(listed._links, expected);
  assert.deepEqual(listed.links, expected, 'the deprecated alias');
  const status = (await app.inject({ method: 'GET', url: `/v1/crawls/${body.id}` })).json();
  assert.deepEqual(status._links, expected);
  assert.equal(typeof status.links, 'number', 'a status counts its links under `links`');

  const spec = JSON.parse(await generateOpenApi());
  const schemaOf = (path: string, method: string, code: string) => {
    const schema = spec.paths[path][method].responses[code].content['application/json'].schema;
    return schema.$ref ? spec.components.schemas[schema.$ref.split('/').pop()] : schema;
  };
  const createdSchema = schemaOf('/v1/crawls', 'post', '202');
  assert.equal(createdSchema.properties.links.deprecated, true);
  assert.notEqual(createdSchema.properties._links.deprecated, true);
  assert.equal(schemaOf('/v1/crawls', 'get', '200').properties.items.items.properties.links.deprecated, true);
});

test('unknown crawl ids are 404 problems; malformed ids are 400', async (t) => {
  const { app } = await build(t, { worker: false });
  const missing = await app.inject({ method: 'GET', url: '/v1/crawls/00000000-0000-4000-8000-000000000000' });
  assert.equal(missing.statusCode, 404);
  assert.match(missing.headers['content-type'] as string, /problem\+json/);
  const malformed = await app.inject({ method: 'GET', url: '/v1/crawls/not-a-uuid' });
  assert.equal(malformed.statusCode, 400);
  assert.equal(malformed.json().field, 'id');
});

test('a finished crawl pages through its results, shows a page and exports its graph', async (t) => {
  const { app } = await build(t);
  const created = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: crawlOf({ maxPages: 40, maxDepth: null }),
  });
  assert.equal(created.statusCode, 202, created.body);
  const body = created.json();
  assert.equal(body.status, 'queued');
  assert.equal(created.headers.location, body._links.self);
  const status = await waitForCrawl(app, body.id);
  assert.equal(status.status, 'completed');
  assert.equal(status.pagesFetched, 40, 'maxPages caps the pages fetched');

  const seen = new Set<number>();
  let next: string | null = `/v1/crawls/${body.id}/pages?limit=7`;
  let pagesRead = 0;
  while (next) {
    const response: { statusCode: number; json(): unknown } = await app.inject({ method: 'GET', url: next });
    assert.equal(response.statusCode, 200);
    const list = response.json() as { items: Array<{ id: number }>; next: string | null };
    assert.ok(list.items.length <= 7);
    for (const item of list.items) {
      assert.ok(!seen.has(item.id), 'no page twice across pages of results');
      seen.add(item.id);
    }
    pagesRead++;
    next = list.next;
  }
  const total = Object.values(status.counts as Record<string, number>).reduce((a, b) => a + b, 0);
  assert.equal(seen.size, total);
  assert.ok(pagesRead > 1);

  const html = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${body.id}/pages?type=HTML&limit=1000` })
  ).json();
  assert.ok(html.items.length > 0 && html.items.every((p: { type: string }) => p.type === 'HTML'));
  const first = html.items[0];
  const detail = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${body.id}/pages/${first.id}?include=html` })
  ).json();
  assert.equal(detail.url, first.url);
  assert.match(detail.html, /<html/i);
  assert.ok(detail.outlinks.length > 0);

  const edges = await app.inject({ method: 'GET', url: `/v1/crawls/${body.id}/graph?format=edges` });
  assert.match(edges.headers['content-type'] as string, /^text\/plain/);
  const lines = edges.body.trim().split('\n');
  const vertexCount = Number(lines[0]);
  const vertices = new Set(lines.slice(1).flatMap((line) => line.split(' ')));
  assert.ok(vertices.size <= vertexCount);
  // edges: the crawl's links less those to pages robots.txt forbids, which are not vertices
  assert.ok(lines.length - 1 <= (status.links as number));
  const json = (await app.inject({ method: 'GET', url: `/v1/crawls/${body.id}/graph?format=json` })).json();
  assert.equal(json.vertices.length, vertexCount);
  assert.equal(json.edges.length, lines.length - 1);
  const disallowed = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${body.id}/pages?type=DISALLOWED&limit=1000` })
  ).json();
  const forbidden = new Set(disallowed.items.map((p: { id: number }) => p.id));
  assert.ok(forbidden.size > 0, 'the crawl met pages robots.txt forbids');
  assert.ok(json.vertices.every((v: { id: number }) => !forbidden.has(v.id)));
  assert.ok(json.edges.every(([from, to]: [number, number]) => !forbidden.has(from) && !forbidden.has(to)));

  const listed = (await app.inject({ method: 'GET', url: '/v1/crawls' })).json();
  assert.equal(listed.items[0].id, body.id);
  const again = await app.inject({ method: 'DELETE', url: `/v1/crawls/${body.id}` });
  assert.equal(again.statusCode, 409, 'a finished crawl cannot be cancelled');
});

test('DELETE cancels a running crawl quickly and keeps what was fetched', async (t) => {
  const { app, runtime } = await build(t);
  const created = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: crawlOf({ politeness: { delayMs: 200 }, maxPages: 1000 }),
  });
  const { id } = created.json();
  await eventually(
    async () => (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json().pagesFetched >= 3,
    { message: `crawl ${id} to fetch 3 pages`, timeoutMs: 60_000 },
  );
  const cancelled = await app.inject({ method: 'DELETE', url: `/v1/crawls/${id}` });
  assert.equal(cancelled.statusCode, 200);
  assert.equal(cancelled.json().status, 'cancelled');
  const fetchedAtCancel = cancelled.json().pagesFetched;
  // Absence of later fetches is only meaningful once the runner has had its chance to fetch more: its job
  // ends after it saw the cancel and drained the fetches in flight, so wait for no runner job to be left.
  const crawlQueue = runtime.jobs.queue(CRAWL_QUEUE);
  await eventually(
    async () => {
      const counts = await crawlQueue.getJobCounts('active', 'waiting', 'delayed');
      return Object.values(counts).every((count) => count === 0) ? counts : undefined;
    },
    { message: `the runner jobs of crawl ${id} to end after the cancel`, timeoutMs: 60_000 },
  );
  const later = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json();
  assert.equal(later.status, 'cancelled');
  // requests in flight at the cancel may still land; nothing after them
  assert.ok(later.pagesFetched <= fetchedAtCancel + 2, `${later.pagesFetched} vs ${fetchedAtCancel}`);
  assert.ok(later.pagesFetched >= 3, 'pages fetched before the cancel are kept');
});
