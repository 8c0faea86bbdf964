// CrawlService.status (services/use-cases/crawl-status.ts) keeps status reads flat as a crawl grows: a
// finished crawl's view is read from the database once per process, a running crawl's timing percentiles (a
// scan of its pages) and storage at most once per interval, whatever the number of pollers; another tenant
// still gets "not found".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeCrawlRequest } from '../../../src/crawler/crawl-request.js';
import type { CrawlRow, CrawlsRepository, CrawlTimings } from '../../../src/db/crawls-repo.js';
import { tenantScope } from '../../../src/db/tenant-scope.js';
import type { JobBackend } from '../../../src/jobs/queues.js';
import { CrawlService } from '../../../src/services/use-cases/crawls.js';

const OWNER = '00000000-0000-4000-8000-000000000001';

function fakeRepository(row: CrawlRow) {
  const calls = { status: 0, timings: 0, storage: 0 };
  const timings: CrawlTimings = {
    load_p50: 10,
    load_p95: 20,
    wait_p50: 1,
    wait_p95: 2,
    last_fetched_at: new Date('2026-01-01T00:00:10Z'),
  };
  const repository = {
    async status(_id: string, scope: { kind: string; owner?: string | null }) {
      calls.status++;
      if (scope.kind === 'tenant' && scope.owner !== row.owner) return null;
      return {
        row: { ...row },
        counts: [{ type: 'HTML', status: 200, n: 3 }],
        found: { links: 5, images: 1, documents: 0 },
      };
    },
    async timings(_id: string, stored: CrawlTimings | null = null) {
      if (stored) return { ...stored, computed: false };
      calls.timings++;
      return { ...timings, computed: true };
    },
    async saveTimings() {},
    async currentStatus() {
      return row.status;
    },
    async storage() {
      calls.storage++;
      return {
        page_rows: 3,
        link_rows: 5,
        body_bytes: 100,
        warc_body_bytes: 0,
        screenshot_bytes: 0,
        text_pending: 0,
        measured_at: new Date('2026-01-01T00:00:11Z'),
      };
    },
    async saveStorage() {},
  } as unknown as CrawlsRepository;
  return { repository, calls };
}

function crawlRow(status: string): CrawlRow {
  return {
    id: 'c1',
    request: normalizeCrawlRequest({ seeds: ['https://example.com/'] }, 'trawl-test/1.0'),
    strategy: 'bfs',
    status,
    max_pages: 10,
    error: null,
    problem: null,
    warnings: [],
    created_at: new Date('2026-01-01T00:00:00Z'),
    started_at: new Date('2026-01-01T00:00:00Z'),
    finished_at: status === 'running' ? null : new Date('2026-01-01T00:00:10Z'),
    owner: OWNER,
    relevant_pages: 0,
    timings: null,
  };
}

const service = (repository: CrawlsRepository) =>
  new CrawlService({ repository, jobs: {} as JobBackend, defaultUserAgent: 'test' });

test("a finished crawl's status is read from the database once, and still hidden from other tenants", async () => {
  const { repository, calls } = fakeRepository(crawlRow('completed'));
  const crawls = service(repository);
  const first = await crawls.status('c1', tenantScope(OWNER));
  for (let i = 0; i < 20; i++) assert.deepEqual(await crawls.status('c1', tenantScope(OWNER)), first);
  assert.equal(calls.status, 1);
  assert.equal(calls.storage, 1, 'its storage is measured once, then kept');
  assert.equal(first.counts.HTML, 3);
  assert.equal(first.storage.bytes, 100);
  await assert.rejects(crawls.status('c1', tenantScope(null)), { code: 'not_found' });
  await assert.rejects(crawls.status('c1', tenantScope('00000000-0000-4000-8000-000000000002')), {
    code: 'not_found',
  });
});

test("a running crawl's counts are read every time, its percentiles once per interval", async () => {
  const { repository, calls } = fakeRepository(crawlRow('running'));
  const crawls = service(repository);
  const reads = await Promise.all(Array.from({ length: 20 }, () => crawls.status('c1', tenantScope(OWNER))));
  assert.equal(calls.status, 20);
  assert.equal(calls.timings, 1);
  assert.equal(calls.storage, 1, 'its storage once per interval too');
  assert.ok(reads.every((read) => read.loadMs.p50 === 10));
});
