// The CrawlStore contract on PostgreSQL: the same behaviours test/unit/engine/memory-store.test.ts checks on
// the memory double, so the double cannot drift from the SQL.
import { randomUUID } from 'node:crypto';
import { normalizeCrawlRequest } from '../../src/crawler/crawl-request.js';
import { PgCrawlStore } from '../../src/db/crawl-store.js';
import { CrawlsRepository } from '../../src/db/crawls-repo.js';
import { crawlStoreContract } from '../contract/crawl-store.contract.js';
import { build } from '../helper.js';

crawlStoreContract(async (t) => {
  const { runtime } = await build(t, { worker: false });
  const pool = runtime.db.pool;
  const crawls = new CrawlsRepository(pool);
  return {
    store: new PgCrawlStore(pool),
    async createCrawl({ seeds, maxPages, maxResults, slotsPerHost }) {
      const id = randomUUID();
      await crawls.create({
        id,
        request: normalizeCrawlRequest({ seeds, maxPages, maxResults: maxResults ?? null }, 'trawl-test/1.0'),
        strategy: 'bfs',
        maxPages,
        seeds: seeds.map((url) => ({ url, origin: new URL(url).origin })),
        slotsPerHost: slotsPerHost ?? 1,
      });
      return id;
    },
    async cancel(crawlId) {
      await crawls.cancel(crawlId);
    },
    async pages(crawlId) {
      const result = await pool.query<{
        id: string;
        url: string;
        type: string;
        result: boolean;
        text: string | null;
      }>(
        `SELECT p.id, p.url, p.type, p.result, c.main_text AS text
         FROM pages p LEFT JOIN page_contents c ON c.page_id = p.id WHERE p.crawl_id = $1 ORDER BY p.id`,
        [crawlId],
      );
      return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
    },
    async links(crawlId) {
      const result = await pool.query<{ from_url: string; to_url: string }>(
        `SELECT p.url AS from_url, q.url AS to_url FROM links l
         JOIN pages p ON p.id = l.from_page JOIN pages q ON q.id = l.to_page
         WHERE p.crawl_id = $1 ORDER BY 1, 2`,
        [crawlId],
      );
      return result.rows.map((row) => [row.from_url, row.to_url]);
    },
  };
});
