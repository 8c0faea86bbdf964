import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { parseHtml } from '../../src/crawler/parse/parse-html.js';
import { CorpusBuilder, TfIdfScorer } from '../../src/crawler/score/index.js';
import { buildShared } from '../helper.js';

// A local site: robots.txt disallows /private, /redirect-private leads there, /plain is text/plain.
const PAGES: Record<string, { type: string; body: string; status?: number }> = {
  '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' },
  '/cats.html': {
    type: 'text/html; charset=utf-8',
    body: '<!doctype html><title>Cats</title><h1>Cat care</h1><p>Cats and a bunny, a snake and a fish.</p>',
  },
  '/latin1.html': {
    type: 'text/html; charset=iso-8859-1',
    body: '<html><title>Caf\u00e9</title><p>caf\u00e9 cat</p></html>',
  },
  '/plain': { type: 'text/plain', body: 'cat dog bird bunny fish horse' },
  '/private/cats.html': { type: 'text/html', body: '<p>cat dog bird</p>' },
  '/missing': { type: 'text/html', body: 'gone', status: 404 },
};

let server: Server;
let origin: string;
const hits = new Map<string, number>();
before(async () => {
  server = createServer((request, response) => {
    hits.set(request.url ?? '', (hits.get(request.url ?? '') ?? 0) + 1);
    if (request.url === '/redirect-private') {
      response.writeHead(302, { location: '/private/cats.html' }).end();
      return;
    }
    const page = PAGES[request.url ?? ''];
    if (!page) {
      response.writeHead(404).end();
      return;
    }
    const encoding = page.type.includes('iso-8859-1') ? 'latin1' : 'utf8';
    response
      .writeHead(page.status ?? 200, { 'content-type': page.type })
      .end(Buffer.from(page.body, encoding));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));
// no test here starts a crawl or changes the app: one app serves them all
const shared = buildShared({ worker: false });

type Result = { index: number; url?: string; finalUrl?: string; score: number; title?: string };

test('keyword query: the worked example of docs/reference.md#keyword-query scores 4/6 through the API', async () => {
  const { app } = shared;
  const response = await app.inject({
    method: 'POST',
    url: '/v1/score',
    payload: {
      query: 'cat dog bird (bunny snake) fish (horse lion)',
      documents: [{ text: 'cat cat bunny snake horse fish' }, { text: 'dog bird lion fish cat bunny' }],
    },
  });
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json() as { scorer: string; corpus?: unknown; results: Result[] };
  assert.equal(body.scorer, 'keyword');
  assert.equal(body.corpus, undefined);
  // best first: the second document satisfies all six clauses
  assert.deepEqual(
    body.results.map(({ index, score }) => ({ index, score })),
    [
      { index: 1, score: 1 },
      { index: 0, score: 4 / 6 },
    ],
  );
  assert.equal(body.results[1]!.title, undefined, 'a text document has no title');
});

test('a malformed query is a 400 problem naming query and the position of the fault', async () => {
  const { app } = shared;
  const cases: Array<[string, number]> = [
    ['cat (dog', 4],
    ['cat (dog (bird))', 9],
  ];
  for (const [query, position] of cases) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/score',
      payload: { query, documents: [{ text: 'cat' }] },
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
    const problem = response.json();
    assert.equal(problem.field, 'query');
    assert.equal(problem.position, position, JSON.stringify(problem));
    assert.match(problem.detail, new RegExp(`position ${position}`));
  }
});

test('html documents score as the crawl engine scores the parsed page', async () => {
  const { app } = shared;
  const html =
    '<html><head><title>Pets</title><script>var cat = 1</script></head><body><nav>horse</nav><h1>Cat</h1><p>The dog and the bird</p></body></html>';
  const response = await app.inject({
    method: 'POST',
    url: '/v1/score',
    payload: { query: 'cat dog (bunny snake) horse', documents: [{ html, url: 'https://example.org/pets' }] },
  });
  assert.equal(response.statusCode, 200, response.body);
  const [result] = (response.json() as { results: Result[] }).results;
  // cat (h1), dog and horse (nav text is visible) are present; no bunny or snake; script text is not text
  assert.deepEqual(result, { index: 0, url: 'https://example.org/pets', score: 3 / 4, title: 'Pets' });
});

test('tf-idf: the document like the similarity set scores higher, scores in [0, 1], corpus from the request', async () => {
  const { app } = shared;
  const similar = [
    {
      html: '<title>Tennis</title><h1>Wimbledon</h1><p>Tennis players serve and volley on grass courts.</p>',
    },
    { text: 'The tennis racket and the tennis ball; a grand slam final at Wimbledon.' },
  ];
  const documents = [
    { text: 'Stock markets fell as bond yields rose and investors sold shares.' },
    { html: '<title>Grass court tennis</title><p>A tennis final on grass: serve, volley, racket.</p>' },
    { text: 'Recipes for bread: flour, water, salt and yeast.' },
  ];
  const response = await app.inject({
    method: 'POST',
    url: '/v1/score',
    payload: { similarTo: { documents: similar }, documents },
  });
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json() as { scorer: string; corpus: unknown; results: Result[] };
  assert.equal(body.scorer, 'tfidf');
  assert.deepEqual(body.corpus, { source: 'request', documents: 5 });
  assert.equal(body.results[0]!.index, 1);
  assert.ok(body.results[0]!.score > 0.2, JSON.stringify(body.results));
  for (const { score } of body.results) assert.ok(score >= 0 && score <= 1);
  assert.deepEqual(
    body.results.map((r) => r.score),
    [...body.results.map((r) => r.score)].sort((a, b) => b - a),
  );

  // The same number the scorer objects give the same parsed pages (the engine's path).
  const page = (html: string) => parseHtml(html, 'about:blank');
  const textAsPage = (text: string) => page(`<p>${text}</p>`);
  const similarPages = [page(similar[0]!.html!), textAsPage(similar[1]!.text!)];
  const docPages = [
    textAsPage(documents[0]!.text!),
    page(documents[1]!.html!),
    textAsPage(documents[2]!.text!),
  ];
  const corpus = new CorpusBuilder();
  for (const p of [...similarPages, ...docPages]) corpus.addDocument(p.words);
  const expected = new TfIdfScorer(similarPages, corpus.toCorpus()).score(docPages[1]!);
  assert.equal(body.results[0]!.score, expected);
});

test('url documents are fetched once (robots.txt obeyed, charset decoded); faults are 422s naming the field', async () => {
  const { app } = shared;
  hits.clear();
  const ok = await app.inject({
    method: 'POST',
    url: '/v1/score',
    payload: {
      query: 'cat (bunny caf\u00e9)',
      documents: [
        { url: `${origin}/cats.html` },
        { url: `${origin}/plain` },
        { url: `${origin}/latin1.html` },
        { url: `${origin}/cats.html` },
      ],
    },
  });
  assert.equal(ok.statusCode, 200, ok.body);
  const results = (ok.json() as { results: Result[] }).results.sort((a, b) => a.index - b.index);
  assert.deepEqual(
    results.map(({ score, title }) => ({ score, title })),
    [
      { score: 1, title: 'Cats' },
      { score: 1, title: undefined },
      { score: 1, title: 'Caf\u00e9' },
      { score: 1, title: 'Cats' },
    ],
  );
  assert.equal(results[0]!.finalUrl, `${origin}/cats.html`);
  assert.deepEqual(Object.fromEntries(hits), {
    '/robots.txt': 1,
    '/cats.html': 1,
    '/plain': 1,
    '/latin1.html': 1,
  });

  const faults: Array<[Record<string, unknown>[], string, RegExp]> = [
    [[{ text: 'cat' }, { url: `${origin}/private/cats.html` }], 'documents[1].url', /robots\.txt/],
    [[{ url: `${origin}/redirect-private` }], 'documents[0].url', /robots\.txt/],
    [[{ text: 'a' }, { text: 'b' }, { url: `${origin}/missing` }], 'documents[2].url', /HTTP 404/],
    [
      [{ url: 'http://127.0.0.1:1/nothing-listens' }],
      'documents[0].url',
      /robots\.txt could not be fetched \(connect/,
    ],
  ];
  for (const [documents, field, detail] of faults) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/score',
      payload: { query: 'cat', documents },
    });
    assert.equal(response.statusCode, 422, response.body);
    assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
    const problem = response.json();
    assert.equal(problem.field, field, JSON.stringify(problem));
    assert.match(problem.detail, detail);
  }
});

test('POST /v1/score rejects bad input with problem+json naming the field', async () => {
  const { app } = shared;
  const cases: Array<[unknown, string]> = [
    [{ documents: [{ text: 'cat' }] }, 'query'],
    [
      { query: 'cat', similarTo: { documents: [{ text: 'cat' }] }, documents: [{ text: 'cat' }] },
      'similarTo',
    ],
    [{ query: 'cat' }, 'documents'],
    [{ query: 'cat', documents: [] }, 'documents'],
    [{ query: 'cat', documents: Array.from({ length: 101 }, () => ({ text: 'cat' })) }, 'documents'],
    [{ query: 'cat', documents: [{ text: 'cat' }, {}] }, 'documents[1]'],
    [{ query: 'cat', documents: [{ text: 'cat', url: 'https://example.org/' }] }, 'documents[0].url'],
    [{ query: 'cat', documents: [{ text: 'cat', html: '<p>cat</p>' }] }, 'documents[0].html'],
    [{ query: 'cat', documents: [{ url: 'ftp://example.org/' }] }, 'documents[0].url'],
    [{ query: 'cat', documents: [{ text: 'cat', bogus: 1 }] }, 'documents[0].bogus'],
    [
      {
        similarTo: { documents: [{ text: 'cat' }, { html: '<p>x</p>', text: 'y' }] },
        documents: [{ text: 'cat' }],
      },
      'similarTo.documents[1].html',
    ],
  ];
  for (const [payload, field] of cases) {
    const response = await app.inject({ method: 'POST', url: '/v1/score', payload: payload as object });
    assert.equal(response.statusCode, 400, `${JSON.stringify(payload).slice(0, 200)} → ${response.body}`);
    assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
    assert.equal(response.json().field, field, response.body);
  }
});

test('tf-idf: similarTo.urls are fetched as in a crawl request, the same set as given by URL documents', async () => {
  const { app } = shared;
  const documents = [{ text: 'a cat and a dog' }, { text: 'stock markets fell' }];
  const byUrls = await app.inject({
    method: 'POST',
    url: '/v1/score',
    payload: { similarTo: { urls: [`${origin}/cats.html`] }, documents },
  });
  assert.equal(byUrls.statusCode, 200, byUrls.body);
  const byDocuments = await app.inject({
    method: 'POST',
    url: '/v1/score',
    payload: { similarTo: { documents: [{ url: `${origin}/cats.html` }] }, documents },
  });
  assert.deepEqual(byUrls.json(), byDocuments.json());
  const mixed = await app.inject({
    method: 'POST',
    url: '/v1/score',
    payload: { similarTo: { urls: [`${origin}/cats.html`], documents: [{ text: 'cats purr' }] }, documents },
  });
  assert.equal(mixed.statusCode, 200, mixed.body);
  assert.equal(mixed.json().corpus.documents, 4);

  const faults: Array<[Record<string, unknown>, string, number]> = [
    [{ urls: [`${origin}/missing`] }, 'similarTo.urls[0]', 422],
    [{ urls: ['ftp://x'] }, 'similarTo.urls[0]', 400],
    [{}, 'similarTo', 400],
    [
      { urls: [`${origin}/cats.html`], documents: Array.from({ length: 100 }, () => ({ text: 'x' })) },
      'similarTo',
      400,
    ],
  ];
  for (const [similarTo, field, status] of faults) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/score',
      payload: { similarTo, documents },
    });
    assert.equal(response.statusCode, status, response.body);
    assert.equal(response.json().field, field, response.body);
  }
});
