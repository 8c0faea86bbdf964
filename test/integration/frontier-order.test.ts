// The frontier's order lives in SQL (claim_frontier.sql: priority DESC, then row id), not in an in-memory queue.
// This test holds the SQL to the weighted-queue semantics of docs/reference.md#weighted-queue: it replays a
// best-first crawl through WeightedQueue, the in-memory statement of those semantics, and checks that every
// claim took exactly the page the queue would have extracted. Scores of k/3 give many equal weights, so the
// first-added-first tie-break is exercised as much as the weight order. A topic crawl capped by pages fetched
// is replayed the same way, with its documented departure: a waiting page takes the best weight of the links
// found to it so far (WeightedQueue.addOrRaise).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, type TestContext, test } from 'node:test';
import { canonicalizeUrl } from '../../src/crawler/frontier/canonicalize.js';
import { WeightedQueue } from '../../src/crawler/frontier/weighted-queue.js';
import { topicLinkWeightsFromHtml } from '../../src/crawler/score/topic-weights.js';
import { build, crawlToEnd } from '../helper.js';
import { Rng } from '../support/testweb/random.js';

const PAGE_COUNT = 120;
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'lorem', 'ipsum', 'dolor', 'amet'];

function pageHtml(index: number): string {
  const rng = Rng.for(7, 'frontier-order', index);
  const words = Array.from({ length: 3 }, () => WORDS[rng.int(WORDS.length)]).join(' ');
  const links = Array.from(
    { length: rng.between(2, 6) },
    () => `<a href="/p/${rng.int(PAGE_COUNT)}">next</a>`,
  );
  return `<!doctype html><title>Page ${index}</title><p>${words}</p><p>${links.join(' ')}</p>`;
}

const TOPICS = ['alpha', 'gamma'];

/** A page of words and links in one paragraph: links near a topic word weigh more, "alpha" anchors weigh 1. */
function topicPageHtml(index: number): string {
  const rng = Rng.for(7, 'frontier-order-topic', index);
  const parts = Array.from({ length: rng.between(6, 14) }, () =>
    rng.int(3) === 0
      ? `<a href="/t/${rng.int(PAGE_COUNT)}">${rng.int(8) === 0 ? 'alpha' : 'next'}</a>`
      : WORDS[rng.int(WORDS.length)],
  );
  return `<!doctype html><title>Page ${index}</title><p>${parts.join(' ')}</p>`;
}

let server: Server;
let origin: string;
before(async () => {
  server = createServer((req, res) => {
    const match = /^\/([pt])\/(\d+)$/.exec(req.url ?? '');
    if (req.url === '/robots.txt')
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\n');
    else if (match)
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(match[1] === 'p' ? pageHtml(Number(match[2])) : topicPageHtml(Number(match[2])));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Row {
  id: string;
  canonical_url: string;
  priority: number;
  score: number | null;
  discovered_from: string | null;
  attempts: number;
}

/**
 * Runs a crawl of `payload` (seeds, strategy, …) one claim at a time (concurrency 1, one runner), so the order
 * pages were fetched in is the order they were claimed in; returns its page rows (id order), the claimed ids in
 * claim order, and each page's rows by id and by the page that discovered them.
 */
async function crawlOneClaimAtATime(t: TestContext, payload: Record<string, unknown>) {
  const { app, runtime } = await build(t);
  const { id: crawlId } = await crawlToEnd(app, {
    ...payload,
    maxPages: 60,
    concurrency: 1,
    workers: 1,
    politeness: { delayMs: 0 },
  });
  const { rows } = await runtime.db.pool.query<Row>(
    `SELECT id, canonical_url, priority, score, discovered_from, attempts FROM pages WHERE crawl_id = $1
     ORDER BY id`,
    [crawlId],
  );
  const claimed = (
    await runtime.db.pool.query<{ id: string }>(
      'SELECT id FROM pages WHERE crawl_id = $1 AND attempts > 0 ORDER BY fetched_at, id',
      [crawlId],
    )
  ).rows.map((row) => row.id);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const discoveredBy = new Map<string, Row[]>();
  for (const row of rows) {
    if (row.discovered_from === null) continue;
    discoveredBy.set(row.discovered_from, [...(discoveredBy.get(row.discovered_from) ?? []), row]);
  }
  return { rows, claimed, byId, discoveredBy };
}

test('a best-first crawl claims pages in the weighted queue order (highest score first, then first queued)', async (t) => {
  // one claim at a time: claim order is completion order
  const { rows, claimed, byId, discoveredBy } = await crawlOneClaimAtATime(t, {
    seeds: [`${origin}/p/0`],
    strategy: 'best-first',
    relevance: { query: 'alpha beta (gamma delta)', threshold: 1 },
  });
  assert.equal(claimed.length, 60);
  const distinctScores = new Set(rows.filter((row) => row.score !== null).map((row) => row.score));
  assert.ok(distinctScores.size >= 3, `scores too uniform to test the order: ${[...distinctScores]}`);

  const queue = new WeightedQueue<string>();
  const seed = rows.find((row) => row.discovered_from === null);
  assert.ok(seed);
  queue.add(seed.id, seed.priority);
  for (const id of claimed) {
    const expected = queue.extract();
    assert.equal(expected?.key, id, `claim of ${byId.get(id)?.canonical_url}`);
    const page = byId.get(id)!;
    // best-first: a page's links are queued with the page's own score; rows are added in id order, which
    // is the order the SQL inserted them in (page by page, URL order within a page).
    for (const child of discoveredBy.get(id) ?? []) {
      assert.equal(child.priority, page.score ?? 0, `priority of ${child.canonical_url}`);
      queue.add(child.id, child.priority);
    }
  }
});

test('a topic crawl capped by pages fetched claims in weighted queue order, each page at its best link priority', async (t) => {
  const { rows, claimed, byId, discoveredBy } = await crawlOneClaimAtATime(t, {
    seeds: [`${origin}/t/0`],
    strategy: 'topic',
    topics: TOPICS,
    topic: { mainTextStartsAtFirstParagraph: false, skipLinksWithHashOrColon: false, cap: 'fetched' },
  });
  assert.equal(claimed.length, 60);
  const byUrl = new Map(rows.map((row) => [row.canonical_url, row]));
  /** The weight of every link of a page, as the reference weighs it (docs/reference.md#topic-weights). */
  const weightsOf = (row: Row) =>
    topicLinkWeightsFromHtml(
      topicPageHtml(Number(/\/t\/(\d+)$/.exec(row.canonical_url)![1])),
      row.canonical_url,
      TOPICS,
      {
        mainTextStartsAtFirstParagraph: false,
        skipLinksWithHashOrColon: false,
        normalizeUrl: (url) => canonicalizeUrl(url),
      },
    );

  const queue = new WeightedQueue<string>();
  const seed = rows.find((row) => row.discovered_from === null);
  assert.ok(seed);
  queue.add(seed.id, seed.priority);
  const best = new Map<string, number>();
  let raised = 0;
  for (const id of claimed) {
    const expected = queue.extract();
    assert.equal(expected?.key, id, `claim of ${byId.get(id)?.canonical_url}`);
    // a link's priority: the mean of its weight and the priority its page was claimed at (the seed's: 1)
    const inherited = id === seed.id ? 1 : expected!.weight;
    const weights = new Map(
      weightsOf(byId.get(id)!).map((entry) => [entry.url, (entry.weight + inherited) / 2]),
    );
    // new pages go in in id order (the SQL's insertion order), then links to waiting pages raise them
    for (const child of discoveredBy.get(id) ?? []) queue.add(child.id, weights.get(child.canonical_url)!);
    for (const [url, weight] of weights) {
      const target = byUrl.get(url)!;
      if (queue.has(target.id) && weight > (best.get(target.id) ?? weight)) raised += 1;
      queue.addOrRaise(target.id, weight);
      best.set(target.id, Math.max(best.get(target.id) ?? weight, weight));
    }
  }
  assert.ok(raised >= 3, `too few raises to test them: ${raised}`);
  for (const row of rows.filter((each) => !claimed.includes(each.id) && each.discovered_from !== null)) {
    assert.equal(
      row.priority,
      best.get(row.id),
      `a waiting page holds its best link priority: ${row.canonical_url}`,
    );
  }
});
