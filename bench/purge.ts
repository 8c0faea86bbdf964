// Purging a big crawl without slowing anything else (docs/operations.md#purging): a finished crawl of 200,000
// pages synthesized straight into PostgreSQL (bodies, responses, links, images, body hashes, as a crawl stores
// them) is purged while a second crawl runs on the test web, with the API and one worker in processes of their
// own. /healthz and the running crawl's status are polled throughout. The peer is the same system without the
// purge: the running crawl's pages/s and the polls' latency in a 30 s window just before it (and one after).
// Then the schema's size: empty, with the crawl, after its purge (the running crawl's rows included), after a
// VACUUM (space free for reuse; trailing free pages go back to the filesystem), and once the running crawl is
// purged too and VACUUM has run again.
// Targets: /healthz p99 < 50 ms during the purge; the running crawl's pages/s ≥ 80 % of before.
// Args: --pages 200000  --links 20 (per page)  --body-bytes 3200  --hosts 8
import type { ChildProcess } from 'node:child_process';
import type pg from 'pg';
import type { CrawlCreated, CrawlStatus } from '../src/schemas/crawls.js';
import { stopProcess } from '../test/support/processes.js';
import { BENCHMARK_FEATURES, scopeOf, startTestWeb } from '../test/support/testweb/index.js';
import { numberArg } from './args.js';
import { benchSchemaMiB, dropBenchSchemas } from './peers/measure.js';
import { latencySummary, percentile, probe } from './peers/probe.js';
import { insertFinishedCrawl, openBenchSchema } from './peers/synthetic-crawl.js';
import { benchWorkerEnv, startApiProcess, startWorkers, stopWorkers } from './peers/worker-processes.js';

const PURGE_TIMEOUT_MS = 60 * 60_000;

/**
 * A finished crawl of `pages` HTML pages on one site as a crawl stores it: each with a body of about `bodyBytes`
 * (hex text, which compresses about as well as HTML), its response headers, `links` links to earlier pages, an
 * image and a body hash; the counters fill themselves (migration 0016's triggers).
 */
async function synthesize(db: pg.Client, pages: number, links: number, bodyBytes: number): Promise<string> {
  const crawl = await insertFinishedCrawl(db, pages);
  await db.query(
    `INSERT INTO pages (crawl_id, site_id, url, canonical_url, type, status, depth, load_ms, queued_at, fetched_at,
                        bytes, sha256, content_type)
     SELECT $1, $2, 'https://bench.invalid/p' || g, 'https://bench.invalid/p' || g, 'HTML', 200, 1 + g % 7,
            5 + g % 400, now() - interval '1 hour', now(), $4, md5(g::text), 'text/html'
     FROM generate_series(1, $3::int) g`,
    [crawl.id, crawl.site, pages, bodyBytes],
  );
  const words = Math.max(1, Math.round(bodyBytes / 33));
  await db.query(
    `INSERT INTO page_contents (page_id, html)
     SELECT p.id, convert_to((SELECT string_agg(md5(p.id::text || '.' || k), ' ') FROM generate_series(1, $2::int) k), 'UTF8')
     FROM pages p WHERE p.crawl_id = $1`,
    [crawl.id, words],
  );
  await db.query(
    `INSERT INTO page_responses (page_id, headers)
     SELECT id, '[["content-type","text/html"],["server","bench"]]'::jsonb FROM pages WHERE crawl_id = $1`,
    [crawl.id],
  );
  await db.query(
    `INSERT INTO page_links (page_id, to_pages, anchors)
     SELECT p.id, array_agg(p.id - k ORDER BY p.id - k), array_agg('link ' || k ORDER BY p.id - k)
     FROM pages p, generate_series(1, $2::int) k
     WHERE p.crawl_id = $1 AND p.id - k >= (SELECT min(id) FROM pages WHERE crawl_id = $1)
     GROUP BY p.id`,
    [crawl.id, links],
  );
  await db.query(
    "INSERT INTO images (page_id, url) SELECT id, url || '.png' FROM pages WHERE crawl_id = $1",
    [crawl.id],
  );
  await db.query(
    'INSERT INTO content_hashes (crawl_id, sha256, page_id) SELECT crawl_id, sha256, id FROM pages WHERE crawl_id = $1',
    [crawl.id],
  );
  await db.query('ANALYZE');
  return crawl.id;
}

/** A window of the running crawl: its pages/s and the polls' latency while `until` is pending. */
async function measureWindow(base: string, runningId: string, until: Promise<unknown>) {
  let latest: Pick<CrawlStatus, 'pagesFetched'> | null = null;
  let first: Pick<CrawlStatus, 'pagesFetched'> | null = null;
  const startedAt = performance.now();
  const [health, status] = await Promise.all([
    probe(`${base}/healthz`, until),
    probe<CrawlStatus>(`${base}/v1/crawls/${runningId}`, until, (body) => {
      first ??= body;
      latest = body;
    }),
  ]);
  const seconds = (performance.now() - startedAt) / 1000;
  const pages = (latest as { pagesFetched: number } | null)?.pagesFetched ?? 0;
  const from = (first as { pagesFetched: number } | null)?.pagesFetched ?? 0;
  return { seconds, pagesPerSecond: (pages - from) / seconds, health, status };
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function run(args: string[]): Promise<void> {
  const pages = numberArg(args, '--pages', 200_000);
  const links = numberArg(args, '--links', 20);
  const bodyBytes = numberArg(args, '--body-bytes', 3200);
  const hosts = numberArg(args, '--hosts', 8);
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const { db, schema } = await openBenchSchema(databaseUrl, 'bench_purge');
  const web = await startTestWeb({
    hosts,
    pagesPerHost: 25_000,
    features: BENCHMARK_FEATURES,
    seed: 3,
    crawlDelaySeconds: 0,
  });
  let api: { child: ChildProcess; base: string } | null = null;
  let workers: ChildProcess[] = [];
  try {
    const empty = await benchSchemaMiB(db, schema);
    process.stdout.write(
      `synthesizing a finished crawl of ${pages.toLocaleString('en-US')} pages (${links} links, ~${bodyBytes} B body each)…\n`,
    );
    let synthMs = performance.now();
    const purgedId = await synthesize(db, pages, links, bodyBytes);
    synthMs = performance.now() - synthMs;
    const full = await benchSchemaMiB(db, schema);
    process.stdout.write(
      `  ${(synthMs / 1000).toFixed(0)} s; schema ${full.toFixed(0)} MiB (empty: ${empty.toFixed(0)} MiB)\n`,
    );

    const env = benchWorkerEnv({ databaseUrl, redisUrl: '', schema });
    api = await startApiProcess(env);
    const started = startWorkers(1, env);
    workers = started.children;
    await started.ready;
    const created = await fetch(`${api.base}/v1/crawls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        seeds: web.hosts.map((origin) => `${origin}/`),
        scope: scopeOf(web),
        maxPages: hosts * 25_000,
        workers: 2,
        concurrency: 32,
        politeness: { delayMs: 0, perHostConcurrency: 4 },
      }),
    });
    if (created.status !== 202) throw new Error(`crawl refused: ${await created.text()}`);
    const runningId = ((await created.json()) as CrawlCreated).id;
    const base = api.base;
    const fetched = async () =>
      ((await (await fetch(`${base}/v1/crawls/${runningId}`)).json()) as CrawlStatus).pagesFetched;
    // past its start (robots.txt, the first pages), into its steady rate
    await waitUntil(
      'the running crawl to fetch 2,000 pages',
      async () => (await fetched()) >= 2_000,
      300_000,
    );

    // the purge, measured; then a window as long just before it is the peer (measured first)
    const gone = async () => (await fetch(`${base}/v1/crawls/${purgedId}`)).status === 404;
    const purgeWindow = { seconds: 30 };
    const before = await measureWindow(
      base,
      runningId,
      new Promise((resolve) => setTimeout(resolve, purgeWindow.seconds * 1000)),
    );
    const purgeStarted = performance.now();
    const deleted = await fetch(`${base}/v1/crawls/${purgedId}?purge=true`, { method: 'DELETE' });
    if (deleted.status !== 202) throw new Error(`purge refused: ${deleted.status} ${await deleted.text()}`);
    const finished = waitUntil('the purge', gone, PURGE_TIMEOUT_MS);
    const during = await measureWindow(base, runningId, finished);
    const purgeSeconds = (performance.now() - purgeStarted) / 1000;
    // and a window as long after it: the running crawl's rate drifts as it grows, so both sides are shown
    const after = await measureWindow(
      base,
      runningId,
      new Promise((resolve) => setTimeout(resolve, purgeWindow.seconds * 1000)),
    );
    const afterPurge = await benchSchemaMiB(db, schema);

    const ratio = during.pagesPerSecond / before.pagesPerSecond;
    const p99 = percentile(
      [...during.health].sort((a, b) => a - b),
      99,
    );
    process.stdout.write(
      `purge of ${pages.toLocaleString('en-US')} pages: ${purgeSeconds.toFixed(1)} s (${(pages / purgeSeconds).toFixed(0)} pages/s)\n` +
        `  running crawl: ${during.pagesPerSecond.toFixed(0)} pages/s during, ${before.pagesPerSecond.toFixed(0)} before (${(ratio * 100).toFixed(0)} %, target ≥ 80 %: ${ratio >= 0.8 ? 'met' : 'NOT met'}), ${after.pagesPerSecond.toFixed(0)} after (${((during.pagesPerSecond / after.pagesPerSecond) * 100).toFixed(0)} %)\n` +
        `  /healthz during: ${latencySummary(during.health)}   before: ${latencySummary(before.health)}  (p99 target < 50 ms: ${p99 < 50 ? 'met' : 'NOT met'})\n` +
        `  its status during: ${latencySummary(during.status)}   before: ${latencySummary(before.status)}\n`,
    );
    // the running crawl stopped (kept), VACUUM; then it purged too, VACUUM again
    await fetch(`${base}/v1/crawls/${runningId}`, { method: 'DELETE' });
    const runningPages = await fetched();
    await db.query('VACUUM');
    const vacuumed = await benchSchemaMiB(db, schema);
    await fetch(`${base}/v1/crawls/${runningId}?purge=true`, { method: 'DELETE' });
    await waitUntil(
      'the running crawl purged',
      async () => (await fetch(`${base}/v1/crawls/${runningId}`)).status === 404,
      PURGE_TIMEOUT_MS,
    );
    await db.query('VACUUM');
    const emptied = await benchSchemaMiB(db, schema);

    process.stdout.write(
      `schema size: empty ${empty.toFixed(0)} MiB; with the crawl ${full.toFixed(0)} MiB; after its purge ${afterPurge.toFixed(0)} MiB ` +
        `(the running crawl's rows included); after VACUUM ${vacuumed.toFixed(0)} MiB (the running crawl stopped at ` +
        `${runningPages.toLocaleString('en-US')} pages, kept); both purged and VACUUM again ${emptied.toFixed(0)} MiB\n`,
    );
  } finally {
    await stopWorkers(workers);
    if (api) await stopProcess(api.child);
    await web.close();
    await dropBenchSchemas(db, schema);
    await db.end();
  }
}
