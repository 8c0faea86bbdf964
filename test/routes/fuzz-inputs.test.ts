// The input corpus that once answered 5xx, replayed against every route the app documents: non-finite and
// out-of-range numbers in every numeric query or path parameter (and odd text in every other), JSON nested
// past any schema to every JSON body, a NUL in every text/plain upload, Fastify's body errors; and, on raw
// sockets, what Node's HTTP parser refuses before routing. Routes are read from the app's own OpenAPI
// document, so a new route or parameter is fuzzed too. No answer may be a 5xx; every error is a 4xx
// application/problem+json with a trawl problem type, naming the field where there is one.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { type TestContext, test } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { build } from '../helper.js';

type Response = Awaited<ReturnType<FastifyInstance['inject']>>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: { type?: string; anyOf?: Array<{ type?: string }> };
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, unknown> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}
interface Route {
  method: string;
  path: string;
  operation: Operation;
}

const SEED = 'http://127.0.0.1:9/';
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
const PLACEHOLDER = 'PLACEHOLDER';

/** Every operation the app documents (GET, POST, DELETE, …) with its parameters and body types. */
function routesOf(app: FastifyInstance): Route[] {
  const spec = (
    app as unknown as { swagger(): { paths: Record<string, Record<string, Operation>> } }
  ).swagger();
  return Object.entries(spec.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      operation,
    })),
  );
}

const isNumeric = (schema: Parameter['schema']) =>
  ['integer', 'number'].includes(schema.type ?? '') ||
  (schema.anyOf ?? []).some((branch) => ['integer', 'number'].includes(branch.type ?? ''));

/** Fills `{id}`-style path parameters with ids that exist, so a request reaches the parameter under test. */
function urlOf(path: string, ids: Record<string, string>, override: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = override[name] ?? ids[name];
    assert.ok(value !== undefined, `no id to fill {${name}} in ${path}: add one to the test`);
    return encodeURIComponent(value);
  });
}

function assertProblem(response: Response, label: string, field?: string) {
  assert.ok(
    response.statusCode >= 400 && response.statusCode < 500,
    `${label}: ${response.statusCode} ${response.body}`,
  );
  assert.match(String(response.headers['content-type']), /^application\/problem\+json/, label);
  const problem = response.json() as { status: number; field?: string; type: string; detail?: string };
  assert.equal(problem.status, response.statusCode, label);
  assert.doesNotMatch(
    problem.type,
    /fst|err_|hpe/i,
    `${label}: a problem type names trawl's kind, not a framework code`,
  );
  if (field !== undefined) assert.equal(problem.field, field, `${label}: ${response.body}`);
  return problem;
}

type Inject = (options: InjectOptions) => Promise<Response>;

/**
 * The app, a request function that sends an admin key (so every route, /v1/keys included, reaches its input
 * checks) and ids that exist (a crawl, a ranking, a corpus) for the routes' path parameters.
 */
async function setUp(t: TestContext) {
  const { app, runtime } = await build(t, { worker: false });
  const { key } = await runtime.keys.create({ name: 'fuzz', admin: true });
  const inject: Inject = (options) =>
    app.inject({ ...options, headers: { authorization: `Bearer ${key}`, ...options.headers } });
  const post = async (url: string, payload: object) => {
    const response = await inject({ method: 'POST', url, payload });
    assert.ok(response.statusCode < 300, `${url}: ${response.body}`);
    return response.json().id as string;
  };
  const ids = {
    crawl: await post('/v1/crawls', { seeds: [SEED] }),
    ranking: await post('/v1/rankings', { edges: [['a', 'b']] }),
    corpus: await post('/v1/corpora', { name: 'fuzz', documents: [{ text: 'a b c' }] }),
    pageId: '1',
  };
  return { app, inject, ids };
}

/** The id a path's `{id}` names: a crawl's under /v1/crawls, and so on. */
function idsFor(path: string, ids: Record<string, string>): Record<string, string> {
  const collection = path.split('/')[2];
  const id = collection === 'rankings' ? ids.ranking : collection === 'corpora' ? ids.corpus : ids.crawl;
  return { id: id!, pageId: ids.pageId! };
}

/** A body each route with numeric query parameters takes, so the query is what the request is judged on. */
const VALID_BODIES: Record<string, { type: string; payload: string }> = {
  'POST /v1/rankings': { type: 'application/json', payload: JSON.stringify({ edges: [['a', 'b']] }) },
};

const NOT_FINITE = ['Infinity', '-Infinity', '1e309', '1e400', '-1e400', 'NaN', 'infinity', '0x', 'abc'];
// numbers that are finite but may be out of range, fractional or empty: a 2xx where the parameter takes them
const ODD = ['1.5', '-1', '0', '99999999999999999999', '9007199254740993', '1e3', '', ' ', '+1', '0x10'];

test('every numeric query or path parameter: a non-finite or non-number value is a 400 naming it', async (t) => {
  const { app, inject, ids } = await setUp(t);
  let checked = 0;
  for (const { method, path, operation } of routesOf(app)) {
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in === 'header' || !isNumeric(parameter.schema)) continue;
      const body = operation.requestBody ? VALID_BODIES[`${method} ${path}`] : undefined;
      assert.ok(!operation.requestBody || body, `${method} ${path}: add a valid body to VALID_BODIES`);
      const send = (value: string) => {
        const pathIds = idsFor(path, ids);
        const url =
          parameter.in === 'path'
            ? urlOf(path, pathIds, { [parameter.name]: value })
            : `${urlOf(path, pathIds)}?${parameter.name}=${encodeURIComponent(value)}`;
        return inject({
          method: method as 'GET',
          url,
          ...(body ? { headers: { 'content-type': body.type }, payload: body.payload } : {}),
        });
      };
      for (const value of NOT_FINITE) {
        const label: string = `${method} ${path} ${parameter.in} ${parameter.name}=${value}`;
        const problem = assertProblem(await send(value), label, parameter.name);
        assert.equal(problem.status, 400, label);
        checked++;
      }
      for (const value of ODD) {
        // an empty path segment routes elsewhere (a list, or no route): any answer but a 5xx
        if (parameter.in === 'path' && value.trim() === '') continue;
        const response = await send(value);
        const label: string = `${method} ${path} ${parameter.in} ${parameter.name}=${JSON.stringify(value)}`;
        assert.ok(response.statusCode < 500, `${label}: ${response.statusCode} ${response.body}`);
        if (response.statusCode >= 400)
          assertProblem(response, label, response.statusCode === 400 ? parameter.name : undefined);
        checked++;
      }
    }
  }
  // the routes that once answered 500: list limits, page filters, the report's rows, page ids
  assert.ok(checked > 300, `only ${checked} requests: did the OpenAPI document lose its parameters?`);
});

test('every query and path parameter of every route, given the corpus: never a 5xx, every 4xx a problem', async (t) => {
  const { app, inject, ids } = await setUp(t);
  // percent-encoded as sent: a NUL, a UTF-16 surrogate's UTF-8 form (not UTF-8), a bad escape
  const corpus = [
    'Infinity',
    '-Infinity',
    '1e309',
    'NaN',
    '',
    '%00',
    '%ED%A0%80',
    '%E0%A4%A',
    'a'.repeat(300),
    '-1',
    '1.5',
  ];
  let checked = 0;
  for (const { method, path, operation } of routesOf(app)) {
    const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in !== 'header');
    const body = operation.requestBody ? VALID_BODIES[`${method} ${path}`] : undefined;
    // an event stream that is found never ends: its routes are asked about a crawl that does not exist
    const streams = Object.keys(operation.responses?.['200']?.content ?? {}).includes('text/event-stream');
    const pathIds = streams ? { id: ZERO_UUID, pageId: '1' } : idsFor(path, ids);
    for (const parameter of parameters) {
      for (const value of corpus) {
        if (parameter.in === 'path' && value === '') continue;
        const url =
          parameter.in === 'path'
            ? urlOf(path, { ...pathIds, [parameter.name]: PLACEHOLDER }).replace(PLACEHOLDER, value)
            : `${urlOf(path, pathIds)}?${parameter.name}=${value}`;
        const response = await inject({
          method: method as 'GET',
          url,
          ...(body ? { headers: { 'content-type': body.type }, payload: body.payload } : {}),
        });
        const label: string = `${method} ${path} ${parameter.in} ${parameter.name}=${JSON.stringify(value).slice(0, 20)}`;
        assert.ok(response.statusCode < 500, `${label}: ${response.statusCode} ${response.body}`);
        if (response.statusCode >= 400) assertProblem(response, label);
        checked++;
      }
    }
  }
  assert.ok(checked > 400, `only ${checked} requests`);
});

test('JSON nested far past any schema, to every JSON body: a 400 naming the depth limit', async (t) => {
  const { app, inject, ids } = await setUp(t);
  const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const deepObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  // 1,000 deep stays under the CPU pool's threshold (parsed on the event loop); 100,000 deep goes over it
  const bodies = [deepArrays(1000), deepObjects(1000), deepArrays(100_000), deepObjects(100_000)];
  let checked = 0;
  for (const { method, path, operation } of routesOf(app)) {
    if (!operation.requestBody?.content['application/json']) continue;
    for (const payload of bodies) {
      const response = await inject({
        method: method as 'POST',
        url: urlOf(path, idsFor(path, ids)),
        headers: { 'content-type': 'application/json' },
        payload,
      });
      const label = `${method} ${path} ${payload.slice(0, 10)}… (${payload.length} characters)`;
      const problem = assertProblem(response, label, 'body') as { status: number; maxDepth?: number };
      assert.equal(problem.status, 400, label);
      assert.equal(problem.maxDepth, 64, label);
      checked++;
    }
  }
  // crawls, a crawl's rank, rankings, extract, score, corpora, keys
  assert.ok(checked >= 7 * bodies.length, `only ${checked} requests`);
});

test('a NUL in every text/plain upload is a 400 naming the line, as the same NUL in JSON is', async (t) => {
  const { app, inject, ids } = await setUp(t);
  let checked = 0;
  for (const { method, path, operation } of routesOf(app)) {
    if (!operation.requestBody?.content['text/plain']) continue;
    for (const payload of ['2\na\0 b\n', '2\na b\0\n', '3\na b\n\0c a\n']) {
      const response = await inject({
        method: method as 'POST',
        url: urlOf(path, idsFor(path, ids)),
        headers: { 'content-type': 'text/plain' },
        payload,
      });
      const label = `${method} ${path} ${JSON.stringify(payload)}`;
      const problem = assertProblem(response, label, 'body') as { detail: string; line?: number };
      assert.match(problem.detail, /NUL/, label);
      assert.equal(problem.line, payload.split('\n').findIndex((line) => line.includes('\0')) + 1, label);
      checked++;
    }
  }
  assert.ok(checked >= 3, `only ${checked} requests`);
});

/** Writes `raw` to the listening app and reads the answer until the server closes the connection (every request asks it to). */
function exchange(port: number, raw: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    // bounds a hang only: the server answers each of these at once
    socket.setTimeout(30_000, () =>
      socket.destroy(new Error(`no answer within 30 s to ${JSON.stringify(raw.slice(0, 60))}`)),
    );
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    // not ended: a client that half-closes has gone, and its answer may rightly be dropped
    socket.write(raw);
  });
}

function parseResponse(text: string) {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: split < 0 ? '' : text.slice(split + 4) };
}

test('errors raised below routing (methods, framing, header size, Expect, garbage) are problem+json', async (t) => {
  const { app } = await build(t, { worker: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const request = (line: string, ...headers: string[]) =>
    `${line}\r\n${['Host: fuzz', 'Connection: close', ...headers].join('\r\n')}\r\n\r\n`;
  const corpus: Array<[string | Buffer, number]> = [
    [request('FOO / HTTP/1.1'), 400],
    [request('PROPFIND /v1/crawls HTTP/1.1'), 405],
    [request('SEARCH /v1/nothing HTTP/1.1'), 404],
    [request('PURGE /v1/nothing HTTP/1.1'), 404],
    [request('PURGE / HTTP/1.1'), 405],
    [request('BREW /v1/crawls HTTP/1.1'), 400],
    [request('GET /v1/crawls/%E0%A4%A HTTP/1.1'), 400],
    [request('GET /v1/crawls HTTP/1.1', `X-Big: ${'a'.repeat(20_000)}`), 431],
    [request(`GET /v1/crawls?cursor=${'a'.repeat(20_000)} HTTP/1.1`), 431],
    [request('GET /v1/crawls HTTP/1.1', 'Expect: foo'), 417],
    [request('POST /v1/crawls HTTP/1.1', 'Expect: 200-ok', 'Content-Length: 0'), 417],
    ['garbage\r\n\r\n', 400],
    [Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03]), 400],
    [request('GET / HTTP/9.9'), 400],
    [request('GET /a b c HTTP/1.1'), 400],
    [request('GET / HTTP/1.1', 'X-A: b\x01c'), 400],
    [request('GET / HTTP/1.1', 'Bad Header: x'), 400],
    [request('POST /v1/crawls HTTP/1.1', 'Content-Length: 5', 'Transfer-Encoding: chunked'), 400],
    [request('POST /v1/crawls HTTP/1.1', 'Content-Length: abc'), 400],
    [request('POST /v1/crawls HTTP/1.1', 'Content-Length: 1', 'Content-Length: 2'), 400],
    [
      `${request('POST /v1/crawls HTTP/1.1', 'Transfer-Encoding: chunked', 'Content-Type: application/json')}zz\r\n`,
      400,
    ],
  ];
  const failures: string[] = [];
  for (const [raw, status] of corpus) {
    try {
      await checkOne(raw, status);
    } catch (error) {
      failures.push((error as Error).message.split('\n')[0]!);
    }
  }
  assert.deepEqual(failures, []);
  async function checkOne(raw: string | Buffer, status: number) {
    const label = JSON.stringify(raw.toString('latin1').slice(0, 70));
    const response = parseResponse(await exchange(port, raw));
    assert.equal(response.status, status, `${label}: ${response.status} ${response.body}`);
    assert.match(
      response.headers['content-type'] ?? '',
      /^application\/problem\+json/,
      `${label}: ${JSON.stringify(response.headers)}`,
    );
    const problem = JSON.parse(response.body) as { status: number; type: string; title: string };
    assert.equal(problem.status, status, label);
    assert.match(problem.type, /^urn:trawl:problem:[a-z-]+$/, label);
    assert.doesNotMatch(
      problem.type,
      /fst|err-|hpe/,
      `${label}: a problem type names trawl's kind, not a framework code`,
    );
  }
});

test("Fastify's body errors carry trawl's problem types, on every route that takes a body", async (t) => {
  const { app, inject, ids } = await setUp(t);
  const tooLarge = JSON.stringify({ text: 'a'.repeat(8 * 1024 * 1024) });
  const corpus: Array<[string, string, number, string, string]> = [
    ['application/json', '{', 400, 'invalid-json', 'body'],
    ['application/json', '{"__proto__": {"admin": true}}', 400, 'invalid-json', 'body'],
    ['application/json', '', 400, 'empty-body', 'body'],
    ['application/xml', '<a/>', 415, 'unsupported-media-type', 'content-type'],
    ['application/json', tooLarge, 413, 'body-too-large', 'body'],
  ];
  let checked = 0;
  for (const { method, path, operation } of routesOf(app)) {
    if (!operation.requestBody) continue;
    for (const [type, payload, status, kind, field] of corpus) {
      const response = await inject({
        method: method as 'POST',
        url: urlOf(path, idsFor(path, ids)),
        headers: { 'content-type': type },
        payload,
      });
      const label = `${method} ${path} ${type} ${payload.slice(0, 30)}`;
      const problem = assertProblem(response, label, field);
      assert.equal(problem.status, status, `${label}: ${response.body}`);
      assert.equal(problem.type, `urn:trawl:problem:${kind}`, label);
      checked++;
    }
  }
  assert.ok(checked >= 7 * corpus.length, `only ${checked} requests`);
});
