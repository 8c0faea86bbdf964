// Crawl limits that must hold whatever the concurrency: several runners, several fetches in flight, several
// requests per host. A small generated web on two loopback origins: every page links six new pages of its
// host, one of the other host, two pages robots.txt forbids and one redirect, so discoveries race each other.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { allPages, build, crawlToEnd } from '../helper.js';

interface Logged {
  origin: string;
  path: string;
  /** performance.timeOrigin + performance.now() when the request arrived (ms, sub-millisecond). */
  at: number;
}

const log: Logged[] = [];
const servers: Server[] = [];
const origins: string[] = [];
/** Crawl-delay (seconds) that robots.txt of each origin announces; 0: none. */
const crawlDelaySecs = [0, 0];
/**
 * robots.txt names a sitemap index (whose sitemap lists a page, a redirect and a redirect chain), and the
 * second origin's robots.txt redirects to a file on the first.
 */
let withSitemaps = false;

function pageHtml(origin: number, n: number): string {
  const other = origins[1 - origin];
  const links = [
    ...Array.from({ length: 6 }, (_, i) => `<a href="/p/${n * 6 + i + 1}">tennis page ${n * 6 + i + 1}</a>`),
    `<a href="${other}/p/${n + 1000}">tennis abroad</a>`,
    `<a href="/private/${n}-a">tennis private</a>`,
    `<a href="/private/${n}-b">more private</a>`,
    `<a href="/r/${n}">tennis moved</a>`,
    `<a href="/x/${n}">tennis moved abroad</a>`,
  ];
  // "tennis" in a few words of the link texts so the topic weighting has something to weigh
  const words = n % 3 === 0 ? 'tennis tennis grand slam' : 'cooking recipes bread';
  return `<!doctype html><html><head><title>Page ${n}</title></head><body><p>${words} ${n}</p><p>${links.join(' ')}</p></body></html>`;
}

function handler(index: number) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    log.push({ origin: origins[index]!, path, at: performance.timeOrigin + performance.now() });
    // with sitemaps, the second origin's robots.txt lives on the first: a cross-host hop of its own
    if (withSitemaps && index === 1 && path === '/robots.txt') {
      res.writeHead(301, { location: `${origins[0]}/robots-of-1.txt` }).end();
      return;
    }
    const robotsOf = path === '/robots-of-1.txt' ? 1 : index;
    if (path === '/robots.txt' || robotsOf !== index) {
      const delay = crawlDelaySecs[robotsOf] ? `Crawl-delay: ${crawlDelaySecs[robotsOf]}\n` : '';
      const sitemap = withSitemaps ? `Sitemap: ${origins[robotsOf]}/sitemap-index.xml\n` : '';
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`User-agent: *\nDisallow: /private/\n${delay}${sitemap}`);
      return;
    }
    if (withSitemaps && path === '/sitemap-index.xml') {
      res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<sitemapindex><sitemap><loc>${origins[index]}/sitemap-pages.xml</loc></sitemap></sitemapindex>`,
        );
      return;
    }
    if (withSitemaps && path === '/sitemap-pages.xml') {
      const locs = ['/p/500', '/r/501', '/chain/1'].map((p) => `<url><loc>${origins[index]}${p}</loc></url>`);
      res.writeHead(200, { 'content-type': 'application/xml' }).end(`<urlset>${locs.join('')}</urlset>`);
      return;
    }
    const redirect = /^\/r\/(\d+)$/.exec(path);
    if (redirect) {
      res.writeHead(301, { location: `/p/${Number(redirect[1]) + 7000}` }).end();
      return;
    }
    const abroad = /^\/x\/(\d+)$/.exec(path);
    if (abroad) {
      res.writeHead(302, { location: `${origins[1 - index]}/p/${Number(abroad[1]) + 8000}` }).end();
      return;
    }
    const chain = /^\/chain\/(\d+)$/.exec(path);
    if (chain) {
      const step = Number(chain[1]);
      res.writeHead(302, { location: step < 3 ? `/chain/${step + 1}` : '/p/9000' }).end();
      return;
    }
    const page = /^\/p\/(\d+)$/.exec(path);
    if (page) {
      res.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml(index, Number(page[1])));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  };
}

before(async () => {
  for (let index = 0; index < 2; index++) {
    const server = createServer(handler(index));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    origins.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
});
after(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

test('a topic crawl holds exactly maxPages vertices under any concurrency, none of them disallowed', {
  timeout: 240_000,
}, async (t) => {
  const { app } = await build(t);
  const maxPages = 60;
  for (let run = 1; run <= 5; run++) {
    const status = await crawlToEnd(
      app,
      {
        seeds: [`${origins[0]}/p/1`, `${origins[0]}/p/2`, `${origins[1]}/p/3`],
        strategy: 'topic',
        topics: ['tennis'],
        // the reference's reading: the graph holds the first maxPages pages discovered
        topic: { mainTextStartsAtFirstParagraph: false, cap: 'discovered' },
        maxPages,
        workers: 3,
        concurrency: 8,
        politeness: { delayMs: 0, perHostConcurrency: 4 },
      },
      { timeoutMs: 120_000 },
    );
    const { id } = status;
    const graph = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}/graph?format=json` })).json() as {
      vertices: Array<{ id: number; url: string }>;
      edges: Array<[number, number]>;
    };
    assert.equal(graph.vertices.length, maxPages, `run ${run}: ${graph.vertices.length} vertices`);
    const disallowedVertices = graph.vertices.filter((v) => v.url.includes('/private/'));
    assert.deepEqual(disallowedVertices, [], `run ${run}: robots.txt forbids these`);
    const ids = new Set(graph.vertices.map((v) => v.id));
    assert.ok(
      graph.edges.every(([from, to]) => ids.has(from) && ids.has(to) && from !== to),
      `run ${run}: an edge outside the vertices`,
    );
    const counts = status.counts as Record<string, number>;
    assert.equal(counts.FRONTIER, 0, `run ${run}: all of them fetched`);
  }
  assert.equal(
    log.filter((entry) => entry.path.startsWith('/private/')).length,
    0,
    'no disallowed URL was requested',
  );
});

test('maxResults with fetches in parallel: exactly maxResults results, the rest visible but not counted', {
  timeout: 240_000,
}, async (t) => {
  const { app } = await build(t);
  for (let run = 1; run <= 3; run++) {
    // every page scores 1/2 (its anchors say "tennis"); one in three also says "slam" and scores 1
    const status = await crawlToEnd(
      app,
      {
        seeds: [`${origins[0]}/p/1`, `${origins[1]}/p/2`],
        strategy: 'best-first',
        relevance: { query: 'tennis slam', threshold: 1 },
        maxResults: 3,
        maxPages: 400,
        workers: 2,
        concurrency: 8,
        politeness: { delayMs: 0, perHostConcurrency: 4 },
      },
      { timeoutMs: 120_000 },
    );
    const { id } = status;
    assert.equal(status.relevantPages, 3, `run ${run}: relevantPages`);
    const results = await allPages(app, id, '&result=true');
    assert.equal(results.length, 3, `run ${run}: the result list`);
    assert.ok(results.every((page) => page.result && page.score === 1));
    // what was fetched in parallel past the third result is there, with its score, but not a result
    const pages = await allPages(app, id);
    const relevant = pages.filter((page) => page.score === 1);
    assert.deepEqual(
      relevant.filter((page) => page.result).map((page) => page.id),
      results.map((page) => page.id),
    );
    // results are the first relevant pages recorded: none of them was fetched after a relevant non-result
    const lastResultMs = Math.max(...results.map((page) => Date.parse(page.fetchedAt ?? '')));
    const laterRelevant = relevant.filter((page) => !page.result);
    assert.ok(
      laterRelevant.every((page) => Date.parse(page.fetchedAt ?? '') >= lastResultMs - 1000),
      `run ${run}: a non-result fetched well before a result`,
    );
    // claims stopped once the third result was in (crawl-store.test.ts shows the claim itself)
    assert.ok((status.pagesFetched as number) < 400, `run ${run}: ${status.pagesFetched} pages fetched`);
  }
});

test('every request to a host (robots.txt, sitemaps, pages, redirect hops) waits for its host’s delay, across runners', {
  timeout: 240_000,
}, async (t) => {
  const { app } = await build(t);
  // Crawl-delay: 2 in robots.txt, capped at 500 ms by the request
  crawlDelaySecs[0] = 2;
  crawlDelaySecs[1] = 2;
  withSitemaps = true;
  t.after(() => {
    crawlDelaySecs[0] = 0;
    crawlDelaySecs[1] = 0;
    withSitemaps = false;
  });
  const delayMs = 500;
  const from = log.length;
  await crawlToEnd(
    app,
    {
      // a chain of three same-host hops, pages with same-host and cross-host redirects
      seeds: [`${origins[0]}/chain/1`, `${origins[0]}/p/1`, `${origins[1]}/p/2`, `${origins[1]}/x/3`],
      maxPages: 16,
      workers: 2,
      concurrency: 4,
      sitemaps: true,
      politeness: { delayMs: 0, maxCrawlDelayMs: delayMs, perHostConcurrency: 1 },
    },
    { timeoutMs: 120_000 },
  );
  const requests = log.slice(from);
  assert.ok(
    requests.some((entry) => entry.path.startsWith('/chain/')) &&
      requests.some((entry) => entry.path.startsWith('/x/')),
    'the crawl followed same-host and cross-host redirects',
  );
  const toleranceMs = 2;
  for (const origin of origins) {
    const ofHost = requests.filter((entry) => entry.origin === origin);
    // robots.txt is read once per crawl per origin, whichever runner or redirect reaches the host first
    assert.equal(ofHost.filter((entry) => entry.path === '/robots.txt').length, 1, `${origin}: robots.txt`);
    if (origin === origins[0]) {
      assert.equal(ofHost.filter((entry) => entry.path === '/robots-of-1.txt').length, 1, 'robots.txt hop');
    }
    assert.ok(
      ofHost.some((entry) => entry.path === '/sitemap-index.xml') &&
        ofHost.some((entry) => entry.path === '/sitemap-pages.xml'),
      `${origin}: sitemaps read`,
    );
    const times = ofHost.map((entry) => entry.at).sort((a, b) => a - b);
    assert.ok(times.length >= 6, `${origin}: ${times.length} requests`);
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    const short = gaps.filter((gap) => gap < delayMs - toleranceMs);
    assert.deepEqual(
      short,
      [],
      `${origin}: gaps below ${delayMs} ms among ${gaps.map(Math.round).join(', ')} (${ofHost
        .slice()
        .sort((a, b) => a.at - b.at)
        .map((entry) => entry.path)
        .join(' ')})`,
    );
  }
});
