// Bodies stored before raw bodies (gzip in page_contents.html_gzip and page_responses.body_gzip) read exactly as
// raw ones do: a crawl's pages, exports and WARC are the same bytes after its rows are turned to the old form.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { build, crawlToEnd, textJobDone } from '../helper.js';
import { crawlRequestFor, startTestWeb } from '../support/testweb/index.js';

/** What a client reads of the crawl's stored bodies: a page's HTML, the JSON lines export and the WARC. */
async function readBack(app: FastifyInstance, crawlId: string, pageIds: number[]) {
  const read = async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    assert.equal(response.statusCode, 200, url);
    return response.rawPayload;
  };
  const pages = await Promise.all(
    pageIds.map((pageId) => read(`/v1/crawls/${crawlId}/pages/${pageId}?include=html,markdown`)),
  );
  return {
    pages: pages.map((payload) => payload.toString('utf8')),
    lines: (await read(`/v1/crawls/${crawlId}/export?fields=id,type&include=html,markdown`)).toString('utf8'),
    warc: await read(`/v1/crawls/${crawlId}/export?format=warc`),
  };
}

test('bodies stored as gzip, as rows written before raw bodies are, read as their raw form does', async (t) => {
  const web = await startTestWeb({
    seed: 23,
    hosts: 1,
    pagesPerHost: 15,
    crawlDelaySeconds: 0,
    features: { errors: true, binaries: true, charsets: true, duplicates: true },
  });
  t.after(() => web.close());
  const { app, runtime } = await build(t);
  const { id } = await crawlToEnd(app, crawlRequestFor(web, { maxPages: 100, store: { warc: true } }), {
    timeoutMs: 180_000,
  });
  // the text job writes each page's text and simhash beside its body: done before the rows are rewritten
  await textJobDone(app, id);
  const pool = runtime.db.pool;
  const stored = await pool.query<{ id: number; html: boolean; response: boolean }>(
    `SELECT p.id, c.html IS NOT NULL AS html, r.body IS NOT NULL AS response
     FROM pages p LEFT JOIN page_contents c ON c.page_id = p.id LEFT JOIN page_responses r ON r.page_id = p.id
     WHERE p.crawl_id = $1 ORDER BY p.id`,
    [id],
  );
  assert.ok(stored.rows.filter((row) => row.html).length >= 5, 'HTML bodies stored raw');
  assert.ok(
    stored.rows.some((row) => row.response),
    'store.warc keeps another body raw',
  );
  const withHtml = stored.rows.filter((row) => row.html).map((row) => row.id);
  const before = await readBack(app, id, withHtml);

  for (const [table, raw, gzip] of [
    ['page_contents', 'html', 'html_gzip'],
    ['page_responses', 'body', 'body_gzip'],
  ] as const) {
    const rows = await pool.query<{ page_id: number; body: Buffer }>(
      `SELECT page_id, ${raw} AS body FROM ${table} WHERE ${raw} IS NOT NULL AND page_id = ANY($1::bigint[])`,
      [stored.rows.map((row) => row.id)],
    );
    for (const row of rows.rows) {
      await pool.query(`UPDATE ${table} SET ${gzip} = $2, ${raw} = NULL WHERE page_id = $1`, [
        row.page_id,
        gzipSync(row.body),
      ]);
    }
  }
  const left = await pool.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM page_contents c JOIN pages p ON p.id = c.page_id
             WHERE p.crawl_id = $1 AND c.html IS NOT NULL)
          + (SELECT count(*) FROM page_responses r JOIN pages p ON p.id = r.page_id
             WHERE p.crawl_id = $1 AND r.body IS NOT NULL) AS n`,
    [id],
  );
  assert.equal(Number(left.rows[0]!.n), 0, 'every body of the crawl is in its gzip column now');

  const after = await readBack(app, id, withHtml);
  assert.deepEqual(after.pages, before.pages, "each page's HTML and Markdown");
  assert.equal(after.lines, before.lines, 'the JSON lines export');
  assert.ok(after.warc.equals(before.warc), 'the WARC export, byte for byte');
});
