// A crawl of the test web's real documents (PDF, DOCX, PPTX, ODT made in code, with known text), through the
// HTTP API on whichever queue backend REDIS_URL selects: each document is downloaded, hashed (the copy is a
// DUPLICATE), its text read on the document pool, scored, shown by ?include=text, counted in the word
// statistics and used by a corpus built from the crawl; .doc is hashed without text; text/plain is a text page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { build, crawlToEnd } from '../helper.js';
import { eventually } from '../support/eventually.js';
import {
  DOCUMENT_COPY,
  DOCUMENT_FILES,
  LEGACY_DOCUMENT,
  TEXT_DOCUMENT,
} from '../support/testweb/features/documents.js';
import { scopeOf, startTestWeb, type TestWeb } from '../support/testweb/index.js';

interface PageItem {
  id: number;
  canonicalUrl: string;
  type: string;
  contentType: string | null;
  score: number | null;
  duplicateOf: number | null;
  sha256: string | null;
  error: string | null;
}

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 3, hosts: 1, pagesPerHost: 3, features: { documents: true } });
});
after(async () => {
  await web.close();
});

const get = (app: FastifyInstance, url: string) => app.inject({ method: 'GET', url });

test('documents are downloaded, hashed, read, scored, counted and made a corpus of', async (t) => {
  const { app } = await build(t);
  const status = await crawlToEnd(
    app,
    {
      seeds: web.seeds,
      maxDepth: 3,
      scope: scopeOf(web),
      politeness: { delayMs: 0, maxCrawlDelayMs: 0 },
      relevance: { query: 'lighthouse lamp', threshold: 0.1 },
    },
    { timeoutMs: 120_000 },
  );
  const { id } = status;

  const listed = (await get(app, `/v1/crawls/${id}/pages?limit=200`)).json() as { items: PageItem[] };
  const origin = new URL(web.seeds[0]!).origin;
  const page = (path: string) => {
    const found = listed.items.find((item) => item.canonicalUrl === `${origin}${path}`);
    assert.ok(found, `a page for ${path}`);
    return found;
  };
  const text = async (path: string) =>
    (await get(app, `/v1/crawls/${id}/pages/${page(path).id}?include=text`)).json().text as string | null;

  for (const file of DOCUMENT_FILES) {
    const record = page(file.target);
    assert.deepEqual([record.type, record.error], ['BINARY', null], file.target);
    assert.match(record.sha256 ?? '', /^[0-9a-f]{64}$/);
    assert.equal(typeof record.score, 'number', `${file.target} is scored`);
    const words = (await text(file.target))?.replace(/\s+/g, ' ');
    assert.equal(words, file.text.replace(/\s+/g, ' '), `${file.target}'s text`);
  }
  const guide = page('/docs/guide.pdf');
  assert.ok((guide.score ?? 0) >= 0.1, `the guide is about the lighthouse lamp: ${guide.score}`);
  assert.equal(page('/docs/notes.docx').score, 0, 'the harbour notes are not');
  assert.deepEqual(
    [page(DOCUMENT_COPY.target).type, page(DOCUMENT_COPY.target).duplicateOf],
    ['DUPLICATE', guide.id],
    'the copy of the guide is found by its hash',
  );
  const legacy = page(LEGACY_DOCUMENT);
  assert.deepEqual([legacy.type, legacy.score], ['BINARY', null], '.doc: no reader');
  assert.match(legacy.sha256 ?? '', /^[0-9a-f]{64}$/, '.doc is hashed');
  assert.equal(await text(LEGACY_DOCUMENT), null);
  const readme = page(TEXT_DOCUMENT.target);
  assert.deepEqual([readme.type, readme.contentType], ['HTML', 'text/plain; charset=utf-8']);
  assert.equal(readme.score, 0);
  assert.ok(!listed.items.some((item) => item.canonicalUrl.endsWith('/docs/never.html')), 'no links in text');

  // the report counts the guide once among the PDFs, its copy apart as a duplicate
  const report = (await get(app, `/v1/crawls/${id}/report`)).json();
  const byType = report.found.documents.byType as Array<{ type: string; documents: number }>;
  const pdfs = (type: string) =>
    listed.items.filter((item) => item.type === type && item.contentType === 'application/pdf').length;
  assert.deepEqual(
    [pdfs('BINARY'), pdfs('DUPLICATE')],
    [byType.find((row) => row.type === 'PDF')?.documents, 1],
  );
  assert.equal(report.duplicates.documents, 1);
  assert.equal(
    report.found.documents.total,
    byType.reduce((sum, row) => sum + row.documents, 0),
  );
  assert.equal(report.found.documents.total + 1, status.documents, 'the status counts the copy too');

  // the export carries the documents' text
  const exported = await get(app, `/v1/crawls/${id}/export?fields=id,type&include=text&type=BINARY`);
  assert.equal(exported.statusCode, 200, exported.body);
  const lines = exported.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: number; text: string | null });
  assert.match(lines.find((line) => line.id === guide.id)?.text ?? '', /Lighthouse keepers guide/);

  // the relevant guide counts as a result, as an HTML page would
  const results = (await get(app, `/v1/crawls/${id}/pages?limit=200&result=true`)).json() as {
    items: PageItem[];
  };
  if (results.items)
    assert.ok(
      results.items.some((item) => item.id === guide.id),
      'the guide is a result',
    );

  // word statistics count the documents' words and the text page's
  const stats = await eventually(
    async () => {
      const body = (await get(app, `/v1/crawls/${id}/stats/words?top=10000`)).json();
      assert.equal(body.complete, true, JSON.stringify(body).slice(0, 300));
      return body as {
        documentPages: number;
        htmlPages: number;
        pagesCounted: number;
        words: Array<{ word: string }>;
      };
    },
    { message: 'the word statistics to be complete', timeoutMs: 60_000 },
  );
  assert.equal(stats.documentPages, DOCUMENT_FILES.length);
  const counted = new Set(stats.words.map((entry) => entry.word));
  for (const word of ['lighthouse', 'harbour', 'foghorn', 'breakwater', 'beacon']) {
    assert.ok(counted.has(word), `${word} is counted`);
  }

  // a corpus built from the crawl has one document per HTML page and per read document
  const corpus = await app.inject({
    method: 'POST',
    url: '/v1/corpora',
    payload: { name: 'docs', fromCrawl: id },
  });
  assert.equal(corpus.statusCode, 202, corpus.body);
  const built = await eventually(
    async () => {
      const body = (await get(app, `/v1/corpora/${corpus.json().id}`)).json();
      assert.equal(body.status, 'completed', JSON.stringify(body).slice(0, 300));
      return body as { documentCount: number };
    },
    { message: 'the corpus to be built', timeoutMs: 60_000 },
  );
  assert.equal(built.documentCount, stats.pagesCounted);
});
