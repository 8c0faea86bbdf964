// Property-based fuzzing of the whole HTTP surface (fast-check, seeded, bounded): mutated bodies, query
// strings, cursors, ids and methods go to every route, and every answer must be below 500 and, when it is an
// error, application/problem+json with a matching status. No worker runs, limits are raised, one admin key is
// made beforehand, and every URL the fuzzer can produce is on loopback port 9 (refused at once): no DNS.
// FUZZ_RUNS and FUZZ_SEED override the bounds (e.g. a longer run with another seed when hunting).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { build } from '../helper.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD';

const SEED = 'http://127.0.0.1:9/';
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED_VALUE = Number(process.env.FUZZ_SEED ?? 20261123);

interface Request {
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Percent-encodes as a browser would, but lets a lone surrogate through as U+FFFD instead of throwing. */
const encode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

// --- values ---------------------------------------------------------------------------------------------

const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.constantFrom('\u0000', '\ud800', 'a\udc00', 'x\u0000y', '', ' ', '100', 'true', 'null', 'ftp://x'),
  fc.constantFrom('-pageRank', '-inDegree', '-score', 'html,text', 'gexf', 'json', 'edges', 'HTML'),
);
const oddNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1.5, 1e10, 1e308, -1e308, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e20),
);
const oddValue: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: oddString, weight: 4 },
  { arbitrary: oddNumber, weight: 3 },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, weight: 2 },
  { arbitrary: fc.constantFrom<Json>(null, true, false, [], {}, [SEED], { url: SEED }), weight: 1 },
);

const oddDate = fc.oneof(
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom('2000', '1', '+275760-09-13T00:00:00.000Z', '0000-01-01T00:00:00.000Z', 'now'),
  fc.string({ maxLength: 30 }),
);
const cursor = fc.oneof(
  fc.record({ createdAt: oddDate, id: fc.oneof(fc.uuid(), oddString) }).map(base64url),
  fc
    .record(
      { after: fc.oneof(fc.nat(), oddNumber, oddString), score: fc.oneof(oddNumber, fc.constant(null)) },
      {
        requiredKeys: ['after'],
      },
    )
    .map(base64url),
  fc.tuple(oddNumber, oddString).map(base64url),
  oddValue.map(base64url),
  oddString,
);

// --- bodies: a valid request, then up to three mutations at random paths ------------------------------------

function pathsOf(value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const paths: Array<Array<string | number>> = [prefix];
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) paths.push(...pathsOf(item, [...prefix, i]));
  } else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...prefix, key]));
  return paths;
}

type Mutation =
  | { kind: 'set'; at: number; value: Json }
  | { kind: 'delete'; at: number }
  | { kind: 'add'; at: number; key: string; value: Json };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: oddValue }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('add' as const),
    at: fc.nat(),
    key: fc.oneof(oddString, fc.constantFrom('seeds', 'edges', 'name', 'query', 'url', '__proto__')),
    value: oddValue,
  }),
);

function mutate(body: Json, mutations: Mutation[]): Json {
  let result = structuredClone(body);
  for (const change of mutations) {
    const paths = pathsOf(result);
    const path = paths[change.at % paths.length]!;
    if (path.length === 0) {
      if (change.kind === 'set') result = change.value;
      else if (
        change.kind === 'add' &&
        result !== null &&
        typeof result === 'object' &&
        !Array.isArray(result)
      )
        result[change.key] = change.value;
      continue;
    }
    let parent = result as Record<string | number, Json>;
    for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, Json>;
    const last = path[path.length - 1]!;
    if (change.kind === 'set') parent[last] = change.value;
    else if (change.kind === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else {
      const target = parent[last];
      if (target !== null && typeof target === 'object' && !Array.isArray(target))
        target[change.key] = change.value;
      else if (Array.isArray(target)) target.push(change.value);
    }
  }
  return result;
}

const jsonBody = (valid: Json) =>
  fc.oneof(
    { arbitrary: fc.constant(JSON.stringify(valid)), weight: 1 },
    {
      arbitrary: fc
        .array(mutation, { minLength: 1, maxLength: 3 })
        .map((changes) => JSON.stringify(mutate(valid, changes))),
      weight: 6,
    },
    // not JSON at all, or cut short
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
    { arbitrary: fc.nat().map((n) => JSON.stringify(valid).slice(0, n % 40)), weight: 1 },
  );

const contentType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      'multipart/form-data; boundary=x',
      '',
    ),
    weight: 1,
  },
);

// --- routes ---------------------------------------------------------------------------------------------

interface Fixtures {
  crawlId: string;
  endedCrawlId: string;
  rankingId: string;
  corpusId: string;
  keyId: string;
}

interface Route {
  method: Method;
  path: string;
  query: string[];
  body?: Json;
  /** Path parameter name → the id of a real resource to use most of the time. */
  ids?: Record<string, keyof Fixtures | 'pageId'>;
}

const ROUTES: Route[] = [
  { method: 'GET', path: '/healthz', query: [] },
  { method: 'GET', path: '/readyz', query: [] },
  { method: 'GET', path: '/metrics', query: [] },
  {
    method: 'POST',
    path: '/v1/crawls',
    query: [],
    body: {
      seeds: [SEED],
      maxPages: 5,
      maxDepth: 1,
      topics: ['otters'],
      politeness: { delayMs: 0, userAgent: 'fuzz-bot' },
      scope: { include: ['127'], exclude: ['private'] },
      webhook: { url: SEED, events: ['completed'], headers: { 'x-fuzz': 'yes' }, secret: 'abcdefghij' },
    },
  },
  { method: 'GET', path: '/v1/crawls', query: ['limit', 'cursor'] },
  { method: 'GET', path: '/v1/crawls/:id', query: [], ids: { id: 'crawlId' } },
  { method: 'DELETE', path: '/v1/crawls/:id', query: [], ids: { id: 'crawlId' } },
  // the live stream of an ended crawl closes after its status event; a running one would stream on
  { method: 'GET', path: '/v1/crawls/:id/events', query: ['pages'], ids: { id: 'endedCrawlId' } },
  {
    method: 'GET',
    path: '/v1/crawls/:id/webhooks',
    query: ['limit', 'cursor', 'after'],
    ids: { id: 'crawlId' },
  },
  {
    method: 'GET',
    path: '/v1/crawls/:id/pages',
    query: ['limit', 'cursor', 'type', 'status', 'host', 'minScore', 'sort'],
    ids: { id: 'crawlId' },
  },
  {
    method: 'GET',
    path: '/v1/crawls/:id/pages/:pageId',
    query: ['include'],
    ids: { id: 'crawlId', pageId: 'pageId' },
  },
  { method: 'GET', path: '/v1/crawls/:id/hosts', query: ['limit'], ids: { id: 'crawlId' } },
  { method: 'GET', path: '/v1/crawls/:id/graph', query: ['format'], ids: { id: 'crawlId' } },
  {
    method: 'POST',
    path: '/v1/crawls/:id/rank',
    query: [],
    body: { damping: 0.85, topK: 5 },
    ids: { id: 'crawlId' },
  },
  { method: 'GET', path: '/v1/crawls/:id/stats/words', query: ['top'], ids: { id: 'crawlId' } },
  { method: 'GET', path: '/v1/crawls/:id/stats/words.svg', query: ['top'], ids: { id: 'crawlId' } },
  { method: 'GET', path: '/v1/crawls/:id/stats/load-times.svg', query: [], ids: { id: 'crawlId' } },
  {
    method: 'POST',
    path: '/v1/rankings',
    query: ['damping', 'epsilon', 'maxIterations', 'topK', 'jaccardK', 'selfLoops', 'duplicateEdges'],
    body: {
      edges: [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
      ],
      damping: 0.85,
      personalization: ['a'],
    },
  },
  { method: 'GET', path: '/v1/rankings/:id', query: [], ids: { id: 'rankingId' } },
  {
    method: 'GET',
    path: '/v1/rankings/:id/vertices',
    query: ['name', 'sort', 'limit', 'cursor'],
    ids: { id: 'rankingId' },
  },
  {
    method: 'POST',
    path: '/v1/extract',
    query: [],
    body: { html: '<p>Otters hold hands.</p>', baseUrl: SEED },
  },
  { method: 'POST', path: '/v1/extract', query: [], body: { url: SEED } },
  {
    method: 'POST',
    path: '/v1/score',
    query: [],
    body: {
      query: 'otter (river sea)',
      documents: [{ text: 'a river otter' }, { html: '<p>sea</p>', url: SEED }],
    },
  },
  { method: 'POST', path: '/v1/score', query: [], body: { query: 'otter', documents: [{ url: SEED }] } },
  { method: 'POST', path: '/v1/corpora', query: [], body: { name: 'fuzz', documents: [{ text: 'a b c' }] } },
  { method: 'GET', path: '/v1/corpora', query: ['limit', 'cursor'] },
  { method: 'GET', path: '/v1/corpora/:id', query: [], ids: { id: 'corpusId' } },
  { method: 'POST', path: '/v1/keys', query: [], body: { name: 'fuzz', admin: false } },
  { method: 'GET', path: '/v1/keys', query: [] },
  { method: 'DELETE', path: '/v1/keys/:id', query: [], ids: { id: 'keyId' } },
];

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

function idArbitrary(real: string) {
  return fc.oneof(
    { arbitrary: fc.constant(real), weight: 6 },
    { arbitrary: fc.uuid().map(String), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map(encode), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '%E0%A4%A',
        '%00',
        '%ED%A0%80',
        '%FF',
        '..',
        'a'.repeat(120),
        '99999999999999999999',
        '-1',
        '1.5',
        '0',
      ),
      weight: 1,
    },
  );
}

function requestArbitrary(route: Route, fixtures: Fixtures, key: string): fc.Arbitrary<Request> {
  const params = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const paramArbs = params.map((name) => {
    const fixture = route.ids?.[name];
    return fixture === 'pageId'
      ? fc.oneof(
          fc.constantFrom('1', '2'),
          fc.bigInt({ min: -10n, max: 10n ** 22n }).map(String),
          oddString.map(encode),
        )
      : idArbitrary(fixture ? fixtures[fixture] : '');
  });
  const queryValue = fc.oneof(
    { arbitrary: oddString.map(encode), weight: 3 },
    { arbitrary: oddNumber.map(String), weight: 2 },
    { arbitrary: cursor.map(encode), weight: 2 },
    { arbitrary: fc.constantFrom('%00', '%ED%A0%80', '%E0%A4%A', '%FF', ''), weight: 1 },
  );
  const queryName = fc.oneof(
    { arbitrary: fc.constantFrom(...(route.query.length > 0 ? route.query : ['x'])), weight: 5 },
    { arbitrary: oddString.map(encode), weight: 1 },
  );
  const query = fc.array(fc.tuple(queryName, queryValue), { maxLength: 4 });
  const method = fc.oneof(
    { arbitrary: fc.constant(route.method), weight: 8 },
    { arbitrary: fc.constantFrom(...METHODS), weight: 1 },
  );
  const auth = fc.oneof(
    { arbitrary: fc.constant<Record<string, string>>({ authorization: `Bearer ${key}` }), weight: 12 },
    {
      arbitrary: fc.constantFrom<Record<string, string>>(
        {},
        { authorization: 'Bearer trawl_nope' },
        { authorization: 'Basic eDp5' },
      ),
      weight: 1,
    },
  );
  const body =
    route.body === undefined
      ? fc.constant(undefined)
      : fc.option(jsonBody(route.body), { freq: 12, nil: undefined });
  return fc
    .record({ params: fc.tuple(...paramArbs), query, method, auth, body, contentType })
    .map(
      ({ params: values, query: pairs, method: chosen, auth: headers, body: payload, contentType: type }) => {
        let path = route.path;
        params.forEach((name, i) => {
          path = path.replace(`:${name}`, values[i]!);
        });
        const search = pairs.map(([name, value]) => `${name}=${value}`).join('&');
        const request: Request = {
          method: chosen,
          url: search ? `${path}?${search}` : path,
          headers: { ...headers },
        };
        if (payload !== undefined && chosen !== 'GET' && chosen !== 'HEAD') {
          request.payload = payload;
          if (type) request.headers['content-type'] = type;
        }
        return request;
      },
    );
}

async function send(app: FastifyInstance, request: Request) {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in 30 s: ${JSON.stringify(request)}`)), 30_000);
  });
  try {
    return await Promise.race([app.inject(request), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function checkAnswer(request: Request, response: Awaited<ReturnType<FastifyInstance['inject']>>) {
  const what = `${request.method} ${request.url} ${request.payload?.slice(0, 300) ?? ''} → ${response.statusCode} ${response.body.slice(0, 300)}`;
  assert.ok(response.statusCode < 500, what);
  if (response.statusCode < 400) return;
  assert.match(String(response.headers['content-type']), /^application\/problem\+json/, what);
  if (request.method === 'HEAD') return;
  const problem = response.json() as { status: number; type: string; title: string };
  assert.equal(problem.status, response.statusCode, what);
  assert.equal(typeof problem.type, 'string', what);
  assert.equal(typeof problem.title, 'string', what);
}

test(`fuzz: ${RUNS} mutated requests to every route answer < 500, errors as problem+json (seed ${SEED_VALUE})`, async (t) => {
  const { app, runtime } = await build(t, {
    worker: false,
    env: {
      RATE_LIMIT_READ_PER_MIN: '1000000',
      RATE_LIMIT_CREATE_PER_MIN: '1000000',
      MAX_RUNNING_CRAWLS_PER_KEY: '100000',
    },
  });
  const { key } = await runtime.keys.create({ name: 'fuzz', admin: true });
  const auth = { authorization: `Bearer ${key}` };
  const created = async (url: string, payload: Json) => {
    const response = await app.inject({ method: 'POST', url, payload: payload as object, headers: auth });
    assert.ok(response.statusCode < 300, `${url}: ${response.body}`);
    return response.json().id as string;
  };
  const fixtures: Fixtures = {
    crawlId: await created('/v1/crawls', { seeds: [SEED] }),
    endedCrawlId: await created('/v1/crawls', { seeds: [SEED] }),
    rankingId: await created('/v1/rankings', {
      edges: [
        ['a', 'b'],
        ['b', 'a'],
      ],
    }),
    corpusId: await created('/v1/corpora', { name: 'fixture', documents: [{ text: 'a b' }] }),
    keyId: (await runtime.keys.create({ name: 'to revoke' })).id,
  };
  await app.inject({ method: 'DELETE', url: `/v1/crawls/${fixtures.endedCrawlId}`, headers: auth });

  // every valid base request is accepted, so the mutations start from requests that reach the services
  for (const route of ROUTES) {
    if (route.body === undefined) continue;
    const url = route.path.replace(':id', fixtures.crawlId);
    const response = await app.inject({
      method: route.method,
      url,
      payload: route.body as object,
      headers: auth,
    });
    assert.ok(
      response.statusCode < 300 || response.statusCode === 422,
      `${url}: ${response.statusCode} ${response.body}`,
    );
  }

  const anyRequest = fc.oneof(...ROUTES.map((route) => requestArbitrary(route, fixtures, key)));
  const counts = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(anyRequest, async (request) => {
      const response = await send(app, request);
      counts.set(response.statusCode, (counts.get(response.statusCode) ?? 0) + 1);
      checkAnswer(request, response);
    }),
    { seed: SEED_VALUE, numRuns: RUNS, endOnFailure: true },
  );
  t.diagnostic(`statuses: ${JSON.stringify(Object.fromEntries([...counts].sort(([a], [b]) => a - b)))}`);
  // the fuzzer reached past validation: some requests succeeded, many were refused
  assert.ok([...counts.keys()].some((status) => status < 300));
  assert.ok((counts.get(400) ?? 0) > RUNS / 10);
});
