import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { parseHtml } from '../../src/crawler/parse/parse-html.js';
import { CorpusBuilder, TfIdfScorer } from '../../src/crawler/score/index.js';
import { CorporaRepository } from '../../src/db/corpora-repo.js';
import { CrawlsRepository } from '../../src/db/crawls-repo.js';
import { INTERNAL_SCOPE, tenantScope } from '../../src/db/tenant-scope.js';
import { TrawlError } from '../../src/errors.js';
import { parseAsCrawled } from '../../src/services/use-cases/documents.js';
import { build, crawlToEnd, eventually } from '../helper.js';

import { BENCHMARK_FEATURES, startTestWeb, type TestWeb } from '../support/testweb/index.js';

// A local site for URL corpora: two readable documents, one that answers 404.
const PAGES: Record<string, { type: string; body: string; status?: number }> = {
  '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' },
  '/tennis.html': {
    type: 'text/html; charset=utf-8',
    body: '<!doctype html><title>Ignored title</title><h1>Tennis</h1><p>Grass courts at Wimbledon.</p>',
  },
  '/golf.txt': { type: 'text/plain', body: 'Golf balls and tennis balls.' },
  '/private/secret.html': { type: 'text/html', body: '<p>secret</p>' },
};

let server: Server;
let origin: string;
let web: TestWeb;
before(async () => {
  server = createServer((request, response) => {
    const page = PAGES[request.url ?? ''];
    if (!page) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('gone');
      return;
    }
    response.writeHead(page.status ?? 200, { 'content-type': page.type }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  web = await startTestWeb({ seed: 5, hosts: 1, pagesPerHost: 12, features: BENCHMARK_FEATURES });
});
after(async () => {
  await web.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface CorpusStatus {
  id: string;
  name: string;
  status: string;
  documentCount: number;
  termCount: number;
  progress: {
    documentsDone: number;
    documentsTotal: number | null;
    skipped: number;
    skippedDocuments: Array<{ url: string; error: string }>;
  };
  topTerms: Array<{ term: string; documentFrequency: number }>;
  textSettings: { tokenizer: string; stopWords: string | string[]; stem: boolean } | null;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
}

async function createCorpus(app: FastifyInstance, payload: object): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/v1/corpora', payload });
  assert.equal(response.statusCode, 202, response.body);
  const body = response.json();
  assert.equal(body.status, 'queued');
  assert.equal(response.headers.location, `/v1/corpora/${body.id}`);
  return body.id;
}

async function waitForCorpus(app: FastifyInstance, id: string, timeoutMs = 30_000): Promise<CorpusStatus> {
  return eventually(
    async () => {
      const response = await app.inject({ method: 'GET', url: `/v1/corpora/${id}` });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json() as CorpusStatus;
      if (body.status !== 'completed' && body.status !== 'failed') throw new Error(`still ${body.status}`);
      return body;
    },
    { message: `corpus ${id} to end`, timeoutMs, intervalMs: 100 },
  );
}

test('a corpus from uploaded documents: N, document frequencies counted by hand, top terms', async (t) => {
  const { app, runtime } = await build(t);
  const id = await createCorpus(app, {
    name: 'sports',
    documents: [
      // tennis, balls, rackets ("and" is a stop word; tennis twice still counts once)
      { text: 'Tennis balls and tennis rackets' },
      // the title is a word of the document (the reference's text stream includes it): rackets, tennis, grass,
      // courts, wimbledon
      {
        html: '<title>Rackets</title><h1>Tennis</h1><p>Grass courts at Wimbledon</p>',
        url: 'https://example.org/',
      },
      // golf, balls
      { text: 'Golf balls' },
    ],
  });
  const corpus = await waitForCorpus(app, id);
  assert.equal(corpus.status, 'completed', JSON.stringify(corpus));
  assert.equal(corpus.name, 'sports');
  assert.equal(corpus.documentCount, 3);
  assert.equal(corpus.termCount, 7);
  assert.deepEqual(corpus.topTerms, [
    { term: 'balls', documentFrequency: 2 },
    { term: 'rackets', documentFrequency: 2 },
    { term: 'tennis', documentFrequency: 2 },
    { term: 'courts', documentFrequency: 1 },
    { term: 'golf', documentFrequency: 1 },
    { term: 'grass', documentFrequency: 1 },
    { term: 'wimbledon', documentFrequency: 1 },
  ]);
  assert.deepEqual(corpus.textSettings, { tokenizer: 'reference-v1', stopWords: 'default', stem: false });
  assert.deepEqual(corpus.progress, {
    documentsDone: 3,
    documentsTotal: 3,
    skipped: 0,
    skippedDocuments: [],
  });
  assert.equal(corpus.error, null);
  assert.ok(corpus.finishedAt && corpus.finishedAt >= corpus.createdAt);

  const repository = new CorporaRepository(runtime.db.pool);
  const loaded = await repository.loadCorpus(id, INTERNAL_SCOPE);
  assert.equal(loaded.documentCount, 3);
  // the loaded corpus is cached for every tenant, but a tenant that may not see it is still told "not found"
  assert.equal(await repository.loadCorpus(id, tenantScope(null)), loaded);
  await assert.rejects(repository.loadCorpus(id, tenantScope(randomUUID()), 'corpus'), (error: unknown) => {
    assert.ok(error instanceof TrawlError);
    assert.equal(error.code, 'not_found');
    assert.equal(error.field, 'corpus');
    return true;
  });
  assert.equal(loaded.documentFrequency('rackets'), 2);
  assert.equal(loaded.documentFrequency('balls'), 2);
  assert.equal(loaded.documentFrequency('and'), 0, 'stop words are not terms');
  assert.equal(loaded.documentFrequency('cricket'), 0);

  const list = await app.inject({ method: 'GET', url: '/v1/corpora' });
  assert.equal(list.statusCode, 200);
  assert.deepEqual(
    list
      .json()
      .items.map((item: { id: string; status: string; documentCount: number }) => [
        item.id,
        item.status,
        item.documentCount,
      ]),
    [[id, 'completed', 3]],
  );
});

test('a corpus from URLs: fetched (robots.txt obeyed); a URL that fails is skipped and counted', async (t) => {
  const { app, runtime } = await build(t);
  const id = await createCorpus(app, {
    name: 'fetched',
    urls: [
      `${origin}/tennis.html`,
      `${origin}/missing.html`,
      `${origin}/golf.txt`,
      `${origin}/private/secret.html`,
      `${origin}/tennis.html`,
    ],
  });
  const corpus = await waitForCorpus(app, id);
  assert.equal(corpus.status, 'completed', JSON.stringify(corpus));
  // a URL named twice is one document; the 404 and the disallowed page are skipped
  assert.equal(corpus.documentCount, 2);
  assert.equal(corpus.progress.documentsTotal, 4);
  assert.equal(corpus.progress.documentsDone, 4);
  assert.equal(corpus.progress.skipped, 2);
  const skipped = Object.fromEntries(corpus.progress.skippedDocuments.map(({ url, error }) => [url, error]));
  assert.deepEqual(Object.keys(skipped).sort(), [`${origin}/missing.html`, `${origin}/private/secret.html`]);
  assert.match(skipped[`${origin}/missing.html`]!, /HTTP 404/);
  assert.match(skipped[`${origin}/private/secret.html`]!, /robots\.txt/);
  // tennis.html: its title's ignored, title, then tennis, grass, courts, wimbledon; golf.txt: golf, balls, tennis
  assert.deepEqual(corpus.topTerms, [
    { term: 'tennis', documentFrequency: 2 },
    { term: 'balls', documentFrequency: 1 },
    { term: 'courts', documentFrequency: 1 },
    { term: 'golf', documentFrequency: 1 },
    { term: 'grass', documentFrequency: 1 },
    { term: 'ignored', documentFrequency: 1 },
    { term: 'title', documentFrequency: 1 },
    { term: 'wimbledon', documentFrequency: 1 },
  ]);
  const loaded = await new CorporaRepository(runtime.db.pool).loadCorpus(id, INTERNAL_SCOPE);
  assert.equal(loaded.documentFrequency('secret'), 0);
  assert.equal(loaded.documentFrequency('ignored'), 1, "the title is in the document's words");
});

test('a corpus from a finished crawl of the test web counts each stored HTML page once', async (t) => {
  const { app, runtime } = await build(t);
  const crawled = await crawlToEnd(app, {
    seeds: web.seeds,
    maxPages: 12,
    scope: { allowedDomains: web.hosts.map((host) => new URL(host).host) },
    politeness: { delayMs: 0, maxCrawlDelayMs: 0 },
  });
  const crawlId = crawled.id;

  // The expected corpus, built independently: every HTML page's stored body (read one by one, as
  // GET …/pages/:id?include=html reads it), parsed as the crawl parses it.
  const expected = new CorpusBuilder();
  const pages = await runtime.db.pool.query<{ id: string; url: string; final_url: string | null }>(
    "SELECT id, url, final_url FROM pages WHERE crawl_id = $1 AND type = 'HTML'",
    [crawlId],
  );
  const items = pages.rows;
  assert.ok(items.length >= 5, `the crawl fetched ${items.length} HTML pages`);
  const crawls = new CrawlsRepository(runtime.db.pool);
  for (const item of items) {
    const stored = await crawls.pageHtml(Number(item.id));
    assert.ok(stored?.html, `page ${item.url} has a stored body`);
    const html = stored.html.toString('utf8');
    expected.addDocument(parseAsCrawled(html, item.final_url ?? item.url, runtime.config.userAgent).words);
  }
  const { documentCount, frequencies } = expected.toJSON();

  const id = await createCorpus(app, { name: 'test web', fromCrawl: crawlId });
  const corpus = await waitForCorpus(app, id);
  assert.equal(corpus.status, 'completed', JSON.stringify(corpus));
  assert.equal(corpus.documentCount, items.length);
  assert.equal(corpus.documentCount, documentCount);
  assert.equal(corpus.termCount, Object.keys(frequencies).length);
  assert.deepEqual(corpus.progress, {
    documentsDone: items.length,
    documentsTotal: items.length,
    skipped: 0,
    skippedDocuments: [],
  });
  const loaded = await new CorporaRepository(runtime.db.pool).loadCorpus(id, INTERNAL_SCOPE);
  for (const [term, df] of Object.entries(frequencies))
    assert.equal(loaded.documentFrequency(term), df, term);
  const top = Object.entries(frequencies)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, 20)
    .map(([term, documentFrequency]) => ({ term, documentFrequency }));
  assert.deepEqual(corpus.topTerms, top);
});

test('bad requests are 400s naming the field; unknown ids 404; unfinished crawls and corpora 409', async (t) => {
  const { app } = await build(t, { worker: false });
  const badRequests: Array<[object, string]> = [
    [{ urls: ['https://example.org/'] }, 'name'],
    [{ name: 'x' }, 'urls'],
    [{ name: 'x', urls: ['https://example.org/'], documents: [{ text: 'a' }] }, 'documents'],
    [{ name: 'x', documents: [{ text: 'a', html: '<p>b</p>' }] }, 'documents[0].html'],
    [{ name: 'x', documents: [{ text: 'a' }, { url: 'https://example.org/' }] }, 'documents[1]'],
    [{ name: 'x', documents: [{ text: 'a', url: 'https://example.org/' }] }, 'documents[0].url'],
    [{ name: 'x', documents: [] }, 'documents'],
    [{ name: 'x', urls: ['ftp://example.org/'] }, 'urls[0]'],
    [{ name: 'x', urls: Array.from({ length: 10_001 }, (_, i) => `https://example.org/${i}`) }, 'urls'],
    [{ name: 'x', fromCrawl: 'not-a-uuid' }, 'fromCrawl'],
    [{ name: 'x', documents: [{ text: 'a' }], bogus: 1 }, 'bogus'],
  ];
  for (const [payload, field] of badRequests) {
    const response = await app.inject({ method: 'POST', url: '/v1/corpora', payload });
    assert.equal(response.statusCode, 400, `${JSON.stringify(payload).slice(0, 100)} → ${response.body}`);
    assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
    assert.equal(response.json().field, field, response.body);
  }

  const unknown = '00000000-0000-4000-8000-000000000000';
  const missing = await app.inject({ method: 'GET', url: `/v1/corpora/${unknown}` });
  assert.equal(missing.statusCode, 404);
  assert.match(missing.headers['content-type'] as string, /problem\+json/);
  const malformed = await app.inject({ method: 'GET', url: '/v1/corpora/nope' });
  assert.equal(malformed.statusCode, 400);
  assert.equal(malformed.json().field, 'id');
  const noCrawl = await app.inject({
    method: 'POST',
    url: '/v1/corpora',
    payload: { name: 'x', fromCrawl: unknown },
  });
  assert.equal(noCrawl.statusCode, 404, noCrawl.body);
  assert.equal(noCrawl.json().field, 'fromCrawl');

  // Without a worker a crawl stays queued: not finished, so no corpus from it yet.
  const crawl = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { seeds: ['https://example.org/'] },
  });
  const queuedCrawl = await app.inject({
    method: 'POST',
    url: '/v1/corpora',
    payload: { name: 'x', fromCrawl: crawl.json().id },
  });
  assert.equal(queuedCrawl.statusCode, 409, queuedCrawl.body);
  assert.equal(queuedCrawl.json().field, 'fromCrawl');
  assert.equal(queuedCrawl.json().crawlStatus, 'queued');

  // A queued corpus cannot score yet; an unknown one is a 404; a corpus goes with similarTo only.
  const queued = await createCorpus(app, { name: 'later', documents: [{ text: 'tennis' }] });
  const score = (corpus: string, extra: object = { similarTo: { documents: [{ text: 'tennis' }] } }) =>
    app.inject({
      method: 'POST',
      url: '/v1/score',
      payload: { ...extra, corpus, documents: [{ text: 'tennis balls' }] },
    });
  const notReady = await score(queued);
  assert.equal(notReady.statusCode, 409, notReady.body);
  assert.match(notReady.headers['content-type'] as string, /problem\+json/);
  assert.equal(notReady.json().field, 'corpus');
  const noCorpus = await score(unknown);
  assert.equal(noCorpus.statusCode, 404, noCorpus.body);
  assert.equal(noCorpus.json().field, 'corpus');
  const withQuery = await score(queued, { query: 'tennis' });
  assert.equal(withQuery.statusCode, 400, withQuery.body);
  assert.equal(withQuery.json().field, 'corpus');

  // The list pages through every corpus once, newest first.
  await createCorpus(app, { name: 'b', documents: [{ text: 'b' }] });
  await createCorpus(app, { name: 'c', documents: [{ text: 'c' }] });
  const names: string[] = [];
  let next: string | null = '/v1/corpora?limit=2';
  while (next) {
    const page: LightMyRequestResponse = await app.inject({ method: 'GET', url: next });
    assert.equal(page.statusCode, 200, page.body);
    const body = page.json() as { items: Array<{ name: string; status: string }>; next: string | null };
    assert.ok(body.items.length <= 2);
    names.push(...body.items.map((item) => item.name));
    next = body.next;
  }
  assert.deepEqual(names, ['c', 'b', 'later']);
  const badCursor = await app.inject({ method: 'GET', url: '/v1/corpora?cursor=bm9wZQ' });
  assert.equal(badCursor.statusCode, 400);
  assert.equal(badCursor.json().field, 'cursor');
});

test('POST /v1/score with a stored corpus gives the scores TfIdfScorer computes with that corpus', async (t) => {
  const { app } = await build(t);
  const corpusTexts = [
    'Tennis players serve on grass courts',
    'Stock markets fell as investors sold shares',
    'Bread recipes need flour water and yeast',
    'Grand slam tennis at Wimbledon',
    'Football fans filled the stadium',
  ];
  const id = await createCorpus(app, { name: 'mixed', documents: corpusTexts.map((text) => ({ text })) });
  assert.equal((await waitForCorpus(app, id)).status, 'completed');

  const similar = [
    { html: '<title>Tennis</title><h1>Wimbledon</h1><p>Tennis players serve and volley on grass.</p>' },
    { text: 'A grand slam tennis final.' },
  ];
  const documents = [
    { text: 'Investors sold shares as markets fell.' },
    { html: '<title>Grass court tennis</title><h2>Serve</h2><p>A tennis final on grass at Wimbledon.</p>' },
    { text: 'Tennis fans filled the stadium.' },
  ];
  const response = await app.inject({
    method: 'POST',
    url: '/v1/score',
    payload: { similarTo: { documents: similar }, corpus: id, documents },
  });
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json() as {
    scorer: string;
    corpus: unknown;
    results: Array<{ index: number; score: number }>;
  };
  assert.equal(body.scorer, 'tfidf');
  assert.deepEqual(body.corpus, { source: 'stored', id, documents: corpusTexts.length });

  // The same corpus counted here, and the scorer object the crawl engine uses.
  const page = (html: string) => parseHtml(html, 'about:blank');
  const textAsPage = (text: string) => page(`<p>${text}</p>`);
  const builder = new CorpusBuilder();
  for (const text of corpusTexts) builder.addDocument(textAsPage(text).words);
  const scorer = new TfIdfScorer(
    [page(similar[0]!.html!), textAsPage(similar[1]!.text!)],
    builder.toCorpus(),
  );
  const expected = [
    scorer.score(textAsPage(documents[0]!.text!)),
    scorer.score(page(documents[1]!.html!)),
    scorer.score(textAsPage(documents[2]!.text!)),
  ];
  const byIndex = [...body.results].sort((a, b) => a.index - b.index).map((result) => result.score);
  assert.deepEqual(byIndex, expected);
  assert.ok(expected[1]! > expected[2]! && expected[2]! > expected[0]!, `scores ${expected}`);

  // Without the corpus the request's own documents are the corpus: different document frequencies.
  const own = await app.inject({
    method: 'POST',
    url: '/v1/score',
    payload: { similarTo: { documents: similar }, documents },
  });
  assert.deepEqual(own.json().corpus, { source: 'request', documents: 5 });
});
