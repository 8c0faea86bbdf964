// Poison pages: a dead worker is simulated by leasing pages under a made-up worker id and letting the leases
// run out (as a SIGKILLed worker's do, see worker-crash.queue.test.ts). Pages retaken after one expiry are fetched
// one at a time; a page whose lease ran out twice is recorded INVALID "worker-lost" and never fetched again.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { Pool } from 'pg';
import { MAX_LEASE_EXPIRIES, WORKER_LOST } from '../../src/crawler/engine/crawl-runner.js';
import { PgCrawlStore } from '../../src/db/crawl-store.js';
import { build, crawlToEnd, eventually, startCrawl, waitForCrawl } from '../helper.js';

interface Site {
  servers: Server[];
  origins: string[];
  requested: string[];
  maxInFlight: () => number;
}

/** Three hosts (ports) serving small pages without links, each answered `delayMs` late so overlaps show. */
async function serve(delayMs: number): Promise<Site> {
  const requested: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const servers: Server[] = [];
  const origins: string[] = [];
  for (let i = 0; i < 3; i++) {
    const server = createServer((request, response) => {
      if (request.url === '/robots.txt') {
        response.writeHead(404);
        response.end();
        return;
      }
      const url = `${origins[i]}${request.url}`;
      requested.push(url);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(`<html><head><title>${url}</title></head><body><p>page ${url}</p></body></html>`);
      }, delayMs);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    origins.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  return { servers, origins, requested, maxInFlight: () => maxInFlight };
}

/** Waits for the leases of a crawl's pages (all of them, or those of `url`) to run out, as a dead worker's do. */
async function leasesRunOut(pool: Pool, crawlId: string, url: string | null = null): Promise<void> {
  await eventually(
    async () => {
      const { rows } = await pool.query<{ leased: number }>(
        `SELECT count(*)::int AS leased FROM pages
         WHERE crawl_id = $1 AND ($2::text IS NULL OR url = $2) AND leased_until > now()`,
        [crawlId, url],
      );
      return rows[0]!.leased === 0;
    },
    { message: `the leases of crawl ${crawlId}${url ? ` on ${url}` : ''} to run out`, timeoutMs: 30_000 },
  );
}

test('a page its workers died on twice is recorded worker-lost; its neighbours are retried alone', {
  timeout: 120_000,
}, async (t) => {
  const site = await serve(300);
  t.after(() => {
    for (const server of site.servers) {
      server.closeAllConnections();
      server.close();
    }
  });
  const { app, runtime } = await build(t, { worker: false, env: { LEASE_SECS: '2' } });
  const crawlId = await startCrawl(app, {
    seeds: site.origins.map((origin) => `${origin}/page`),
    maxPages: 10,
    politeness: { delayMs: 0 },
    concurrency: 8,
    workers: 1,
  });
  const store = new PgCrawlStore(runtime.db.pool);
  await store.markRunning(crawlId);

  // a worker takes all three pages and dies: its leases run out
  const first = await store.claim(crawlId, 'dead-worker-1', 10, 1);
  assert.equal(first.pages.length, 3);
  assert.ok(first.pages.every((page) => !page.suspect && page.leaseExpiries === 0));
  await leasesRunOut(runtime.db.pool, crawlId);
  // the next worker gets one of them, alone, as a suspect, and dies on it too: that page is the poison
  const second = await store.claim(crawlId, 'dead-worker-2', 10, 1);
  assert.equal(second.pages.length, 1, 'a page retaken from a dead worker comes alone');
  const poison = second.pages[0]!;
  assert.equal(poison.suspect, true);
  assert.equal(poison.leaseExpiries, 1);
  await leasesRunOut(runtime.db.pool, crawlId, poison.url);

  // a live worker finishes the crawl
  runtime.startWorker();
  const final = await waitForCrawl(app, crawlId, 90_000);
  assert.equal(final.status, 'completed', JSON.stringify(final));
  const { rows } = await runtime.db.pool.query<{
    url: string;
    type: string;
    error: string | null;
    lease_expiries: number;
  }>('SELECT url, type, error, lease_expiries FROM pages WHERE crawl_id = $1 ORDER BY id', [crawlId]);
  const poisonRow = rows.find((row) => row.url === poison.url);
  assert.deepEqual(
    { type: poisonRow?.type, error: poisonRow?.error, expiries: poisonRow?.lease_expiries },
    { type: 'INVALID', error: WORKER_LOST, expiries: MAX_LEASE_EXPIRIES },
  );
  assert.equal(site.requested.includes(poison.url), false, 'the poison page is not fetched again');
  const innocents = rows.filter((row) => row.url !== poison.url);
  assert.equal(innocents.length, 2);
  for (const row of innocents) {
    assert.equal(row.type, 'HTML', JSON.stringify(row));
    assert.equal(row.lease_expiries, 1);
  }
  assert.deepEqual(site.requested.sort(), innocents.map((row) => row.url).sort());
  // concurrency 8 on three hosts would fetch them together; as suspects they went one at a time
  assert.equal(site.maxInFlight(), 1, 'pages retaken from a dead worker are fetched one at a time');
});

test('a page that outlives its lease while its worker is alive is not taken for a dead worker’s', {
  timeout: 120_000,
}, async (t) => {
  const site = await serve(5000);
  t.after(() => {
    for (const server of site.servers) {
      server.closeAllConnections();
      server.close();
    }
  });
  // each page takes 5 s, the lease 2 s: the worker renews its leases, so nobody retakes them
  const { app, runtime } = await build(t, { env: { LEASE_SECS: '2' } });
  const { id: crawlId } = await crawlToEnd(
    app,
    {
      seeds: site.origins.map((origin) => `${origin}/page`),
      maxPages: 10,
      politeness: { delayMs: 0 },
      concurrency: 8,
      workers: 1,
    },
    { timeoutMs: 90_000 },
  );
  const { rows } = await runtime.db.pool.query<{ type: string; lease_expiries: number }>(
    'SELECT type, lease_expiries FROM pages WHERE crawl_id = $1',
    [crawlId],
  );
  assert.equal(site.requested.length, 3, 'each page fetched once');
  assert.deepEqual(
    rows.map((row) => [row.type, row.lease_expiries]),
    [
      ['HTML', 0],
      ['HTML', 0],
      ['HTML', 0],
    ],
  );
});
