// /v1/score and /v1/extract through the CPU pool's worker threads: the same answers as inline on the event
// loop (CPU_POOL_THREADS=0), the deadline's 422/503, and /healthz answering while a 5 MB document is scored.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { INLINE_MAX_CHARS } from '../../src/services/pools/cpu-pool.js';
import { build, eventually } from '../helper.js';
import { Rng } from '../support/testweb/random.js';

const rng = new Rng(5_151);
/** Sentences of the test web's words, past the pool's inline limit so a thread does the work. */
function prose(minChars: number): string {
  const sentences: string[] = [];
  let length = 0;
  while (length < minChars) {
    const sentence = `${rng.words(rng.between(6, 14)).join(' ')}.`;
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ');
}
const LARGE = INLINE_MAX_CHARS + 1000;
const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a></nav><h1>${title}</h1>${body
    .split('. ')
    .map((p) => `<p>${p}.</p>`)
    .join('\n')}<footer>Footer text</footer></body></html>`;
const FETCHED = page('Fetched page', `river harbour signal. ${prose(LARGE)}`);

let server: Server;
let origin: string;
before(async () => {
  server = createServer((request, response) => {
    if (request.url === '/robots.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end('');
    else if (request.url === '/large') response.writeHead(200, { 'content-type': 'text/html' }).end(FETCHED);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function createCorpus(app: FastifyInstance, texts: string[]): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/v1/corpora',
    payload: { name: 'pool', documents: texts.map((text) => ({ text })) },
  });
  assert.equal(created.statusCode, 202, created.body);
  const { id } = created.json() as { id: string };
  const { status } = await eventually(
    async () => {
      const body = (await app.inject({ method: 'GET', url: `/v1/corpora/${id}` })).json();
      return body.status === 'completed' || body.status === 'failed' ? body : undefined;
    },
    { message: `corpus ${id} to end`, timeoutMs: 60_000, intervalMs: 100 },
  );
  assert.equal(status, 'completed');
  return id;
}

test('/v1/score and /v1/extract answer the same through the worker threads as inline', async (t) => {
  const pooled = await build(t, { env: { CPU_POOL_THREADS: '1' } });
  const inline = await build(t, { env: { CPU_POOL_THREADS: '0' } });
  const corpusTexts = [prose(300), prose(300), 'river harbour signal lantern', prose(300)];
  const corpora = {
    pooled: await createCorpus(pooled.app, corpusTexts),
    inline: await createCorpus(inline.app, corpusTexts),
  };
  const similar = [{ text: `river harbour ${prose(2000)}` }, { html: page('Signal', prose(2000)) }];
  const documents = [
    { text: prose(LARGE) },
    { html: page('Large page', `lantern river harbour. ${prose(LARGE)}`), url: 'https://example.org/a' },
    { url: `${origin}/large` },
    { text: 'river harbour signal, too short for a thread on its own' },
  ];
  const extractHtml = page('Extracted', prose(LARGE));
  const requests: Array<{ url: string; payload: (corpus: string) => object }> = [
    {
      url: '/v1/score',
      payload: () => ({ query: 'river "harbour signal" (lantern meadow) "the quiet morning"', documents }),
    },
    { url: '/v1/score', payload: () => ({ similarTo: { documents: similar }, documents }) },
    { url: '/v1/score', payload: (corpus) => ({ similarTo: { documents: similar }, corpus, documents }) },
    { url: '/v1/extract', payload: () => ({ html: extractHtml, baseUrl: 'https://ex.org/' }) },
    { url: '/v1/extract', payload: () => ({ html: extractHtml, method: 'cetd', threshold: 3 }) },
    { url: '/v1/extract', payload: () => ({ url: `${origin}/large` }) },
  ];
  for (const { url, payload } of requests) {
    const fromPool = await pooled.app.inject({ method: 'POST', url, payload: payload(corpora.pooled) });
    const fromInline = await inline.app.inject({ method: 'POST', url, payload: payload(corpora.inline) });
    assert.equal(fromPool.statusCode, 200, fromPool.body);
    assert.equal(fromInline.statusCode, 200, fromInline.body);
    const body = fromPool.json();
    if (body.corpus?.source === 'stored') body.corpus.id = corpora.inline;
    assert.deepEqual(body, fromInline.json(), url);
  }
  // every request above had a document past the inline limit: each went to a thread, none did inline; so did
  // the bodies that carry such a document (plugins/large-json-body.ts), the URL requests' small bodies not
  const largeBodies = requests.filter(
    ({ payload }) => JSON.stringify(payload(corpora.pooled)).length > 64 * 1024,
  );
  assert.ok(largeBodies.length > 0);
  assert.equal(pooled.runtime.cpu.tasksOnThreads.total, requests.length + largeBodies.length);
  assert.equal(inline.runtime.cpu.tasksOnThreads.total, 0);
});

test('/healthz answers while a 5 MB document is scored on a thread', async (t) => {
  const { app, runtime } = await build(t, { worker: false, env: { CPU_POOL_THREADS: '1' } });
  const text = prose(5_000_000);
  let query = '';
  while (query.length < 1900) query += `"${rng.words(3).join(' ')}" ${rng.words(1)[0]} `;
  let scored = false;
  const scoring = app
    .inject({ method: 'POST', url: '/v1/score', payload: { query, documents: [{ text }] } })
    .finally(() => {
      scored = true;
    });
  // the request has been read and its task handed to the thread
  await eventually(() => runtime.cpu.tasksOnThreads.pending > 0 || scored, {
    message: 'the score task to reach the thread',
    timeoutMs: 60_000,
    intervalMs: 5,
  });
  assert.equal(scored, false, 'the score request is still in progress');
  const askedMs = performance.now();
  const health = await Promise.race([
    app.inject({ method: 'GET', url: '/healthz' }),
    setTimeout(2000).then(() => assert.fail('/healthz did not answer within 2 s')),
  ]);
  assert.equal(health.statusCode, 200);
  assert.ok(performance.now() - askedMs < 2000);
  assert.equal(scored, false, '/healthz answered while the score was being computed');
  const response = await scoring;
  assert.equal(response.statusCode, 200, response.body);
  assert.equal(response.json().results.length, 1);
});
