// Crawls trawl's own test web through the HTTP API (on whichever queue backend REDIS_URL selects) and holds
// the result against the ground truth the test web computes: nothing disallowed fetched, nothing reachable
// missed, every URL requested once, duplicate groups found, statuses and page types right.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { allPages, build, crawlToEnd } from '../helper.js';
import {
  countDisallowedRequests,
  countRepeatedRequests,
  loggedPageUrls,
  scopeOf,
  startTestWeb,
  type TestWeb,
} from '../support/testweb/index.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 7, hosts: 5, pagesPerHost: 25, slowPageDelayMs: 300 });
});
after(async () => {
  await web.close();
});

test('a BFS crawl of the test web fetches exactly what a correct crawler fetches', async (t) => {
  const { app } = await build(t);
  web.resetLog();
  const maxDepth = 6;
  const truth = web.groundTruth({ maxDepth, sitemaps: false });
  const status = await crawlToEnd(
    app,
    {
      seeds: web.seeds,
      maxPages: 5000,
      maxDepth,
      scope: scopeOf(web),
      politeness: { delayMs: 0, maxCrawlDelayMs: 0 },
      concurrency: 16,
      workers: 2,
      fetch: { timeoutMs: 10_000, retries: 2 },
    },
    { timeoutMs: 120_000 },
  );
  const { id } = status;

  // politeness and robots: nothing disallowed was requested, nothing twice
  assert.equal(countDisallowedRequests(web), 0, 'robots.txt-disallowed URLs requested');
  assert.equal(countRepeatedRequests(web), 0, 'URLs requested more than once');

  const requested = loggedPageUrls(web);
  const canonicalRequested = new Set([...requested].map((url) => new URL(url).href));
  const missing = [...truth.fetched].filter((url) => !canonicalRequested.has(url));
  const extra = [...canonicalRequested].filter((url) => !truth.fetched.has(url));
  assert.deepEqual(missing, [], 'reachable URLs the crawl never requested');
  assert.deepEqual(extra, [], 'URLs requested that a correct crawl does not request');

  const pages = await allPages(app, id);
  const byUrl = new Map(pages.map((page) => [page.canonicalUrl, page]));
  const inDuplicateGroup = new Set(truth.duplicateGroups.flat());
  const wrong: string[] = [];
  for (const [url, expected] of truth.expected) {
    const page = byUrl.get(url);
    if (!page) {
      wrong.push(`${url}: no page record (expected ${expected.type})`);
      continue;
    }
    if (inDuplicateGroup.has(url)) continue;
    // A redirect chain the crawler stopped (loop, too long, refused hop) has no final response: the ground
    // truth says null, and trawl records the last 3xx it did receive.
    const statusMatches =
      page.status === expected.status ||
      (expected.status === null && page.status !== null && page.status >= 300 && page.status < 400);
    if (page.type !== expected.type || !statusMatches) {
      wrong.push(
        `${url}: ${page.type} ${page.status} (expected ${expected.type} ${expected.status}) ${page.error ?? ''}`,
      );
    }
  }
  assert.deepEqual(wrong, [], 'pages whose type or status differs from the ground truth');

  for (const group of truth.duplicateGroups) {
    const members = group.map((url) => byUrl.get(url));
    assert.ok(members.every(Boolean), `every member of duplicate group ${group.join(', ')} has a page`);
    const originals = members.filter((page) => page?.type === 'HTML');
    const duplicates = members.filter((page) => page?.type === 'DUPLICATE');
    assert.equal(originals.length, 1, `one original in ${group.join(', ')}`);
    assert.equal(duplicates.length, group.length - 1, `the rest are duplicates in ${group.join(', ')}`);
    for (const duplicate of duplicates) assert.equal(duplicate?.duplicateOf, originals[0]?.id);
  }

  // the status document adds up
  const counts = status.counts as Record<string, number>;
  assert.equal(
    Object.values(counts).reduce((sum, n) => sum + n, 0),
    pages.length,
    'counts by type cover every page',
  );
  assert.ok((status.links as number) > 0);

  // the per-host view adds up to the same pages, and shows each host's robots.txt as it was served
  const hosts = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}/hosts` })).json();
  assert.equal(
    hosts.items.reduce((sum: number, host: { pages: number }) => sum + host.pages, 0),
    pages.length,
  );
  const served = new Map<string, number>(
    web.log
      .filter((entry) => new URL(entry.url).pathname === '/robots.txt')
      .map((entry) => [new URL(entry.url).origin, entry.status]),
  );
  for (const host of hosts.items as Array<{
    origin: string;
    robots: { status: number | null };
    counts: Record<string, number>;
  }>) {
    if (served.has(host.origin)) assert.equal(host.robots.status, served.get(host.origin), host.origin);
    if (host.robots.status !== null && host.robots.status >= 500) {
      assert.equal(host.counts.HTML, 0, `nothing fetched from ${host.origin}, whose robots.txt answers 5xx`);
    }
  }
});
