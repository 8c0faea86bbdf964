// GET /v1/crawls/:id/graph on a crawl larger than one batch of the graph's cursors (10,000 rows): vertices and
// edges are read in batches and written chunk by chunk, and every format must still hold the whole graph, in
// page id order, without the links a crawl's graph leaves out (self-loops, pages robots.txt forbids).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { build } from '../helper.js';

const PAGES = 12_000;
/** Each page links back 1 and 7 pages, to itself and to the forbidden page. */
const BACK_LINKS = [1, 7];

test('a graph of 12,000 pages and 24,000 links comes out whole and in order as JSON, edges file and GEXF', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const db = runtime.db.pool;
  const id = randomUUID();
  await db.query(
    `INSERT INTO crawls (id, request, strategy, status, max_pages, started_at, finished_at)
     VALUES ($1, $2, 'bfs', 'completed', $3, now(), now())`,
    [id, JSON.stringify({ seeds: ['https://graph.invalid/'], maxPages: PAGES }), PAGES],
  );
  const site = (
    await db.query<{ id: number }>(
      "INSERT INTO sites (crawl_id, origin) VALUES ($1, 'https://graph.invalid') RETURNING id",
      [id],
    )
  ).rows[0]!.id;
  await db.query(
    `INSERT INTO pages (crawl_id, site_id, url, canonical_url, type, status, depth)
     SELECT $1::uuid, $2::bigint, 'https://graph.invalid/p' || g, 'https://graph.invalid/p' || g, 'HTML', 200, 1
     FROM generate_series(1, $3::int) g
     UNION ALL SELECT $1, $2, 'https://graph.invalid/forbidden', 'https://graph.invalid/forbidden', 'DISALLOWED', NULL, 1`,
    [id, site, PAGES],
  );
  const pages = (
    await db.query<{ id: number; url: string; type: string }>(
      'SELECT id, url, type FROM pages WHERE crawl_id = $1 ORDER BY id',
      [id],
    )
  ).rows;
  const html = pages.filter((page) => page.type === 'HTML');
  const forbidden = pages.find((page) => page.type === 'DISALLOWED')!;
  const edges: Array<[number, number]> = [];
  const links: Array<[number, number]> = [];
  html.forEach((page, i) => {
    const targets = BACK_LINKS.filter((back) => i >= back).map((back) => html[i - back]!.id);
    for (const to of targets.sort((a, b) => a - b)) edges.push([page.id, to]);
    links.push(
      ...targets.map((to): [number, number] => [page.id, to]),
      [page.id, page.id],
      [page.id, forbidden.id],
    );
  });
  await db.query('INSERT INTO links (from_page, to_page) SELECT * FROM unnest($1::bigint[], $2::bigint[])', [
    links.map(([from]) => from),
    links.map(([, to]) => to),
  ]);

  const json = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/graph?format=json` });
  assert.equal(json.statusCode, 200);
  assert.match(json.headers['content-type'] as string, /^application\/json/);
  // Links only go back (1 and 7 pages), so every page is a strong component of its own, all are one weak
  // component, and no three pages close a triangle (i − 1 and i − 7 are 6 apart).
  assert.deepEqual(json.json(), {
    vertices: html.map(({ id, url }, i) => ({
      id,
      url,
      clustering: 0,
      weakComponent: 0,
      strongComponent: i,
    })),
    edges,
  });

  const file = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/graph?format=edges` });
  const urlOf = new Map(html.map((page) => [page.id, page.url]));
  assert.equal(
    file.body,
    `${[String(PAGES), ...edges.map(([from, to]) => `${urlOf.get(from)} ${urlOf.get(to)}`)].join('\n')}\n`,
  );

  const gexf = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}/graph?format=gexf` })).body;
  assert.equal(gexf.match(/<node /g)?.length, PAGES);
  assert.equal(gexf.match(/<edge /g)?.length, edges.length);
  const ranks = [...gexf.matchAll(/for="pageRank" value="([^"]+)"/g)].map((match) => Number(match[1]));
  assert.equal(ranks.length, PAGES);
  assert.ok(Math.abs(ranks.reduce((sum, rank) => sum + rank, 0) - 1) < 1e-6, 'the ranks sum to 1');
  const strong = [...gexf.matchAll(/for="strongComponent" value="([^"]+)"/g)].map((match) =>
    Number(match[1]),
  );
  assert.deepEqual(
    strong,
    Array.from({ length: PAGES }, (_, i) => i),
  );
  assert.equal(gexf.match(/<attvalue for="clustering" value="0"\/>/g)?.length, PAGES);
  assert.equal(gexf.match(/<attvalue for="weakComponent" value="0"\/>/g)?.length, PAGES);
  assert.match(gexf, /<attribute id="clustering" title="clustering" type="double"\/>/);
  assert.ok(gexf.trimEnd().endsWith('</gexf>'));
});
