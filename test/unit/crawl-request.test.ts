// The crawl request's one home (src/crawler/crawl-request.ts): the schema's `default`s and the defaults
// normalizeCrawlRequest fills are the same values, and a stored request is read back through one function.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Value } from 'typebox/value';
import {
  CRAWL_REQUEST_DEFAULTS,
  crawlSettings,
  normalizeCrawlRequest,
  normalizeRender,
  RENDER_DEFAULTS,
  readStoredCrawlRequest,
} from '../../src/crawler/crawl-request.js';
import { CrawlRequest, type CrawlRequest as CrawlRequestType, Render } from '../../src/schemas/crawls.js';

const UA = 'trawl-test/1.0';

test("the schema's defaults are the ones normalizeCrawlRequest fills in", () => {
  // every nested object present and empty, so the schema's defaults reach each of their fields
  const bare: CrawlRequestType = {
    seeds: ['https://example.com/'],
    relevance: { query: 'otter' },
    topic: {},
    scope: {},
    politeness: {},
    fetch: {},
    store: {},
    extract: {},
    documents: {},
  };
  const bySchema = Value.Default(CrawlRequest, structuredClone(bare)) as CrawlRequestType;
  assert.equal(bySchema.maxPages, CRAWL_REQUEST_DEFAULTS.maxPages);
  assert.equal(bySchema.fetch?.maxBytes, CRAWL_REQUEST_DEFAULTS.fetch.maxBytes);
  assert.deepEqual(normalizeCrawlRequest(bySchema, UA), normalizeCrawlRequest(bare, UA));
});

test('readStoredCrawlRequest: a normalized request reads back unchanged; an older row gets the missing defaults', () => {
  const stored = normalizeCrawlRequest(
    {
      seeds: ['https://example.com/'],
      strategy: 'best-first',
      relevance: { similarTo: { urls: ['https://example.com/a'] }, threshold: 0.3 },
      politeness: { delayMs: 0, userAgent: 'other-bot/2' },
      webhook: {
        url: 'https://hooks.example/x',
        events: ['completed'],
        headers: { 'X-Team': 'a' },
        secret: 'sekrit-123',
      },
    },
    UA,
  );
  const json = JSON.parse(JSON.stringify(stored)) as Record<string, unknown>;
  assert.deepEqual(readStoredCrawlRequest(json), stored);

  const older = { seeds: ['https://example.com/'], maxPages: 5, politeness: { userAgent: 'old-bot/1' } };
  const read = readStoredCrawlRequest(older);
  assert.equal(read.strategy, 'bfs');
  assert.equal(read.maxPages, 5);
  assert.equal(read.politeness.userAgent, 'old-bot/1');
  assert.equal(read.politeness.delayMs, CRAWL_REQUEST_DEFAULTS.politeness.delayMs);
  assert.equal(read.extract.enabled, true);
  assert.equal(read.store.html, true);
  assert.equal(read.relevance, null);
});

test('documents: the default types (no images), maxBytes bounded by fetch.maxBytes, an older row fetches them', () => {
  const plain = normalizeCrawlRequest({ seeds: ['https://example.com/'] }, UA);
  assert.deepEqual(plain.documents, {
    fetch: true,
    types: ['pdf', 'doc', 'docx', 'ppt', 'pptx', 'odt', 'txt'],
    maxBytes: CRAWL_REQUEST_DEFAULTS.fetch.maxBytes,
  });
  const asked = normalizeCrawlRequest(
    {
      seeds: ['https://example.com/'],
      fetch: { maxBytes: 5000 },
      documents: { types: ['pdf', 'image'], maxBytes: 9000 },
    },
    UA,
  );
  assert.deepEqual(asked.documents, { fetch: true, types: ['pdf', 'image'], maxBytes: 5000 });
  assert.deepEqual(
    readStoredCrawlRequest(JSON.parse(JSON.stringify(asked))).documents,
    asked.documents,
    'normalizing again changes nothing',
  );
  assert.deepEqual(readStoredCrawlRequest({ seeds: ['https://example.com/'] }).documents, plain.documents);
  assert.deepEqual(crawlSettings('c', asked).documents, asked.documents);
});

test('topic.cap: "fetched" raises waiting pages to their best link weight; "discovered" caps the graph instead', () => {
  const settings = (request: Record<string, unknown>) => {
    const { maxDiscovered, raiseOnRediscovery } = crawlSettings(
      'c',
      normalizeCrawlRequest(
        { seeds: ['https://example.com/'], maxPages: 40, ...request } as CrawlRequestType,
        UA,
      ),
    );
    return { maxDiscovered, raiseOnRediscovery };
  };
  const topic = { strategy: 'topic', topics: ['tennis'] };
  assert.deepEqual(
    settings(topic),
    { maxDiscovered: null, raiseOnRediscovery: true },
    'fetched is the default',
  );
  assert.deepEqual(settings({ ...topic, topic: { cap: 'fetched' } }), {
    maxDiscovered: null,
    raiseOnRediscovery: true,
  });
  assert.deepEqual(settings({ ...topic, topic: { cap: 'discovered' } }), {
    maxDiscovered: 40,
    raiseOnRediscovery: false,
  });
  assert.deepEqual(settings({ strategy: 'best-first', relevance: { query: 'a' } }), {
    maxDiscovered: null,
    raiseOnRediscovery: false,
  });
  assert.deepEqual(settings({}), { maxDiscovered: null, raiseOnRediscovery: false });
});

test('render: a mode alone or an object, every default filled in from RENDER_DEFAULTS, which the schema shows', () => {
  const full = normalizeCrawlRequest({ seeds: ['https://example.com/'] }, UA).render;
  assert.deepEqual(full, {
    mode: 'never',
    waitUntil: 'load',
    timeoutMs: RENDER_DEFAULTS.timeoutMs,
    block: ['image', 'media', 'font'],
    screenshot: false,
  });
  assert.deepEqual(normalizeRender('auto'), normalizeRender({ mode: 'auto' }));
  assert.deepEqual(normalizeRender({ waitUntil: { selector: '#app a' }, block: ['font', 'font'] }), {
    ...full,
    waitUntil: { selector: '#app a' },
    block: ['font'],
  });
  // a stored request reads back unchanged
  const stored = normalizeCrawlRequest({ seeds: ['https://example.com/'], render: 'always' }, UA);
  assert.deepEqual(readStoredCrawlRequest(JSON.parse(JSON.stringify(stored))).render, stored.render);
  // a row stored before rendering existed never rendered
  assert.deepEqual(readStoredCrawlRequest({ seeds: ['https://example.com/'] }).render, full);
  const options = (Render.anyOf[1] as { properties: Record<string, { default?: unknown }> }).properties;
  for (const [field, value] of Object.entries(RENDER_DEFAULTS)) {
    const schema = options[field] as { default?: unknown; anyOf?: unknown };
    assert.deepEqual(schema.default, value, field);
  }
});
