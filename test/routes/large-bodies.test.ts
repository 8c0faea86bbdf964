// Bodies over 64 KiB of POST /v1/score and /v1/extract are parsed and validated on the CPU pool (plugins/
// large-json-body.ts): a client gets the very answer a small body with the same fault gets — bad JSON,
// __proto__, text PostgreSQL cannot store, a schema error naming its field — and a good large body works.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { build } from '../helper.js';

const PAD = 'river '.repeat(14_000); // 84 KB: over the pool's threshold

/** The answer without what differs by request (the instance path is the same route anyway). */
async function answer(app: FastifyInstance, url: string, payload: string) {
  const response = await app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': 'application/json' },
  });
  return { status: response.statusCode, type: response.headers['content-type'], body: response.json() };
}

test('large bodies are read on the pool and refused exactly as small ones', {
  timeout: 240_000,
}, async (t) => {
  const { app, runtime } = await build(t, { worker: false, env: { CPU_POOL_THREADS: '1' } });
  const cases: Array<{ name: string; url: string; body: (text: string) => string }> = [
    {
      name: 'not JSON',
      url: '/v1/score',
      body: (text) => `{"query":"river","documents":[{"text":"${text}"}]`,
    },
    {
      name: 'prototype poisoning',
      url: '/v1/score',
      body: (text) => `{"__proto__":{"admin":true},"query":"river","documents":[{"text":"${text}"}]}`,
    },
    {
      name: 'NUL in a document',
      url: '/v1/score',
      body: (text) => `{"query":"river","documents":[{"text":"\\u0000${text}"}]}`,
    },
    {
      name: 'an unknown field',
      url: '/v1/score',
      body: (text) => `{"query":"river","documents":[{"text":"${text}"}],"bogus":1}`,
    },
    {
      name: 'a string where the schema wants an array',
      url: '/v1/score',
      body: (text) => `{"query":"river","documents":"${text}"}`,
    },
    {
      name: 'an unknown extraction method',
      url: '/v1/extract',
      body: (text) => `{"html":"<p>${text}</p>","method":"magic"}`,
    },
  ];
  for (const { name, url, body } of cases) {
    const small = await answer(app, url, body('river'));
    const before = runtime.cpu.tasksOnThreads.total;
    const large = await answer(app, url, body(PAD));
    assert.equal(runtime.cpu.tasksOnThreads.total, before + 1, `${name}: the large body went to the pool`);
    assert.ok(small.status >= 400 && small.status < 500, `${name}: ${JSON.stringify(small)}`);
    assert.match(String(small.type), /^application\/problem\+json/);
    assert.deepEqual(large, small, name);
  }

  // good large bodies are answered as small ones are
  const scored = await answer(app, '/v1/score', `{"query":"river","documents":[{"text":"${PAD}"}]}`);
  assert.equal(scored.status, 200, JSON.stringify(scored.body));
  assert.equal(scored.body.results[0].score, 1);
  const extracted = await answer(app, '/v1/extract', `{"html":"<html><body><p>${PAD}</p></body></html>"}`);
  assert.equal(extracted.status, 200, JSON.stringify(extracted.body).slice(0, 300));
  assert.ok(extracted.body.wordCount >= 14_000);
});
