// The status counts come from counters the database keeps as the crawl writes (migrations/0016): after a real
// crawl of the test web — errors, duplicates, binaries, redirects, robots.txt, two runners — they equal a full
// scan of its pages, links, images and documents; a finished crawl's timing percentiles are kept after the
// first read and read back the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, crawlToEnd } from '../helper.js';
import { crawlRequestFor, startTestWeb } from '../support/testweb/index.js';

test('counters equal a full scan after a real crawl; timings are kept once finished', {
  timeout: 240_000,
}, async (t) => {
  const web = await startTestWeb({
    seed: 23,
    hosts: 3,
    pagesPerHost: 30,
    crawlDelaySeconds: 0,
    features: {
      robots: true,
      errors: true,
      duplicates: true,
      binaries: true,
      redirects: true,
      hostile: true,
    },
  });
  t.after(() => web.close());
  const { app, runtime } = await build(t);
  const status = await crawlToEnd(app, crawlRequestFor(web, { maxPages: 150, workers: 2, concurrency: 8 }), {
    timeoutMs: 180_000,
  });
  const { id } = status;

  // the oracle: the scans the counters spare the status on every read
  const db = runtime.db.pool;
  const scanned = await db.query<{ type: string; status: number | null; n: number }>(
    'SELECT type, status, count(*)::int AS n FROM pages WHERE crawl_id = $1 GROUP BY type, status',
    [id],
  );
  const counts: Record<string, number> = {
    HTML: 0,
    BINARY: 0,
    DUPLICATE: 0,
    INVALID: 0,
    DISALLOWED: 0,
    FRONTIER: 0,
  };
  const codes: Record<string, number> = {};
  for (const row of scanned.rows) {
    counts[row.type] = (counts[row.type] ?? 0) + row.n;
    if (row.status !== null) codes[String(row.status)] = (codes[String(row.status)] ?? 0) + row.n;
  }
  assert.deepEqual(status.counts, counts);
  assert.deepEqual(status.statusCodes, codes);
  for (const type of ['INVALID', 'DUPLICATE', 'BINARY', 'DISALLOWED'] as const) {
    assert.ok(counts[type]! > 0, `the crawl met ${type} pages: ${JSON.stringify(counts)}`);
  }
  const found = (
    await db.query<{ links: number; images: number; documents: number }>(
      `SELECT (SELECT count(*) FROM links l JOIN pages p ON p.id = l.from_page WHERE p.crawl_id = $1)::int AS links,
              (SELECT count(*) FROM images i JOIN pages p ON p.id = i.page_id WHERE p.crawl_id = $1)::int AS images,
              (SELECT count(*) FROM page_data d JOIN pages p ON p.id = d.page_id WHERE p.crawl_id = $1)::int AS documents`,
      [id],
    )
  ).rows[0]!;
  assert.deepEqual({ links: status.links, images: status.images, documents: status.documents }, found);
  assert.ok(found.links > 0 && found.documents > 0);
  // several writers (two runners, the API's own inserts) add to rows of their own
  const writers = await db.query<{ n: number }>(
    'SELECT count(DISTINCT writer)::int AS n FROM crawl_counters WHERE crawl_id = $1',
    [id],
  );
  assert.ok(writers.rows[0]!.n >= 2, `writers ${writers.rows[0]!.n}`);

  // the finished crawl kept its timings (at its end, or at its first read); later reads give the same
  const kept = await db.query<{ timings: unknown }>('SELECT timings FROM crawls WHERE id = $1', [id]);
  assert.ok(kept.rows[0]!.timings, 'timings kept');
  const again = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json();
  assert.deepEqual(
    { loadMs: again.loadMs, queueWaitMs: again.queueWaitMs, elapsedMs: again.elapsedMs },
    { loadMs: status.loadMs, queueWaitMs: status.queueWaitMs, elapsedMs: status.elapsedMs },
  );

  // links and images hold no row-level foreign keys (migrations/0028): deleting the crawl's pages still takes
  // them along, and leaves other crawls' alone
  const pageIds = (await db.query<{ id: string }>('SELECT id FROM pages WHERE crawl_id = $1', [id])).rows.map(
    (row) => row.id,
  );
  const before = (
    await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM links WHERE NOT (from_page = ANY($1::bigint[]))',
      [pageIds],
    )
  ).rows[0]!.n;
  await db.query('DELETE FROM crawls WHERE id = $1', [id]);
  const left = (
    await db.query<{ links: number; images: number; others: number }>(
      `SELECT (SELECT count(*) FROM links WHERE from_page = ANY($1::bigint[]) OR to_page = ANY($1::bigint[]))::int AS links,
              (SELECT count(*) FROM images WHERE page_id = ANY($1::bigint[]))::int AS images,
              (SELECT count(*) FROM links WHERE NOT (from_page = ANY($1::bigint[])))::int AS others`,
      [pageIds],
    )
  ).rows[0]!;
  assert.deepEqual(left, { links: 0, images: 0, others: before });
});
