// POST /v1/score and POST /v1/extract take document URLs (PDF, DOCX, PPTX, ODT): the document is fetched as the
// crawl fetches it and its text read on the document pool; a document without a reader (.doc) is a 422.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { build } from '../helper.js';
import { makeDocx, makePdf } from '../support/documents.js';

const FILES: Record<string, { type: string; body: Buffer }> = {
  '/guide.pdf': { type: 'application/pdf', body: makePdf(['Lighthouse keepers guide\nThe lamp is trimmed']) },
  '/notes.docx': {
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    body: makeDocx(['Harbour pilot notes', 'Tides turn twice daily']),
  },
  '/minutes.doc': { type: 'application/msword', body: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]) },
};

let server: Server;
let origin: string;
before(async () => {
  server = createServer((request, response) => {
    const file = FILES[request.url ?? ''];
    if (!file) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('/v1/score scores the text of document URLs', async (t) => {
  const { app } = await build(t, { worker: false });
  const response = await app.inject({
    method: 'POST',
    url: '/v1/score',
    payload: {
      query: 'lighthouse',
      documents: [{ url: `${origin}/guide.pdf` }, { url: `${origin}/notes.docx` }],
    },
  });
  assert.equal(response.statusCode, 200, response.body);
  const scores = (response.json().results as Array<{ index: number; score: number }>).map((r) => r.score);
  assert.ok(scores[0]! > 0, `the guide is about lighthouses: ${scores[0]}`);
  assert.equal(scores[1], 0);
});

test('/v1/extract gives a document URL its text; a .doc has no reader (422)', async (t) => {
  const { app } = await build(t, { worker: false });
  const response = await app.inject({
    method: 'POST',
    url: '/v1/extract',
    payload: { url: `${origin}/notes.docx` },
  });
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json();
  assert.match(body.text, /Harbour pilot notes\s+Tides turn twice daily/);
  assert.equal(body.url, `${origin}/notes.docx`);
  const legacy = await app.inject({
    method: 'POST',
    url: '/v1/extract',
    payload: { url: `${origin}/minutes.doc` },
  });
  assert.equal(legacy.statusCode, 422, legacy.body);
  assert.equal(legacy.json().field ?? legacy.json().errors?.[0]?.field ?? 'url', 'url');
});

test('the documents option of a crawl: validated (a 400 naming the field) and shown back filled in', async (t) => {
  const { app } = await build(t, { worker: false });
  const bad = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { seeds: [`${origin}/guide.pdf`], documents: { types: ['exe'] } },
  });
  assert.equal(bad.statusCode, 400, bad.body);
  assert.match(bad.body, /documents/);
  const created = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { seeds: [`${origin}/guide.pdf`], documents: { fetch: false } },
  });
  assert.equal(created.statusCode, 202, created.body);
  const shown = (await app.inject({ method: 'GET', url: `/v1/crawls/${created.json().id}` })).json();
  assert.deepEqual(shown.request.documents, {
    fetch: false,
    types: ['pdf', 'doc', 'docx', 'ppt', 'pptx', 'odt', 'txt'],
    maxBytes: 10 * 1024 * 1024,
  });
});
