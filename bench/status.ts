// Status reads as a crawl grows: GET /v1/crawls/:id on a finished crawl of 1,000 pages and of 200,000
// (synthesized straight into PostgreSQL: pages with links, images and timings), driven by autocannon with 10
// connections against the API in a child process of its own, beside /healthz on the same server; then what the
// read would cost without the counters (the scans they spare, timed here). Targets: ≥ 5,000 reads/s at p99
// < 20 ms at 200k pages, and the same cost at 1k and 200k.
// Args: --pages N (the large crawl, default 200000), --seconds N (per measurement, default 5)
import autocannon from 'autocannon';
import type pg from 'pg';
import { stopProcess } from '../test/support/processes.js';
import { numberArg } from './args.js';
import { dropBenchSchemas } from './peers/measure.js';
import { insertFinishedCrawl, openBenchSchema } from './peers/synthetic-crawl.js';
import { startApiProcess } from './peers/worker-processes.js';

/** A finished crawl of `pages` pages (90 % HTML, the rest split over the other types), 8 links and 1 image each. */
async function synthesize(db: pg.Client, pages: number): Promise<string> {
  const { id, site } = await insertFinishedCrawl(db, pages);
  await db.query(
    `INSERT INTO pages (crawl_id, site_id, url, canonical_url, type, status, depth, load_ms, queued_at, fetched_at, bytes)
     SELECT $1, $2, 'https://bench.invalid/p' || g, 'https://bench.invalid/p' || g,
            CASE WHEN g % 10 = 0 THEN (ARRAY['BINARY','DUPLICATE','INVALID','DISALLOWED','FRONTIER'])[1 + (g / 10) % 5] ELSE 'HTML' END,
            CASE WHEN g % 10 = 0 AND (g / 10) % 5 = 2 THEN 404 WHEN g % 10 = 0 AND (g / 10) % 5 >= 3 THEN NULL ELSE 200 END,
            1 + g % 7, 5 + g % 400, now() - interval '1 hour' + g * interval '1 ms', now() - interval '1 hour' + g * interval '2 ms', 20000
     FROM generate_series(1, $3::int) g`,
    [id, site, pages],
  );
  await db.query(
    `INSERT INTO page_links (page_id, to_pages, anchors)
     SELECT p.id, array_agg(p.id - k ORDER BY p.id - k), array_agg('' ORDER BY p.id - k)
     FROM pages p, generate_series(1, 8) k
     WHERE p.crawl_id = $1 AND p.id - k > (SELECT min(id) FROM pages WHERE crawl_id = $1)
     GROUP BY p.id`,
    [id],
  );
  await db.query(
    "INSERT INTO images (page_id, url) SELECT id, url || '.png' FROM pages WHERE crawl_id = $1",
    [id],
  );
  await db.query('ANALYZE pages; ANALYZE page_links; ANALYZE images; ANALYZE crawl_counters');
  return id;
}

/** What one status read would cost without the counters: the page, link and image scans they spare. */
async function oldScanMs(db: pg.Client, id: string): Promise<number> {
  const started = performance.now();
  await db.query(
    'SELECT type, status, count(*)::int AS n FROM pages WHERE crawl_id = $1 GROUP BY type, status',
    [id],
  );
  await db.query(
    `SELECT (SELECT count(*) FROM links l JOIN pages p ON p.id = l.from_page WHERE p.crawl_id = $1)::int,
            (SELECT count(*) FROM images i JOIN pages p ON p.id = i.page_id WHERE p.crawl_id = $1)::int,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY load_ms), percentile_cont(0.95) WITHIN GROUP (ORDER BY load_ms)
     FROM pages WHERE crawl_id = $1 AND load_ms IS NOT NULL`,
    [id],
  );
  return performance.now() - started;
}

async function load(url: string, seconds: number) {
  const result = await autocannon({ url, connections: 10, duration: seconds, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  }
  return { rate: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export async function run(args: string[]): Promise<void> {
  const large = numberArg(args, '--pages', 200_000);
  const seconds = numberArg(args, '--seconds', 5);
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const { db, schema } = await openBenchSchema(databaseUrl, 'bench_status');
  const { child: server, base } = await startApiProcess({ DATABASE_URL: databaseUrl, DB_SCHEMA: schema });
  try {
    process.stdout.write(
      `synthesizing finished crawls of 1,000 and ${large.toLocaleString('en-US')} pages…\n`,
    );
    const small = await synthesize(db, 1000);
    const big = await synthesize(db, large);
    // the first read of a finished crawl computes and keeps its timings: not part of the steady state
    for (const id of [small, big]) await fetch(`${base}/v1/crawls/${id}`).then((r) => r.arrayBuffer());
    const rows = [
      ['/healthz', await load(`${base}/healthz`, seconds)],
      ['status, 1k pages', await load(`${base}/v1/crawls/${small}`, seconds)],
      [`status, ${large / 1000}k pages`, await load(`${base}/v1/crawls/${big}`, seconds)],
    ] as const;
    process.stdout.write('\nautocannon, 10 connections, the API alone in its process (no worker):\n');
    for (const [name, r] of rows) {
      process.stdout.write(
        `  ${name.padEnd(20)} ${r.rate.toFixed(0).padStart(6)} reads/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms\n`,
      );
    }
    const ratio = rows[1][1].rate / rows[2][1].rate;
    process.stdout.write(
      `  1k ÷ ${large / 1000}k reads/s: ${ratio.toFixed(2)} (1.00 = flat); targets at ${large / 1000}k: ≥ 5,000 reads/s ` +
        `(${rows[2][1].rate >= 5000 ? 'met' : 'NOT met'}), p99 < 20 ms (${rows[2][1].p99 < 20 ? 'met' : 'NOT met'})\n`,
    );
    const before = [await oldScanMs(db, small), await oldScanMs(db, big)];
    process.stdout.write(
      `before the counters, each status read scanned: ${before[0]!.toFixed(1)} ms at 1k pages, ${before[1]!.toFixed(1)} ms at ${large / 1000}k\n`,
    );
  } finally {
    await stopProcess(server);
    await dropBenchSchemas(db, schema);
    await db.end();
  }
}
