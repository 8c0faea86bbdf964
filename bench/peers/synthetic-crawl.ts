// A finished crawl written straight into PostgreSQL, for the benches that measure reads of a big crawl (status,
// export, graph) without crawling it first: a schema of the bench's own, its row and its one site; the bench
// adds the pages it needs.
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { openRuntime } from '../../src/runtime.js';
import { benchTrawlConfig } from './measure.js';

/**
 * A new schema `<prefix>_<random>` with trawl's tables (made by opening and closing a runtime on it, as the API
 * would) and a client whose search_path is that schema. The bench drops it with dropBenchSchemas.
 */
export async function openBenchSchema(
  databaseUrl: string,
  prefix: string,
): Promise<{ db: pg.Client; schema: string }> {
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  const runtime = await openRuntime(benchTrawlConfig(databaseUrl, '', schema), pino({ level: 'error' }));
  await runtime.close();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`SET search_path TO "${schema}"`);
  return { db, schema };
}

/** Inserts a completed crawl of `pages` pages on https://bench.invalid and answers its id and site id. */
export async function insertFinishedCrawl(
  db: pg.Client,
  pages: number,
): Promise<{ id: string; site: string }> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO crawls (id, request, strategy, status, max_pages, created_at, started_at, finished_at)
     VALUES ($1, $2, 'bfs', 'completed', $3, now() - interval '1 hour', now() - interval '1 hour', now())`,
    [id, JSON.stringify({ seeds: ['https://bench.invalid/'], maxPages: pages }), pages],
  );
  const site = (
    await db.query<{ id: string }>(
      "INSERT INTO sites (crawl_id, origin) VALUES ($1, 'https://bench.invalid') RETURNING id",
      [id],
    )
  ).rows[0]!.id;
  return { id, site };
}

/**
 * Adds `pages` HTML pages to crawl `id` (site `site`), page g linking back to pages g − 1 … g − linksPerPage:
 * a link graph of about pages × linksPerPage edges for the benches that read one.
 */
export async function insertLinkedPages(
  db: pg.Client,
  crawl: { id: string; site: string },
  pages: number,
  linksPerPage: number,
): Promise<void> {
  await db.query(
    `INSERT INTO pages (crawl_id, site_id, url, canonical_url, type, status, depth, queued_at, fetched_at, bytes)
     SELECT $1, $2, 'https://bench.invalid/p' || g, 'https://bench.invalid/p' || g, 'HTML', 200, 1, now(), now(), 20000
     FROM generate_series(1, $3::int) g`,
    [crawl.id, crawl.site, pages],
  );
  await db.query(
    `INSERT INTO page_links (page_id, to_pages, anchors)
     SELECT p.id, array_agg(p.id - k ORDER BY p.id - k), array_agg(''::text ORDER BY p.id - k)
     FROM pages p, generate_series(1, $2::int) k
     WHERE p.crawl_id = $1 AND p.id - k >= (SELECT min(id) FROM pages WHERE crawl_id = $1)
     GROUP BY p.id`,
    [crawl.id, linksPerPage],
  );
  await db.query('ANALYZE pages; ANALYZE page_links');
}
