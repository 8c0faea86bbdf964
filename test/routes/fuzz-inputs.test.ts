// The input corpus that once answered 5xx, replayed against every route the app documents: non-finite and
// out-of-range numbers in every numeric query or path parameter, JSON nested past any schema to every JSON
// body, a NUL in every text/plain upload. Routes are read from the app's own OpenAPI document, so a new route
// or parameter is fuzzed too. Every answer must be a 4xx application/problem+json naming the field.
import assert from 'node:assert/strict';
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
}
interface Route {
  method: string;
  path: string;
  operation: Operation;
}

const SEED = 'http://127.0.0.1:9/';

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
