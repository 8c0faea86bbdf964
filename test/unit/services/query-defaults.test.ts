// Query-string defaults are filled once, from the schema, by the app's validator (serverOptions in app.ts):
// a handler reads a Defaulted() field as present. Bodies are left as sent (their defaults are the services').
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { serverOptions } from '../../../src/app.js';
import { Defaulted } from '../../../src/schemas/common.js';
import { PageListQuery } from '../../../src/schemas/crawls.js';
import { WebhookDeliveriesQuery } from '../../../src/schemas/live.js';
import { VerticesQuery } from '../../../src/schemas/rankings.js';

async function echo(t: { after(fn: () => unknown): void }) {
  const app = Fastify(serverOptions(false));
  t.after(() => app.close());
  for (const [path, querystring] of [
    ['/pages', PageListQuery],
    ['/webhooks', WebhookDeliveriesQuery],
    ['/vertices', VerticesQuery],
  ] as const) {
    app.get(path, { schema: { querystring } }, async (request) => request.query);
  }
  const body = Type.Object({ n: Defaulted(Type.Integer({ default: 7 })) });
  app.post('/body', { schema: { body } }, async (request) => request.body);
  return app;
}

test('a query string left out gets its schema defaults; one given keeps its values', async (t) => {
  const app = await echo(t);
  const get = async (url: string) => (await app.inject({ method: 'GET', url })).json();
  assert.deepEqual(await get('/pages'), { limit: 50, sort: 'id' });
  assert.deepEqual(await get('/pages?limit=3&sort=-score&type=HTML'), {
    limit: 3,
    sort: '-score',
    type: 'HTML',
  });
  assert.deepEqual(await get('/webhooks'), { limit: 100 });
  assert.deepEqual(await get('/vertices?cursor=abc'), { sort: '-pageRank', limit: 50, cursor: 'abc' });
});

test('a body is left as sent: its defaults are not filled in', async (t) => {
  const app = await echo(t);
  const sent = await app.inject({ method: 'POST', url: '/body', payload: {} });
  assert.deepEqual(sent.json(), {});
});

test('Defaulted() refuses a schema without a default', () => {
  assert.throws(() => Defaulted(Type.Integer()), /no default/);
});
