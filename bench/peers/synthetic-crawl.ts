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
