// Near-duplicates (docs/reference.md#near-duplicates): with duplicates.near, the text job stores each HTML page's
// main-text simhash and marks a page within maxDistance bits of an earlier page's as nearDuplicateOf it. A small
// site of its own holds an article, the same article with its timestamp and ad slot changed, and a distinct one.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { hammingDistance } from '../../src/crawler/text/simhash.js';
import { sql } from '../../src/db/sql.js';
import { allPages, build, crawlToEnd, textJobDone } from '../helper.js';
import { type PlanNode, planNodes } from '../support/query-plans.js';

const ARTICLE = [
  'The harbour authority approved the new breakwater after three years of surveys along the northern shore.',
  'Engineers will sink concrete caissons into the seabed, and the old wooden pier will be taken down in spring.',
  'Fishermen worry that the works will close the inner channel during the herring season, when the boats come in',
  'before dawn. The authority promised a temporary channel marked with lit buoys, and a pilot boat on call at',
  'night. The breakwater should shelter the moorings from winter storms that have sunk two trawlers since the',
  'last repairs, and the ferry will no longer have to wait outside the harbour mouth for the tide to turn.',
  'Local shops hope the longer quay will bring cruise visitors, though the council has not yet decided whether',
  'large ships may berth there. A public meeting in the town hall will present the drawings to residents.',
].join(' ');

function page(title: string, body: string, links: string[] = []): string {
  const nav = links.map((href) => `<a href="${href}">${href}</a>`).join(' ');
  return `<!doctype html><html><head><title>${title}</title></head><body><nav>${nav}</nav><article><h1>${title}</h1>${body}</article></body></html>`;
}

const SITE = new Map<string, string>([
  ['/', page('Harbour', '<p>News of the harbour and the town.</p>', ['/article', '/copy', '/other'])],
  [
    '/article',
    page(
      'Breakwater approved',
      `<p>Published 2026-11-02 08:15.</p><p>${ARTICLE}</p><aside><p>Advertisement: fresh fish delivered daily.</p></aside>`,
    ),
  ],
  [
    // the same article under another URL, with a new timestamp and another advertisement in its ad slot
    '/copy',
    page(
      'Breakwater approved',
      `<p>Published 2026-11-03 17:40.</p><p>${ARTICLE}</p><aside><p>Advertisement: sailing lessons for beginners.</p></aside>`,
    ),
  ],
  [
    '/other',
    page(
      'Museum reopens',
      '<p>The maritime museum reopens on Saturday after a year of restoration. Its new hall shows the figureheads of ships wrecked on the reef, a diving suit from the salvage of the steamer that sank in the great gale, and charts drawn by the first harbour master. Children may climb aboard a restored lifeboat, and volunteers will tell the stories of the rescues it made. Entry is free for residents during the first month, and the café on the upper floor looks out over the whole bay.</p>',
    ),
  ],
]);

let server: Server;
let origin: string;
before(async () => {
  server = createServer((request, response) => {
    const body = SITE.get(request.url ?? '/');
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface NearPage {
  id: number;
  url: string;
  simhash: string | null;
  nearDuplicateOf: number | null;
}

test('duplicates.near marks the same article with another timestamp and ad, not a distinct page', {
  timeout: 240_000,
}, async (t) => {
  const { app, runtime } = await build(t);
  const crawl = await crawlToEnd(app, {
    seeds: [`${origin}/`],
    politeness: { delayMs: 0, respectRobots: false },
    duplicates: { near: true },
  });
  await textJobDone(app, crawl.id);
  const pages = (await allPages(app, crawl.id)) as unknown as NearPage[];
  const byPath = new Map(pages.map((p) => [new URL(p.url).pathname, p]));
  const [home, article, copy, other] = ['/', '/article', '/copy', '/other'].map((path) => byPath.get(path)!);
  for (const p of [home, article, copy, other]) assert.match(p!.simhash ?? '', /^[0-9a-f]{16}$/, p!.url);
  const distance = (a: NearPage, b: NearPage) => hammingDistance(a.simhash!, b.simhash!);
  t.diagnostic(
    `bits apart: the copy ${distance(article!, copy!)}, a distinct page ${distance(article!, other!)}`,
  );
  assert.ok(distance(article!, copy!) <= 3, `the copy is within 3 bits: ${distance(article!, copy!)}`);
  assert.ok(distance(article!, other!) > 3, `a distinct page is not: ${distance(article!, other!)}`);
  // the later page (higher id) points at the earlier; the earlier and the distinct pages point at none
  const [earlier, later] = article!.id < copy!.id ? [article!, copy!] : [copy!, article!];
  assert.equal(later.nearDuplicateOf, earlier.id);
  assert.equal(earlier.nearDuplicateOf, null);
  assert.equal(other!.nearDuplicateOf, null);
  assert.equal(home!.nearDuplicateOf, null);

  // counted in the status and the report; kept and exported as any page
  const status = await app.inject({ method: 'GET', url: `/v1/crawls/${crawl.id}` });
  assert.equal(status.json().nearDuplicates, 1);
  assert.equal(status.json().pagesFetched, 4, 'a near-duplicate is kept');
  const report = await app.inject({ method: 'GET', url: `/v1/crawls/${crawl.id}/report` });
  assert.equal(report.statusCode, 200, report.body);
  assert.equal(report.json().duplicates.near, 1);
  const exported = await app.inject({ method: 'GET', url: `/v1/crawls/${crawl.id}/export?format=jsonl` });
  assert.equal(exported.statusCode, 200, exported.body);
  const rows = exported.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as NearPage);
  assert.deepEqual(
    rows.find((row) => row.id === later.id),
    { ...rows.find((row) => row.id === later.id), simhash: later.simhash, nearDuplicateOf: earlier.id },
  );

  // the lookup goes through the band indexes, with the crawl's own rows in the table (no statistics yet:
  // a crawl's first batches are looked up before any ANALYZE sees its rows)
  const explained = await runtime.db.pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (FORMAT JSON) ${sql('near_duplicates_mark')}`,
    [crawl.id, [later.id], 3],
  );
  const scans = [...planNodes(explained.rows[0]!['QUERY PLAN'][0]!.Plan)].filter(
    (node) => node['Relation Name'] === 'page_simhashes',
  );
  const indexes = new Set(scans.map((node) => node['Index Name']));
  t.diagnostic(`plan: ${JSON.stringify(scans.map((node) => [node['Node Type'], node['Index Name']]))}`);
  for (const band of [0, 1, 2, 3])
    assert.ok(indexes.has(`page_simhashes_band${band}`), JSON.stringify([...indexes]));
  assert.ok(
    scans.every((node) => node['Node Type'] !== 'Seq Scan'),
    `no scan of the table: ${JSON.stringify(scans.map((node) => node['Node Type']))}`,
  );

  // without duplicates.near: simhashes stored, nothing marked, no count
  const plain = await crawlToEnd(app, {
    seeds: [`${origin}/`],
    politeness: { delayMs: 0, respectRobots: false },
  });
  await textJobDone(app, plain.id);
  const plainPages = (await allPages(app, plain.id)) as unknown as NearPage[];
  assert.ok(plainPages.every((p) => p.simhash !== null && p.nearDuplicateOf === null));
  const plainStatus = await app.inject({ method: 'GET', url: `/v1/crawls/${plain.id}` });
  assert.equal(plainStatus.json().nearDuplicates, undefined);

  // the marking rule on hashes made to measure, stored highest id first (the text job's batches may come in
  // any order): 3 bits apart, in three bands, is found through the fourth; 4 bits apart, one in each band, not
  const [p1, p2, p3] = plainPages.map((p) => p.id).sort((a, b) => a - b);
  const base = 0x0123456789abcdefn;
  const flip = (hash: bigint, bits: number[]) =>
    bits
      .reduce((h, bit) => h ^ (1n << BigInt(bit)), hash)
      .toString(16)
      .padStart(16, '0');
  const hashes = new Map([
    [p1!, flip(base, [])],
    [p2!, flip(base, [63, 47, 31])],
    [p3!, flip(base, [63, 47, 31, 15])],
  ]);
  await runtime.db.pool.query('DELETE FROM page_simhashes WHERE page_id = ANY ($1)', [[...hashes.keys()]]);
  for (const id of [p3!, p2!, p1!]) {
    await runtime.db.pool.query(sql('simhashes_save'), [plain.id, [id], [hashes.get(id)]]);
    await runtime.db.pool.query(sql('near_duplicates_mark'), [plain.id, [id], 3]);
  }
  const marked = await runtime.db.pool.query<{ page_id: number; near_duplicate_of: number | null }>(
    'SELECT page_id, near_duplicate_of FROM page_simhashes WHERE page_id = ANY ($1) ORDER BY page_id',
    [[...hashes.keys()]],
  );
  assert.deepEqual(
    marked.rows.map((row) => [row.page_id, row.near_duplicate_of]),
    [
      [p1, null],
      [p2, p1],
      [p3, p2],
    ],
    '3 bits apart: marked, the earlier page found when stored last; 4 bits apart: not',
  );
});

test('duplicates: a bad maxDistance or near without text extraction is a 400 naming the field', async (t) => {
  const { app } = await build(t, { worker: false });
  const post = (duplicates: object, extra: object = {}) =>
    app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: { seeds: [`${origin}/`], duplicates, ...extra },
    });
  for (const [duplicates, extra, field] of [
    [{ near: true, maxDistance: 4 }, {}, 'duplicates.maxDistance'],
    [{ near: true, maxDistance: -1 }, {}, 'duplicates.maxDistance'],
    [{ near: true }, { extract: { enabled: false } }, 'duplicates.near'],
    [{ near: true }, { store: { html: false } }, 'duplicates.near'],
  ] as const) {
    const response = await post(duplicates, extra);
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.match(JSON.stringify(response.json()), new RegExp(field.replace('.', '\\.')), response.body);
  }
});
