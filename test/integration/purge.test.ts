// Purging (docs/guide.md#deleting-crawls-rankings-and-corpora): after DELETE /v1/crawls/:id?purge=true every
// table is empty of the crawl (each table with a crawl_id, and those reached through its pages, sites,
// rankings and webhook events), another crawl keeps all it had, and a purge cut midway and started again ends
// the same. Rankings and corpora are deleted the same way, their vertices and terms by the job.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { CorporaRepository } from '../../src/db/corpora-repo.js';
import { CrawlsRepository } from '../../src/db/crawls-repo.js';
import { PurgeRepository } from '../../src/db/purge-repo.js';
import { RankingsRepository } from '../../src/db/rankings-repo.js';
import { WebhooksRepository } from '../../src/db/webhooks-repo.js';
import type { Runtime } from '../../src/runtime.js';
import { PurgeService } from '../../src/services/use-cases/purge.js';
import { build, eventually, startCrawl, waitForCrawl } from '../helper.js';
import { crawlRequestFor, startTestWeb, type TestWeb } from '../support/testweb/index.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({
    seed: 29,
    hosts: 2,
    pagesPerHost: 20,
    features: { slow: false, trap: false, bigBinary: false, hostile: false, oversize: false },
  });
});
after(() => web.close());

/**
 * Tables that hold no crawl's rows: a new table must be added here or be reached by ownedRows. usage_months
 * holds a tenant's pages fetched per month, which a purge keeps on purpose (docs/operations.md#usage).
 */
const NOT_A_CRAWLS = new Set([
  'api_keys',
  'corpora',
  'corpus_terms',
  // a schedule names the last crawl it ran (last_crawl_id, set null when that crawl goes), never owned by it
  'schedules',
  'workers',
  'schema_migrations',
  'usage_months',
]);

interface Owned {
  crawlId: string;
  pageIds: number[];
  siteIds: number[];
  rankingIds: string[];
  eventIds: number[];
}

/** What crawl `crawlId` owns now: its pages, sites, rankings and webhook events, by id (to count after). */
async function ownedIds(pool: pg.Pool, crawlId: string): Promise<Owned> {
  const ids = async (text: string) => (await pool.query(text, [crawlId])).rows.map((row) => row.id);
  return {
    crawlId,
    pageIds: (await ids('SELECT id FROM pages WHERE crawl_id = $1')).map(Number),
    siteIds: (await ids('SELECT id FROM sites WHERE crawl_id = $1')).map(Number),
    rankingIds: await ids('SELECT id FROM rankings WHERE crawl_id = $1'),
    eventIds: (await ids('SELECT id FROM webhook_events WHERE crawl_id = $1')).map(Number),
  };
}

/**
 * Rows of each table of the schema that belong to the crawl: by its id, or through one of its pages, sites,
 * rankings or webhook events. Fails on a table it cannot tell about, so a new table is never left unchecked.
 */
async function ownedRows(pool: pg.Pool, owned: Owned): Promise<Record<string, number>> {
  const { rows: columns } = await pool.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
     JOIN information_schema.tables t USING (table_schema, table_name)
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`,
  );
  const tables = new Map<string, Set<string>>();
  for (const { table_name, column_name } of columns) {
    tables.set(table_name, (tables.get(table_name) ?? new Set()).add(column_name));
  }
  const counts: Record<string, number> = {};
  const count = async (table: string, where: string, value: unknown) => {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} WHERE ${where}`,
      [value],
    );
    counts[table] = rows[0]!.n;
  };
  for (const [table, has] of [...tables].sort(([a], [b]) => a.localeCompare(b))) {
    if (table === 'crawls') await count(table, 'id = $1', owned.crawlId);
    else if (has.has('crawl_id')) await count(table, 'crawl_id = $1', owned.crawlId);
    else if (has.has('page_id')) await count(table, 'page_id = ANY($1)', owned.pageIds);
    else if (has.has('site_id')) await count(table, 'site_id = ANY($1)', owned.siteIds);
    else if (has.has('ranking_id')) await count(table, 'ranking_id = ANY($1::uuid[])', owned.rankingIds);
    else if (has.has('event_id')) await count(table, 'event_id = ANY($1)', owned.eventIds);
    else if (table === 'idempotency_keys')
      await count(table, "headers ->> 'location' = $1", `/v1/crawls/${owned.crawlId}`);
    else assert.ok(NOT_A_CRAWLS.has(table), `table ${table}: can a crawl own rows there? teach this test`);
  }
  return counts;
}

/** A loopback webhook receiver: the events it was sent, in order. */
async function receiver(t: { after(fn: () => unknown): void }) {
  const events: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')).event);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, events };
}

const gone = async (app: FastifyInstance, url: string, timeoutMs = 60_000) =>
  eventually(
    async () => {
      const response = await app.inject({ method: 'GET', url });
      if (response.statusCode !== 404) throw new Error(`${url}: ${response.statusCode}`);
      return true;
    },
    { message: `${url} to be 404`, timeoutMs, intervalMs: 100 },
  );

/** A finished crawl with rows in as many tables as a crawl can fill. */
async function fullCrawl(app: FastifyInstance, runtime: Runtime, hookUrl: string, key: string) {
  const created = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    headers: { 'idempotency-key': key },
    payload: crawlRequestFor(web, {
      maxPages: 40,
      store: { warc: true },
      documents: { fetch: true, types: ['pdf', 'docx', 'image'] },
      webhook: { url: hookUrl },
    }),
  });
  assert.equal(created.statusCode, 202, created.body);
  const id = created.json().id as string;
  const status = await waitForCrawl(app, id);
  assert.equal(status.status, 'completed', JSON.stringify(status));
  const pool = runtime.db.pool;
  // rows this little test web's crawl may not make (no Chromium here, few images and documents), as a crawl
  // that renders, shows images and downloads documents stores them
  const firstHtml = `SELECT id FROM pages WHERE crawl_id = $1 AND type = 'HTML' ORDER BY id LIMIT 1`;
  await pool.query(
    `INSERT INTO page_screenshots (page_id, png) SELECT id, '\\x89504e47'::bytea FROM (${firstHtml}) p`,
    [id],
  );
  await pool.query(
    `INSERT INTO images (page_id, url) SELECT id, 'http://127.0.0.2/cat.png' FROM (${firstHtml}) p
     ON CONFLICT DO NOTHING`,
    [id],
  );
  await pool.query(
    `INSERT INTO page_data (page_id, data_type, bytes) SELECT id, 'pdf', 10 FROM (${firstHtml}) p
     ON CONFLICT DO NOTHING`,
    [id],
  );
  const ranked = await app.inject({ method: 'POST', url: `/v1/crawls/${id}/rank` });
  assert.ok([201, 202].includes(ranked.statusCode), ranked.body);
  await eventually(
    async () =>
      (await pool.query('SELECT 1 FROM crawl_word_stats WHERE crawl_id = $1 AND pages_counted > 0', [id]))
        .rowCount === 1 &&
      (await pool.query("SELECT 1 FROM rankings WHERE crawl_id = $1 AND status = 'completed'", [id]))
        .rowCount === 1,
    { message: 'word statistics and the ranking', timeoutMs: 60_000 },
  );
  return id;
}

/**
 * A purge of crawl `id` whose process is killed after two batches of three pages: the crawl is left purging, its
 * rows half removed, and no purge job is queued.
 */
async function cutPurge(runtime: Runtime, id: string) {
  const pool = runtime.db.pool;
  const repository = new PurgeRepository(pool);
  await repository.markCrawl(id);
  runtime.crawls.forgetStatus(id);
  const killed = new AbortController();
  let batches = 0;
  const dying = new (class extends PurgeRepository {
    override async pages(crawlId: string, afterId: number, limit: number) {
      const batch = await super.pages(crawlId, afterId, limit);
      if (++batches === 2) killed.abort();
      return batch;
    }
  })(pool);
  const crawls = new CrawlsRepository(pool);
  const purges = new PurgeService({
    repository: dying,
    jobs: runtime.jobs,
    webhooks: new WebhooksRepository(pool),
    crawls: {
      get: (crawlId, scope) => crawls.get(crawlId, scope),
      status: (crawlId, scope) => runtime.crawls.status(crawlId, scope),
      forgetStatus: (crawlId) => runtime.crawls.forgetStatus(crawlId),
    },
    rankings: new RankingsRepository(pool),
    corpora: new CorporaRepository(pool),
    batchRows: 3,
  });
  return purges.run({ kind: 'crawl', id }, killed.signal);
}

const nonEmpty = (counts: Record<string, number>) =>
  Object.keys(counts)
    .filter((table) => counts[table]! > 0)
    .sort();

test('a purge empties every table of the crawl, keeps another crawl whole, and says `purged` last', {
  timeout: 240_000,
}, async (t) => {
  const { app, runtime } = await build(t, { env: { WEBHOOK_RETRY_BASE_MS: '50' } });
  const pool = runtime.db.pool;
  const hook = await receiver(t);
  const purged = await fullCrawl(app, runtime, hook.url, 'purge-a');
  const kept = await fullCrawl(app, runtime, hook.url, 'purge-b');
  await eventually(() => hook.events.filter((event) => event === 'completed').length === 2, {
    message: 'both completed events delivered',
  });

  const owned = await ownedIds(pool, purged);
  const before = await ownedRows(pool, owned);
  for (const table of [
    'content_hashes',
    'crawl_counters',
    'crawl_word_stats',
    'crawls',
    'host_slots',
    'idempotency_keys',
    'images',
    'page_contents',
    'page_data',
    'page_links',
    'page_responses',
    'page_screenshots',
    'pages',
    'ranking_vertices',
    'rankings',
    'sites',
    'webhook_deliveries',
    'webhook_events',
  ]) {
    assert.ok((before[table] ?? 0) > 0, `the crawl has rows in ${table} to purge: ${JSON.stringify(before)}`);
  }
  const keptBefore = await ownedRows(pool, await ownedIds(pool, kept));

  const deleted = await app.inject({ method: 'DELETE', url: `/v1/crawls/${purged}?purge=true` });
  assert.equal(deleted.statusCode, 202, deleted.body);
  assert.equal(deleted.json().status, 'purging');
  for (const path of ['pages', 'export', 'report', 'graph', 'stats']) {
    const response = await app.inject({ method: 'GET', url: `/v1/crawls/${purged}/${path}` });
    assert.equal(response.statusCode, 404, `${path}: ${response.body}`);
  }
  await gone(app, `/v1/crawls/${purged}`);
  const after = await ownedRows(pool, owned);
  assert.deepEqual(nonEmpty(after), [], JSON.stringify(after));
  assert.equal(
    (await app.inject({ method: 'GET', url: `/v1/rankings/${owned.rankingIds[0]}` })).statusCode,
    404,
  );
  // the purged event went out last, once; the other crawl has everything it had
  assert.equal(hook.events.at(-1), 'purged', hook.events.join());
  assert.equal(hook.events.filter((event) => event === 'purged').length, 1);
  assert.deepEqual(await ownedRows(pool, await ownedIds(pool, kept)), keptBefore);
  assert.equal((await app.inject({ method: 'GET', url: `/v1/crawls/${kept}/pages` })).statusCode, 200);
  // purging again what is gone: 404
  const again = await app.inject({ method: 'DELETE', url: `/v1/crawls/${purged}?purge=true` });
  assert.equal(again.statusCode, 404, again.body);
});

test('a purge cut midway leaves the crawl purging and 404 to its readers; purged again, it ends the same', {
  timeout: 240_000,
}, async (t) => {
  const { app, runtime } = await build(t);
  const pool = runtime.db.pool;
  const hook = await receiver(t);
  const id = await fullCrawl(app, runtime, hook.url, 'purge-c');
  const owned = await ownedIds(pool, id);

  const cut = await cutPurge(runtime, id);
  assert.equal(cut.done, false);
  assert.equal(cut.pages, 6);
  const midway = await ownedRows(pool, owned);
  assert.ok(midway.pages! > 0 && midway.pages! < owned.pageIds.length, JSON.stringify(midway));
  assert.equal(midway.content_hashes, 0, 'hashes go first');
  const status = await app.inject({ method: 'GET', url: `/v1/crawls/${id}` });
  assert.equal(status.statusCode, 200);
  assert.equal(status.json().status, 'purging');
  assert.equal((await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages` })).statusCode, 404);

  // the restart: purging a crawl being purged queues its job again, which removes what is left
  const again = await app.inject({ method: 'DELETE', url: `/v1/crawls/${id}?purge=true` });
  assert.equal(again.statusCode, 202, again.body);
  assert.equal(again.json().status, 'purging');
  await gone(app, `/v1/crawls/${id}`);
  const after = await ownedRows(pool, owned);
  assert.deepEqual(nonEmpty(after), [], JSON.stringify(after));
});

test("a purge whose job was lost is taken up by a worker's orphan sweeper", {
  timeout: 240_000,
}, async (t) => {
  const { app, runtime } = await build(t);
  const pool = runtime.db.pool;
  const hook = await receiver(t);
  const id = await fullCrawl(app, runtime, hook.url, 'purge-s');
  const owned = await ownedIds(pool, id);
  assert.equal((await cutPurge(runtime, id)).done, false);
  // nothing will ask for it again, and its job has not reported for an hour: the sweeper queues a new one
  await pool.query("UPDATE crawls SET heartbeat_at = now() - interval '1 hour' WHERE id = $1", [id]);
  // the sweeper looks every 15 s
  await gone(app, `/v1/crawls/${id}`, 150_000);
  const after = await ownedRows(pool, owned);
  assert.deepEqual(nonEmpty(after), [], JSON.stringify(after));
});

test('a running crawl purged is cancelled first; rankings and corpora are deleted, a corpus in use is 409', {
  timeout: 240_000,
}, async (t) => {
  const { app, runtime } = await build(t);
  const pool = runtime.db.pool;
  const corpus = await app.inject({
    method: 'POST',
    url: '/v1/corpora',
    payload: { name: 'cats', documents: [{ text: 'cats purr' }, { text: 'dogs bark' }] },
  });
  assert.equal(corpus.statusCode, 202, corpus.body);
  const corpusId = corpus.json().id as string;
  await eventually(
    async () =>
      (await app.inject({ method: 'GET', url: `/v1/corpora/${corpusId}` })).json().status === 'completed',
    { message: 'the corpus built', timeoutMs: 60_000 },
  );
  // a slow crawl that scores with the corpus: it runs for minutes unless stopped
  const running = await startCrawl(
    app,
    crawlRequestFor(web, {
      maxPages: 40,
      politeness: { delayMs: 5_000, maxCrawlDelayMs: 0 },
      relevance: { similarTo: { documents: [{ text: 'cats' }] }, corpus: corpusId },
    }),
  );
  const inUse = await app.inject({ method: 'DELETE', url: `/v1/corpora/${corpusId}` });
  assert.equal(inUse.statusCode, 409, inUse.body);
  assert.equal(inUse.json().crawlId, running);
  assert.match(inUse.json().detail, new RegExp(running));

  const purge = await app.inject({ method: 'DELETE', url: `/v1/crawls/${running}?purge=true` });
  assert.equal(purge.statusCode, 202, purge.body);
  assert.equal(purge.json().status, 'purging');
  await gone(app, `/v1/crawls/${running}`);
  assert.equal(
    (await pool.query('SELECT count(*)::int AS n FROM pages WHERE crawl_id = $1', [running])).rows[0].n,
    0,
  );

  // the corpus is free now: deleted, 404, its terms gone by the job
  const deleted = await app.inject({ method: 'DELETE', url: `/v1/corpora/${corpusId}` });
  assert.equal(deleted.statusCode, 204, deleted.body);
  assert.equal((await app.inject({ method: 'GET', url: `/v1/corpora/${corpusId}` })).statusCode, 404);
  assert.equal((await app.inject({ method: 'DELETE', url: `/v1/corpora/${corpusId}` })).statusCode, 404);
  await eventually(
    async () =>
      (await pool.query('SELECT count(*)::int AS n FROM corpus_terms WHERE corpus_id = $1', [corpusId]))
        .rows[0].n === 0,
    { message: "the corpus's terms deleted" },
  );

  // an uploaded graph's ranking
  const ranking = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    payload: {
      edges: [
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
      ],
    },
  });
  assert.equal(ranking.statusCode, 201, ranking.body);
  const rankingId = ranking.json().id as string;
  const removed = await app.inject({ method: 'DELETE', url: `/v1/rankings/${rankingId}` });
  assert.equal(removed.statusCode, 204, removed.body);
  assert.equal((await app.inject({ method: 'GET', url: `/v1/rankings/${rankingId}` })).statusCode, 404);
  await eventually(
    async () =>
      (await pool.query('SELECT count(*)::int AS n FROM ranking_vertices WHERE ranking_id = $1', [rankingId]))
        .rows[0].n === 0,
    { message: "the ranking's vertices deleted" },
  );
  const unknown = await app.inject({
    method: 'DELETE',
    url: '/v1/rankings/00000000-0000-4000-8000-000000000000',
  });
  assert.equal(unknown.statusCode, 404);
  assert.match(unknown.headers['content-type'] as string, /^application\/problem\+json/);
});
