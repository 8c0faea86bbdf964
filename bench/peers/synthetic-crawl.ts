// A finished crawl written straight into PostgreSQL, for the benches that measure reads of a big crawl (status,
// export) without crawling it first: its row and its one site; the bench adds the pages it needs.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';

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
    `INSERT INTO links (from_page, to_page)
     SELECT p.id, p.id - k FROM pages p, generate_series(1, $2::int) k
     WHERE p.crawl_id = $1 AND p.id - k >= (SELECT min(id) FROM pages WHERE crawl_id = $1)`,
    [crawl.id, linksPerPage],
  );
  await db.query('ANALYZE pages; ANALYZE links');
}
