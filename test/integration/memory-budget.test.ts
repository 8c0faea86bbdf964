// The worker's body budget on a real crawl (bench/memory.ts measures it at full size): pages that together
// pass the budget wait their turn and arrive whole; a page larger than the whole budget is cut there and
// says why; the crawl completes either way. The text job that reads stored bodies back reads them in
// batches of bounded bytes.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { PgCrawlStore } from '../../src/db/crawl-store.js';
import { StatsRepository } from '../../src/db/stats-repo.js';
import { build, crawlToEnd, startCrawl } from '../helper.js';
import { htmlPageOutcome } from '../support/page-outcome.js';

const BUDGET_BYTES = 1024 * 1024;
const PAGE_BYTES = 600_000;
const BIG_BYTES = 3_000_000;

function htmlOf(bytes: number, title: string): Buffer {
  const head = `<!doctype html><html><head><title>${title}</title></head><body><p>`;
  const tail = '</p></body></html>';
  return Buffer.from(
    head + 'word '.repeat(Math.ceil(bytes / 5)).slice(0, bytes - head.length - tail.length) + tail,
  );
}

async function serve(): Promise<{
  server: Server;
  origin: string;
  inFlight: () => number;
  maxInFlight: () => number;
}> {
  let inFlight = 0;
  let maxInFlight = 0;
  const pages = new Map<string, Buffer>([
    ...[1, 2, 3, 4].map((n): [string, Buffer] => [`/page-${n}`, htmlOf(PAGE_BYTES, `page ${n}`)]),
    ['/big', htmlOf(BIG_BYTES, 'big')],
  ]);
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        `<html><body>${[...pages.keys()].map((p) => `<a href="${p}">${p}</a>`).join(' ')}</body></html>`,
      );
      return;
    }
    const body = pages.get(path);
    if (!body) {
      response.writeHead(404);
      response.end();
      return;
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on('close', () => inFlight--);
    // answered a moment later, so the crawl's requests are seen in flight together
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'text/html', 'content-length': String(body.length) });
      response.end(body);
    }, 300);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
  };
}

test('pages over the body budget wait or are cut and marked; the crawl completes', {
  timeout: 120_000,
}, async (t) => {
  const site = await serve();
  t.after(() => {
    site.server.closeAllConnections();
    site.server.close();
  });
  const { app, runtime } = await build(t, { env: { FETCH_MEMORY_BUDGET_BYTES: String(BUDGET_BYTES) } });
  const { id } = await crawlToEnd(
    app,
    {
      seeds: [`${site.origin}/`],
      maxPages: 10,
      politeness: { delayMs: 0, perHostConcurrency: 8 },
      concurrency: 8,
      workers: 1,
      fetch: { maxBytes: 10 * 1024 * 1024, retries: 0 },
    },
    { timeoutMs: 90_000 },
  );

  const { rows: pages } = await runtime.db.pool.query<{
    url: string;
    type: string;
    bytes: number;
    truncated: boolean;
    error: string | null;
  }>('SELECT url, type, bytes, truncated, error FROM pages WHERE crawl_id = $1', [id]);
  const byPath = new Map(pages.map((page) => [new URL(page.url).pathname, page]));
  for (const n of [1, 2, 3, 4]) {
    const page = byPath.get(`/page-${n}`);
    assert.equal(page?.type, 'HTML', JSON.stringify(page));
    // two of these never fit the budget together: each waited for the other's bytes and arrived whole
    assert.equal(page.bytes, PAGE_BYTES);
    assert.equal(page.truncated, false);
    assert.equal(page.error, null);
  }
  const big = byPath.get('/big');
  assert.equal(big?.type, 'HTML', JSON.stringify(big));
  assert.equal(big.bytes, BUDGET_BYTES, 'cut where the whole budget ends');
  assert.equal(big.truncated, true);
  assert.match(big.error ?? '', /memory budget/);
  assert.ok(
    site.maxInFlight() > 1,
    'the pages were requested together: their bodies, not their requests, waited for the budget',
  );
});

test('the text job reads stored bodies in batches of bounded bytes', { timeout: 120_000 }, async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const crawlId = await startCrawl(app, { seeds: ['http://127.0.0.1:9/'], maxPages: 10 });
  const store = new PgCrawlStore(runtime.db.pool);
  await store.markRunning(crawlId);
  const urls = [1, 2, 3].map((n) => `http://127.0.0.1:9/big-${n}`);
  await store.enqueue(
    crawlId,
    null,
    urls.map((url) => ({ url, origin: 'http://127.0.0.1:9', depth: 0, priority: 0, anchor: '' })),
    { slots: 4, maxDiscovered: null },
  );
  await store.saveRobots(
    (await store.ensureSites(crawlId, ['http://127.0.0.1:9'], 4)).get('http://127.0.0.1:9')!,
    { status: 404, body: null, error: null, fetchedAt: new Date() },
    null,
    [],
  );
  for (;;) {
    const claim = await store.claim(crawlId, 'test-worker', 10, 60);
    if (claim.pages.length === 0) break;
    for (const page of claim.pages) {
      // 20 MiB of random bytes: PostgreSQL cannot compress them, so each stored body stays 20 MiB
      const body = randomBytes(20 * 1024 * 1024);
      await store.completePage(
        crawlId,
        page,
        htmlPageOutcome({ bytes: body.length, finalUrl: page.url, body }),
        { slots: 4, maxDiscovered: null },
      );
      await store.requestDone(crawlId, page, 0, null);
    }
  }
  const repository = new StatsRepository(runtime.db.pool);
  const batches: number[][] = [];
  for (let afterId = 0; ; ) {
    const rows = await repository.pendingText(crawlId, afterId, 100, 64 * 1024 * 1024);
    if (rows.length === 0) break;
    batches.push(rows.map((row) => (row.html?.length ?? 0) / 2 ** 20));
    afterId = rows[rows.length - 1]!.id;
  }
  // the seed and three pages, 20 MiB each; a batch reads more only while it has read less than 32 MiB
  assert.deepEqual(batches, [
    [20, 20],
    [20, 20],
  ]);
  // a batch that reads only the bodies' first 4 MiB counts those toward its bytes: every page in one batch
  const prefixes = await repository.pendingText(crawlId, 0, 100, 4 * 1024 * 1024);
  assert.deepEqual(
    prefixes.map((row) => (row.html?.length ?? 0) / 2 ** 20),
    [4, 4, 4, 4],
  );
});
