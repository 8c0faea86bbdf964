// PgCrawlStore against a real PostgreSQL: the per-page statements are prepared, so their generic plans are
// only as good as the page table's statistics; the store refreshes them itself as a crawl fills the table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type pg from 'pg';
import { loadConfig } from '../../src/config.js';
import type { DiscoveredUrl } from '../../src/crawler/engine/ports.js';
import { PgCrawlStore } from '../../src/db/crawl-store.js';
import { sql } from '../../src/db/sql.js';
import { build, eventually, startCrawl } from '../helper.js';
import { htmlPageOutcome } from '../support/page-outcome.js';

type SentQuery = string | { name?: string; text: string };

/**
 * `pool`, with every query it is sent shown to `onQuery` first (the statement's text or config); a query for
 * which `failure` gives an error fails with it instead of being sent.
 */
function recording(
  pool: pg.Pool,
  onQuery: (query: SentQuery) => void,
  failure: (query: SentQuery) => Error | undefined = () => undefined,
): pg.Pool {
  return new Proxy(pool, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver);
      return (query: SentQuery, ...rest: unknown[]) => {
        onQuery(query);
        const error = failure(query);
        if (error) return Promise.reject(error);
        return (target.query as (...args: unknown[]) => unknown)(query, ...rest);
      };
    },
  });
}

test('queuing pages past the table’s last estimated size refreshes its statistics', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const crawlId = await startCrawl(app, { seeds: ['http://127.0.0.1:9/'], maxPages: 5000 });
  const pool = runtime.db.pool;
  const rowEstimate = async () =>
    (await pool.query<{ rows: number }>(sql('pages_row_estimate'))).rows[0]!.rows;
  assert.ok((await rowEstimate()) < 100, 'a new schema starts without statistics');

  const failures: Error[] = [];
  // The store starts its refresh (in the background) by sending ANALYZE from within enqueue: the statements
  // it sends tell, as soon as enqueue returns, whether it started one, without waiting for it to finish.
  const sent: string[] = [];
  const recordingPool = recording(pool, (query) => sent.push(typeof query === 'string' ? query : query.text));
  const analyzeSent = () => sent.filter((text) => text === sql('pages_analyze')).length;
  const store = new PgCrawlStore(recordingPool, (error) => failures.push(error));
  const frontier = { slots: 1, maxDiscovered: null };
  const batch = (from: number): DiscoveredUrl[] =>
    Array.from({ length: 100 }, (_, i) => ({
      url: `http://127.0.0.1:9/page-${from + i}`,
      origin: 'http://127.0.0.1:9',
      depth: 1,
      priority: 0,
      anchor: '',
    }));
  for (let from = 0; from < 400; from += 100) await store.enqueue(crawlId, null, batch(from), frontier);
  assert.ok(sent.length > 0, 'the store’s statements are seen');
  assert.equal(analyzeSent(), 0, 'no refresh before 500 pages were queued');
  assert.ok((await rowEstimate()) < 100, 'no refresh before 500 pages were queued');

  for (let from = 400; from < 500; from += 100) await store.enqueue(crawlId, null, batch(from), frontier);
  assert.equal(analyzeSent(), 1, 'one refresh once 500 pages were queued');
  await eventually(async () => (await rowEstimate()) >= 500, {
    message: 'ANALYZE to count the 500 queued pages in the estimate',
    timeoutMs: 60_000,
  });
  assert.deepEqual(failures, []);
});

test('maxResults: claims stop at the result that reaches it; relevant pages recorded later are not results', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const origin = 'http://127.0.0.1:9';
  const crawlId = await startCrawl(app, {
    seeds: [`${origin}/`],
    maxPages: 50,
    maxResults: 1,
    relevance: { query: 'tennis' },
    politeness: { delayMs: 0, perHostConcurrency: 4 },
  });
  const store = new PgCrawlStore(runtime.db.pool);
  await store.markRunning(crawlId);
  const frontier = { slots: 4, maxDiscovered: null };
  const urls: DiscoveredUrl[] = Array.from({ length: 6 }, (_, i) => ({
    url: `${origin}/p${i}`,
    origin,
    depth: 1,
    priority: 0,
    anchor: '',
  }));
  await store.enqueue(crawlId, null, urls, frontier);
  const sites = await store.ensureSites(crawlId, [origin], 4);
  // robots.txt known: every politeness slot of the host may be used
  await store.saveRobots(
    sites.get(origin)!,
    { status: 404, body: null, error: null, fetchedAt: new Date() },
    null,
    [],
  );
  const claimed = await store.claim(crawlId, 'w1', 3, 60);
  assert.equal(claimed.pages.length, 3);
  const relevantOutcome = () => htmlPageOutcome({ score: 1, relevant: true });
  const [first, second, third] = claimed.pages;
  for (const page of claimed.pages) await store.requestDone(crawlId, page, 0, null);
  await store.completePage(crawlId, first!, relevantOutcome(), frontier);
  // the result is in: nothing more is leased though the frontier still holds pages
  const after = await store.claim(crawlId, 'w1', 3, 60);
  assert.equal(after.pages.length, 0);
  // the two fetched in parallel are recorded after it: relevant, visible, not results
  await Promise.all(
    [second!, third!].map((page) => store.completePage(crawlId, page, relevantOutcome(), frontier)),
  );
  const status = (await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}` })).json();
  assert.equal(status.relevantPages, 1);
  const pages = (await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}/pages?minScore=1` })).json();
  assert.deepEqual(
    pages.items.map((page: { id: number; result: boolean }) => [page.id, page.result]),
    [
      [first!.id, true],
      [second!.id, false],
      [third!.id, false],
    ].sort((a, b) => (a[0] as number) - (b[0] as number)),
  );
  const results = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}/pages?result=true` })
  ).json();
  assert.deepEqual(
    results.items.map((page: { id: number }) => page.id),
    [first!.id],
  );
});

test('text from the web is stored without NUL or lone surrogates: robots.txt, disallow reasons, crawl errors', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const crawlId = await startCrawl(app, { seeds: ['http://127.0.0.1:9/'], maxPages: 10 });
  const pool = runtime.db.pool;
  const store = new PgCrawlStore(pool);
  const sites = await store.ensureSites(crawlId, ['http://127.0.0.1:9'], 1);
  const siteId = sites.get('http://127.0.0.1:9')!;
  await store.saveRobots(
    siteId,
    { status: 200, body: 'User-agent: *\u0000\nDisallow: /x\ud800\n', error: null, fetchedAt: new Date() },
    null,
    [],
  );
  assert.equal((await store.loadRobots(siteId))?.body, 'User-agent: *\nDisallow: /x\ufffd\n');
  const [refused] = await store.enqueue(
    crawlId,
    null,
    [
      {
        url: 'http://127.0.0.1:9/no',
        origin: 'http://127.0.0.1:9',
        depth: 1,
        priority: 0,
        anchor: '',
        disallowed: 'robots.txt\u0000 says no',
      },
    ],
    { slots: 1, maxDiscovered: null },
  );
  assert.equal(refused?.error, 'robots.txt says no');
  await store.finishCrawl(crawlId, 'failed', 'scorer: bad\u0000 query \udc00');
  const crawl = (await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}` })).json();
  assert.equal(crawl.error, 'scorer: bad query \ufffd');
});

test('pages recorded together share one statement, count results in order, and a bad page fails alone', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const origin = 'http://127.0.0.1:9';
  const crawlId = await startCrawl(app, {
    seeds: [`${origin}/`],
    maxPages: 50,
    maxResults: 4,
    relevance: { query: 'tennis' },
  });
  const sent: string[] = [];
  const pool = runtime.db.pool;
  const recordingPool = recording(pool, (query) => {
    if (typeof query !== 'string' && query.name) sent.push(query.name);
  });
  const statements = (name: string) => sent.filter((sentName) => sentName === name).length;
  const store = new PgCrawlStore(recordingPool);
  await store.markRunning(crawlId);
  const frontier = { slots: 1, maxDiscovered: null };
  const count = 24;
  const url = (i: number) => `${origin}/p${i}`;
  const urls: DiscoveredUrl[] = Array.from({ length: count }, (_, i) => ({
    url: url(i),
    origin,
    depth: 1,
    priority: 0,
    anchor: '',
  }));
  await store.enqueue(crawlId, null, urls, frontier);
  const sites = await store.ensureSites(crawlId, [origin], 1);
  const { rows } = await pool.query<{ id: number; url: string }>(
    'SELECT id, canonical_url AS url FROM pages WHERE crawl_id = $1',
    [crawlId],
  );
  const idOf = new Map(rows.map((row) => [row.url, row.id]));
  const page = (i: number) => ({
    id: idOf.get(url(i))!,
    url: url(i),
    depth: 1,
    priority: 0,
    siteId: sites.get(origin)!,
    origin,
    slot: 0,
    queuedAt: new Date(),
    attempts: 0,
    suspect: false,
    leaseExpiries: 0,
  });
  const badPage = 17;
  // Pages 0–7 are relevant; page 17 cannot be stored (its size overflows the column). Each links to the
  // next page, shows an image, and keeps a body; all but every third keep the main text read as fetched.
  const outcome = (i: number) =>
    htmlPageOutcome({
      score: i < 8 ? 1 : 0,
      relevant: i < 8,
      bytes: i === badPage ? 2 ** 40 : 10,
      body: Buffer.from(`<p>page ${i}</p>`),
      text: i % 3 === 0 ? null : `page ${i}`,
      links: [
        { url: url((i + 1) % count), origin, depth: 2, priority: 0, anchor: `to ${i + 1}`, known: true },
      ],
      images: [{ url: `${origin}/img${i}.png`, alt: `image ${i}` }],
    });
  // Handed over at once: the first two find the writer idle and go alone, the other ten wait and go together.
  const round = (from: number) =>
    Promise.allSettled(
      Array.from({ length: 12 }, (_, k) =>
        store.completePage(crawlId, page(from + k), outcome(from + k), frontier),
      ),
    );
  const first = await round(0);
  assert.ok(first.every((result) => result.status === 'fulfilled'));
  assert.equal(statements('page_complete'), 2);
  assert.equal(statements('page_complete_batch'), 1, 'ten pages in one statement');
  // the same with a bad page among the ten: the batch fails and its pages are written one by one
  const second = await round(12);
  assert.deepEqual(
    second.map((result, k) => [12 + k, result.status]),
    Array.from({ length: 12 }, (_, k) => [12 + k, 12 + k === badPage ? 'rejected' : 'fulfilled']),
  );
  assert.equal(statements('page_complete_batch'), 2);
  assert.equal(statements('page_complete'), 2 + 2 + 10);
  const stored = await pool.query<{
    url: string;
    type: string;
    result: boolean;
    links: number;
    images: number;
    body: boolean;
    text: string | null;
  }>(
    `SELECT p.canonical_url AS url, p.type, p.result,
            (SELECT count(*)::int FROM links l WHERE l.from_page = p.id) AS links,
            (SELECT count(*)::int FROM images m WHERE m.page_id = p.id) AS images,
            EXISTS (SELECT 1 FROM page_contents c WHERE c.page_id = p.id AND c.html IS NOT NULL) AS body,
            (SELECT c.main_text FROM page_contents c WHERE c.page_id = p.id) AS text
     FROM pages p WHERE p.crawl_id = $1`,
    [crawlId],
  );
  const byUrl = new Map(stored.rows.map((row) => [row.url, row]));
  for (let i = 0; i < count; i++) {
    const row = byUrl.get(url(i))!;
    if (i === badPage) {
      assert.equal(row.type, 'FRONTIER', 'the bad page is not recorded, and the others are');
      continue;
    }
    assert.deepEqual(
      { type: row.type, links: row.links, images: row.images, body: row.body, text: row.text },
      { type: 'HTML', links: 1, images: 1, body: true, text: i % 3 === 0 ? null : `page ${i}` },
      url(i),
    );
  }
  // Four results, all relevant; the two written alone race the batch for the crawl row, but within the batch
  // results go to its relevant pages in the order they were handed over.
  const results = Array.from({ length: count }, (_, i) => byUrl.get(url(i))!.result);
  assert.equal(results.filter(Boolean).length, 4);
  assert.ok(
    results.every((result, i) => !result || i < 8),
    'only relevant pages are results',
  );
  const inBatch = results.slice(2, 8);
  assert.deepEqual(
    inBatch,
    inBatch.map((_, k) => k < inBatch.filter(Boolean).length),
    'a prefix of the batch',
  );
  const html = await pool.query<{ html: Buffer }>('SELECT c.html FROM page_contents c WHERE c.page_id = $1', [
    idOf.get(url(9)),
  ]);
  assert.equal(html.rows[0]!.html.toString(), '<p>page 9</p>', 'a body written in a batch');
  const status = (await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}` })).json();
  assert.equal(status.relevantPages, 4);
  assert.equal(status.links, count - 1);
  assert.equal(status.images, count - 1);
});

test('deleting a crawl takes every link of its pages along, links across its sites too, and leaves other crawls’ links', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const pool = runtime.db.pool;
  const store = new PgCrawlStore(pool);
  const frontier = { slots: 1, maxDiscovered: null };
  const origins = ['http://127.0.0.1:9', 'http://127.0.0.2:9'];
  // Two crawls of the same two hosts; every page links to every other page of its crawl, on both hosts, so
  // whichever host's pages a cascade deletes first, links point into the pages deleted after them.
  const crawlWithLinks = async (): Promise<string> => {
    const crawlId = await startCrawl(app, { seeds: origins.map((origin) => `${origin}/`), maxPages: 50 });
    const urls: DiscoveredUrl[] = origins.flatMap((origin) =>
      [0, 1, 2].map((i) => ({ url: `${origin}/p${i}`, origin, depth: 1, priority: 0, anchor: `p${i}` })),
    );
    await store.enqueue(crawlId, null, urls, frontier);
    await store.ensureSites(crawlId, origins, 1);
    const pages = await pool.query<{ id: number; url: string; site_id: number; origin: string }>(
      `SELECT p.id, p.url, p.site_id, s.origin FROM pages p JOIN sites s ON s.id = p.site_id
       WHERE p.crawl_id = $1 AND p.url = ANY($2::text[])`,
      [crawlId, urls.map((url) => url.url)],
    );
    assert.equal(pages.rows.length, urls.length);
    for (const page of pages.rows) {
      const claimed = {
        id: page.id,
        url: page.url,
        depth: 1,
        priority: 0,
        siteId: page.site_id,
        origin: page.origin,
        slot: 0,
        queuedAt: new Date(),
        attempts: 1,
        suspect: false,
        leaseExpiries: 0,
      };
      const links = urls.filter((url) => url.url !== page.url);
      await store.completePage(crawlId, claimed, htmlPageOutcome({ links }), frontier);
    }
    return crawlId;
  };
  const kept = await crawlWithLinks();
  const deleted = await crawlWithLinks();
  const linksOf = async (crawlId: string) =>
    (
      await pool.query<{ from_page: string; to_page: string }>(
        `SELECT l.from_page, l.to_page FROM links l
         WHERE l.from_page IN (SELECT id FROM pages WHERE crawl_id = $1)
            OR l.to_page IN (SELECT id FROM pages WHERE crawl_id = $1)
         ORDER BY 1, 2`,
        [crawlId],
      )
    ).rows;
  const keptLinks = await linksOf(kept);
  assert.equal(keptLinks.length, 6 * 5, 'each page links to the five others');
  assert.equal((await linksOf(deleted)).length, 6 * 5);
  const deletedPages = (
    await pool.query<{ id: string }>('SELECT id FROM pages WHERE crawl_id = $1', [deleted])
  ).rows.map((row) => row.id);

  await pool.query('DELETE FROM crawls WHERE id = $1', [deleted]);
  const left = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM links WHERE from_page = ANY($1::bigint[]) OR to_page = ANY($1::bigint[])',
    [deletedPages],
  );
  assert.equal(left.rows[0]!.n, 0, 'no link of the deleted crawl is left, from or to its pages');
  assert.deepEqual(await linksOf(kept), keptLinks);
  const total = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM links');
  assert.equal(total.rows[0]!.n, keptLinks.length);
});

test('a claim or a page write that PostgreSQL aborts as a deadlock is run again', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const origin = 'http://127.0.0.1:9';
  const crawlId = await startCrawl(app, { seeds: [`${origin}/`], maxPages: 10 });
  // The first claim and the first lone page write are aborted the way PostgreSQL aborts a lock cycle's victim
  // (SQLSTATE 40P01): a real cycle needs three transactions meeting in one order, which a test cannot force.
  const aborted = new Set(['claim_frontier', 'page_complete']);
  const sent: string[] = [];
  const pool = runtime.db.pool;
  const nameOf = (query: SentQuery) => (typeof query === 'string' ? undefined : query.name);
  const deadlocking = recording(
    pool,
    (query) => {
      const name = nameOf(query);
      if (name !== undefined) sent.push(name);
    },
    (query) => {
      const name = nameOf(query);
      const abort = name !== undefined && aborted.delete(name);
      return abort ? Object.assign(new Error('deadlock detected'), { code: '40P01' }) : undefined;
    },
  );
  const store = new PgCrawlStore(deadlocking);
  await store.markRunning(crawlId);
  const frontier = { slots: 1, maxDiscovered: null };
  await store.enqueue(
    crawlId,
    null,
    [{ url: `${origin}/`, origin, depth: 0, priority: 0, anchor: '' }],
    frontier,
  );
  const claim = await store.claim(crawlId, 'worker-1', 1, 60);
  assert.equal(claim.pages.length, 1, 'the claim was run again and leased the page');
  await store.completePage(
    crawlId,
    claim.pages[0]!,
    htmlPageOutcome({ score: 0, relevant: false }),
    frontier,
  );
  assert.deepEqual(
    sent.filter((name) => name === 'claim_frontier' || name === 'page_complete'),
    ['claim_frontier', 'claim_frontier', 'page_complete', 'page_complete'],
  );
  const { rows } = await pool.query<{ type: string }>('SELECT type FROM pages WHERE crawl_id = $1', [
    crawlId,
  ]);
  assert.deepEqual(
    rows.map((row) => row.type),
    ['HTML'],
  );
});

test('a dead worker’s pages are claimed again by another within about the default lease', {
  timeout: 120_000,
}, async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const { leaseSecs } = loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/db' });
  assert.equal(leaseSecs, 10, 'LEASE_SECS default');
  const crawlId = await startCrawl(app, { seeds: ['http://127.0.0.1:9/'], maxPages: 5 });
  const store = new PgCrawlStore(runtime.db.pool);
  await store.markRunning(crawlId);
  // a worker claims the seed and dies without releasing or renewing it
  const dead = await store.claim(crawlId, 'dead-worker', 1, leaseSecs);
  assert.equal(dead.pages.length, 1);
  const diedAtMs = performance.now();
  assert.deepEqual((await store.claim(crawlId, 'live-worker', 1, leaseSecs)).pages, [], 'leased');

  const retaken = await eventually(
    async () => {
      const claim = await store.claim(crawlId, 'live-worker', 1, leaseSecs);
      return claim.pages.length > 0 ? claim.pages : undefined;
    },
    { message: 'the dead worker’s page to be claimed again', timeoutMs: 90_000, intervalMs: 250 },
  );
  const afterMs = performance.now() - diedAtMs;
  t.diagnostic(`claimed again after ${Math.round(afterMs)} ms`);
  assert.equal(retaken[0]?.id, dead.pages[0]?.id);
  assert.equal(retaken[0]?.leaseExpiries, 1, 'taken as a dead worker’s');
  // the lease, not a minute: three times the default still tells the two apart on a busy machine
  assert.ok(afterMs < 3 * leaseSecs * 1000, `claimed again after ${Math.round(afterMs)} ms`);
});
