// The crawl's views (services/presentation/views.ts): the status is computed once from the rows, and a live progress
// event and a webhook's `crawl` object are projections of that status, never numbers of their own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeCrawlRequest } from '../../../src/crawler/crawl-request.js';
import type { CrawlRow } from '../../../src/db/crawls-repo.js';
import {
  crawlProgressView,
  crawlStatusView,
  webhookCrawlView,
} from '../../../src/services/presentation/views.js';

const STARTED = new Date('2026-01-01T00:00:00.000Z');

function finishedCrawl(relevance: boolean): CrawlRow {
  const request = normalizeCrawlRequest(
    {
      seeds: ['https://example.com/'],
      ...(relevance ? { relevance: { query: 'otter' } } : {}),
      webhook: { url: 'https://hooks.example/x', secret: 'sekrit-123' },
    },
    'trawl-test/1.0',
  );
  return {
    id: '00000000-0000-4000-8000-000000000001',
    request: JSON.parse(JSON.stringify(request)),
    strategy: 'bfs',
    status: 'completed',
    max_pages: 1000,
    error: null,
    problem: null,
    warnings: [],
    created_at: STARTED,
    started_at: STARTED,
    finished_at: new Date(STARTED.getTime() + 10_000),
    owner: null,
    relevant_pages: 3,
  };
}

const COUNTS = [
  { type: 'HTML', status: 200, n: 8 },
  { type: 'INVALID', status: 404, n: 1 },
  { type: 'DUPLICATE', status: null, n: 1 },
  { type: 'DISALLOWED', status: null, n: 2 },
  { type: 'FRONTIER', status: null, n: 5 },
];
const TOTALS = {
  links: 40,
  images: 2,
  documents: 0,
  load_p50: 12.34,
  load_p95: 99.99,
  wait_p50: null,
  wait_p95: null,
  last_fetched_at: null,
};
const STORAGE = {
  page_rows: 17,
  link_rows: 40,
  body_bytes: 1000,
  warc_body_bytes: 20,
  screenshot_bytes: 3,
  measured_at: new Date('2026-01-01T00:00:00Z'),
};

test('crawlStatusView: counts, requests made, rate and timings from the rows; the secret is not shown', () => {
  const status = crawlStatusView(finishedCrawl(false), COUNTS, TOTALS, { storage: STORAGE, expiresAt: null });
  assert.equal(status.counts.HTML, 8);
  assert.equal(status.counts.BINARY, 0);
  // DISALLOWED, FRONTIER and a DUPLICATE without a status of its own are not requests
  assert.equal(status.pagesFetched, 9);
  assert.deepEqual(status.statusCodes, { '200': 8, '404': 1 });
  assert.equal(status.elapsedMs, 10_000);
  assert.equal(status.pagesPerSecond, 0.9);
  assert.deepEqual(status.loadMs, { p50: 12.3, p95: 100 });
  assert.equal((status.request.webhook as { secret: string }).secret, '(set)');
  assert.equal(status.relevantPages, undefined);
  assert.deepEqual(status.storage, {
    bytes: 1023,
    bodyBytes: 1000,
    warcBodyBytes: 20,
    screenshotBytes: 3,
    pageRows: 17,
    linkRows: 40,
    measuredAt: '2026-01-01T00:00:00.000Z',
  });
});

test('progress events and webhook bodies are projections of the one status', () => {
  for (const relevance of [false, true]) {
    const status = crawlStatusView(finishedCrawl(relevance), COUNTS, TOTALS, {
      storage: STORAGE,
      expiresAt: null,
    });
    const progress = crawlProgressView(status);
    const webhook = webhookCrawlView(status);
    for (const view of [progress, webhook] as Array<Record<string, unknown>>) {
      for (const [field, value] of Object.entries(view)) {
        const source = field === 'links' ? '_links' : field;
        assert.deepEqual(value, (status as Record<string, unknown>)[source], field);
      }
    }
    assert.equal('relevantPages' in progress, relevance);
    assert.equal('harvestRate' in webhook, relevance);
    assert.equal(progress.id, status.id);
    assert.equal(webhook._links, status._links);
    assert.equal(webhook.links, status._links, 'the deprecated alias, for one more release');
  }
});
