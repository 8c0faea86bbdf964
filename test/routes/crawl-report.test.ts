// The crawl report: its tables agree with the status endpoint and with the pages themselves, on a test web
// with errors, duplicates, binaries, redirects and hostile pages; report.html is self-contained, escapes what
// pages say, and renders in headless Chromium with its tables and plots.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { linkGraphHtml, renderReportHtml } from '../../src/services/presentation/report-html.js';
import { build, crawlToEnd, eventually } from '../helper.js';
import { launchChromium, skipWithoutChromium } from '../support/browser.js';
import { CHANGING_SITE_CHANGES, recrawlPair, startChangingSite } from '../support/changing-site.js';
import { crawlRequestFor, startTestWeb } from '../support/testweb/index.js';

test('the report of a focused crawl agrees with its status and pages; report.html renders', {
  timeout: 240_000,
}, async (t) => {
  const web = await startTestWeb({
    seed: 11,
    hosts: 2,
    pagesPerHost: 25,
    crawlDelaySeconds: 0,
    features: {
      robots: true,
      errors: true,
      duplicates: true,
      binaries: true,
      redirects: true,
      hostile: true,
    },
  });
  t.after(() => web.close());
  const { app, runtime } = await build(t);
  const status = await crawlToEnd(
    app,
    crawlRequestFor(web, { maxPages: 80, relevance: { query: 'harbour', threshold: 0.5 } }),
    { timeoutMs: 180_000 },
  );
  const { id } = status;

  const response = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/report` });
  assert.equal(response.statusCode, 200, response.body);
  const report = response.json();
  const counts = status.counts as Record<string, number>;
  assert.deepEqual(report.pages.byType, counts);
  assert.equal(report.pages.fetched, status.pagesFetched);
  assert.equal(report.pages.disallowed, counts.DISALLOWED);
  assert.equal(
    report.pages.invalid.reduce((sum: number, row: { pages: number }) => sum + row.pages, 0),
    counts.INVALID,
  );
  assert.ok(counts.INVALID! > 0 && counts.DUPLICATE! > 0 && counts.BINARY! > 0, JSON.stringify(counts));
  assert.equal(report.duplicates.pages, counts.DUPLICATE);
  assert.equal(report.found.htmlPages, counts.HTML);
  assert.equal(report.found.links.total, status.links);
  // each document once in byType, copies apart: together every document the status counts
  const byType = report.found.documents.byType.reduce(
    (sum: number, row: { documents: number }) => sum + row.documents,
    0,
  );
  assert.equal(report.found.documents.total, byType);
  assert.equal(byType + report.duplicates.documents, status.documents);
  assert.equal(report.timing.loadMs.median, (status.loadMs as { p50: number }).p50);
  assert.equal(report.timing.queueWaitMs.median, (status.queueWaitMs as { p50: number }).p50);
  // the per-page figures recomputed from the database
  const perPage = await runtime.db.pool.query<{ mean: number; max: number }>(
    `SELECT avg(n)::float8 AS mean, max(n)::int AS max FROM (
       SELECT (SELECT count(*) FROM links WHERE from_page = p.id) AS n FROM pages p
       WHERE p.crawl_id = $1 AND p.type = 'HTML') counts`,
    [id],
  );
  assert.equal(report.found.links.perPageMean, Math.round(perPage.rows[0]!.mean * 100) / 100);
  assert.equal(report.found.links.perPageMax, perPage.rows[0]!.max);
  // harvest over time ends where the crawl ended: every page fetched, the relevant ones among them
  const last = report.focused.harvestOverTime.at(-1);
  assert.equal(last.pagesFetched, status.pagesFetched);
  const relevant = await runtime.db.pool.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pages WHERE crawl_id = $1 AND score >= 0.5 AND type <> 'FRONTIER'",
    [id],
  );
  assert.equal(last.relevantPages, relevant.rows[0]!.n);
  assert.ok(
    report.focused.harvestOverTime.every(
      (point: { pagesFetched: number }, i: number, all: Array<{ pagesFetched: number }>) =>
        i === 0 || point.pagesFetched > all[i - 1]!.pagesFetched,
    ),
  );

  // the link graph's figures: those a ranking of the crawl computes (the diameters may be bounds here)
  const ranked = await app.inject({ method: 'POST', url: `/v1/crawls/${id}/rank` });
  assert.equal(ranked.statusCode, 201, ranked.body);
  const { graph } = ranked.json();
  const { diameter: _diameter, ...figures } = report.linkGraph;
  const { diameter: _rankedDiameter, ...rankedFigures } = graph;
  assert.deepEqual(figures, rankedFigures);
  assert.ok(figures.vertices > 0 && figures.components.weak.count >= 1);
  const { bounds } = report.linkGraph.diameter;
  assert.ok(
    bounds.directed.lower <= graph.diameter.directed && graph.diameter.directed <= bounds.directed.upper,
  );

  // the text job counts the words after the crawl ends: the report shows them once it has
  await eventually(
    async () =>
      (await app.inject({ method: 'GET', url: `/v1/crawls/${id}/stats/words` })).json().complete === true,
    { message: 'the crawl-text job to count every page', timeoutMs: 60_000 },
  );
  const html = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/report.html?rows=50` });
  assert.equal(html.statusCode, 200);
  assert.match(html.headers['content-type'] as string, /^text\/html/);
  assert.match(html.headers['content-security-policy'] as string, /default-src 'none'/);
  assert.doesNotMatch(html.body, /<script|src="http|href="javascript/i);
  assert.match(html.body, /Table 1: the crawl/);
  assert.match(html.body, /<h2>Link graph<\/h2><p>[\d,]+ nodes and [\d,]+ links; average degree/);
  assert.match(html.body, /strongly connected components/);
  assert.equal(html.body.match(/<svg /g)?.length, 3, 'load times, harvest and words plots');

  await t.test(
    'in headless Chromium: the tables and plots are there and visible',
    {
      skip: skipWithoutChromium(),
    },
    async () => {
      const browser = await launchChromium();
      t.after(() => browser.close());
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const blocked: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith('data:') && request.url() !== 'about:blank')
          blocked.push(request.url());
      });
      await page.setContent(html.body, { waitUntil: 'load' });
      assert.deepEqual(blocked, [], 'the page asks for nothing outside itself');
      const tables = await page.locator('table').count();
      assert.ok(tables >= 6, `${tables} tables`);
      for (const plot of await page.locator('svg').all()) {
        const box = await plot.boundingBox();
        assert.ok(box && box.width > 300 && box.height > 200, `a plot drawn at ${JSON.stringify(box)}`);
      }
      assert.equal(
        await page.locator('table.pages tbody tr').count(),
        Math.min(50, Number(status.pagesFetched)),
      );
      mkdirSync('test-artifacts', { recursive: true });
      writeFileSync('test-artifacts/report.png', await page.screenshot({ fullPage: true }));
    },
  );
});

test('report.html escapes what pages say and links only http(s) URLs', () => {
  const hostile = '<script>alert(1)</script>';
  const report = {
    id: '00000000-0000-4000-8000-000000000000',
    status: 'completed',
    strategy: 'bfs',
    request: { seeds: ['http://example.org/'], note: hostile },
    createdAt: '2026-01-01T00:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    runningTimeMs: null,
    pagesPerSecond: 0,
    storage: {
      bytes: 0,
      bodyBytes: 0,
      warcBodyBytes: 0,
      screenshotBytes: 0,
      pageRows: 0,
      linkRows: 0,
      measuredAt: '2026-01-01T00:00:00.000Z',
    },
    sites: 1,
    pages: {
      fetched: 2,
      byType: { HTML: 2 },
      statusCodes: { 200: 2 },
      invalid: [],
      disallowed: 0,
      frontier: 0,
    },
    duplicates: { pages: 0, documents: 0, images: null, near: null, note: 'n' },
    found: {
      htmlPages: 2,
      links: { total: 0, perPageMean: 0, perPageMax: 0 },
      images: { total: 0, perPageMean: 0, perPageMax: 0 },
      documents: { total: 0, byType: [] },
    },
    timing: {
      loadMs: { mean: null, median: null, p95: null, max: null },
      queueWaitMs: { mean: null, median: null, p95: null, max: null },
    },
    focused: null,
    graph: null,
    changes: {
      recrawlOf: '00000000-0000-4000-8000-000000000001',
      counts: { new: 0, changed: 1, unchanged: 0, gone: 1 },
      changed: [{ id: 3, url: 'javascript:alert(2)', title: hostile, textChanged: true, similarity: 0.5 }],
      gone: [
        { id: 4, url: 'data:text/html,<b>x</b>', status: null, finalUrl: null, error: hostile },
        { id: 5, url: 'http://example.org/a', status: 200, finalUrl: 'javascript:alert(3)', error: null },
      ],
      missing: 0,
      missingUrl: '/v1/crawls/00000000-0000-4000-8000-000000000000/changes/missing',
    },
    linkGraph: null,
  };
  const row = {
    title: hostile,
    status: 200,
    type: 'HTML',
    bytes: 1,
    load_ms: 1,
    score: null,
    links: 0,
    images: 0,
  };
  const html = renderReportHtml(report, {
    pages: [
      { ...row, id: '1', url: 'javascript:alert(1)' },
      { ...row, id: '2', url: 'http://example.org/"onmouseover="x' },
    ],
    rowsAsked: 10,
    topScored: [],
    topRanked: { vertices: 1, top: [{ url: 'data:text/html,<b>x</b>', rank: 1, inDegree: 0 }] },
    words: null,
    wordsUnavailable: hostile,
    wordsSvg: null,
    loadTimesSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
    generatedAt: 'now',
  });
  assert.doesNotMatch(html, /<script>/);
  // no words yet: a note saying why, not an empty table and a blank plot
  const uncounted = renderReportHtml(report, {
    pages: [],
    rowsAsked: 10,
    topScored: [],
    topRanked: null,
    words: {
      totalWords: 0,
      distinctWords: 0,
      pagesCounted: 0,
      htmlPages: 12,
      documentPages: 0,
      pagesFailed: 0,
      failedPages: [],
      complete: false,
      method: 'auto',
      words: [],
    },
    wordsUnavailable: null,
    wordsSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
    loadTimesSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
    generatedAt: 'now',
  });
  assert.match(
    uncounted,
    /No words counted yet: the text job has read 0 of 12 HTML pages and is still running/,
  );
  assert.equal(uncounted.match(/<svg /g)?.length, 1, 'only the load-time plot');
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  assert.doesNotMatch(html, /href="javascript:/);
  assert.doesNotMatch(html, /href="data:/);
  assert.match(html, /href="http:\/\/example\.org\/&quot;onmouseover=&quot;x"/);
});

test('the report of a recrawl says what changed: counts, changed and gone pages, the missing', {
  timeout: 240_000,
}, async (t) => {
  const site = await startChangingSite();
  t.after(() => site.close());
  const { app } = await build(t);
  const { first, second } = await recrawlPair(app, site);

  const earlier = await app.inject({ method: 'GET', url: `/v1/crawls/${first}/report` });
  assert.equal(earlier.statusCode, 200, earlier.body);
  assert.equal(earlier.json().changes, null, 'a crawl that recrawls none');

  const response = await app.inject({ method: 'GET', url: `/v1/crawls/${second}/report` });
  assert.equal(response.statusCode, 200, response.body);
  const { changes } = response.json();
  const status = (await app.inject({ method: 'GET', url: `/v1/crawls/${second}` })).json();
  assert.equal(changes.recrawlOf, first);
  assert.deepEqual(changes.counts, status.changes, 'the counts are the status’s');
  assert.deepEqual(changes.counts, CHANGING_SITE_CHANGES);
  const path = (url: string) => new URL(url).pathname;
  // the edited article first (its text changed), then the page whose only edit is a number
  assert.deepEqual(
    changes.changed.map((page: { url: string; textChanged: boolean }) => [path(page.url), page.textChanged]),
    [
      ['/ferry', true],
      ['/weather', false],
    ],
  );
  assert.ok(
    changes.changed.every((page: { similarity: number }) => page.similarity > 0 && page.similarity <= 1),
  );
  const gone = changes.gone.map(
    (page: { url: string; status: number | null; finalUrl: string | null }) =>
      `${path(page.url)} ${page.status}${page.finalUrl ? ` to ${path(page.finalUrl)}` : ''}`,
  );
  assert.deepEqual(gone.sort(), ['/market 410', '/museum-old 200 to /museum', '/regatta 404']);
  assert.equal(changes.missing, 0);
  assert.equal(changes.missingUrl, `/v1/crawls/${second}/changes/missing`);

  const html = await app.inject({ method: 'GET', url: `/v1/crawls/${second}/report.html` });
  assert.equal(html.statusCode, 200);
  assert.match(html.body, /<h2>What changed<\/h2>/);
  assert.match(html.body, /<li class="changed"><b>2<\/b>changed<\/li>/);
  assert.match(html.body, new RegExp(`href="/v1/crawls/${second}/pages/\\d+/diff"`));
  assert.match(html.body, /redirected to <a href="[^"]+\/museum"/);
  assert.match(html.body, /Every page of the earlier crawl was reached again/);
  // the pages table lists pages requested, as the status counts them: a redirect's target is not one
  const listed = /The first (\d+) of (\d+) pages requested/.exec(html.body);
  assert.deepEqual([Number(listed?.[1]), Number(listed?.[2])], [status.pagesFetched, status.pagesFetched]);
  const earlierHtml = await app.inject({ method: 'GET', url: `/v1/crawls/${first}/report.html` });
  assert.doesNotMatch(earlierHtml.body, /What changed/);
});

test('report.html words the link graph, with ranges and a note when the figures are bounds', () => {
  const figures = {
    vertices: 723,
    edges: 13181,
    averageDegree: 18.231,
    density: 0.0252,
    reciprocity: 0.4,
    isolated: 0,
    components: {
      weak: { count: 3, largest: 700, sizes: [700, 20, 3] },
      strong: { count: 40, largest: 600, sizes: [600, 10] },
    },
    clustering: { average: 0.3, transitivity: 0.2 },
    diameter: {
      directed: 121,
      undirected: 40,
      averageShortestPath: 12.5,
      averageShortestPathSources: 100,
      exact: false,
      bounds: { directed: { lower: 121, upper: 130 }, undirected: { lower: 40, upper: 40 } },
      searches: 120,
    },
  };
  const section = linkGraphHtml(figures);
  assert.match(
    section,
    /<p>723 nodes and 13,181 links; average degree 18\.231; diameter 121–130; 3 connected components;/,
  );
  assert.match(section, /3 \(largest 700; next 20, 3\)/);
  assert.match(section, /12\.5 \(from 100 of 723 pages\)/);
  assert.match(section, /Not exact/);
  assert.doesNotMatch(
    linkGraphHtml({ ...figures, diameter: { ...figures.diameter, exact: true } }),
    /Not exact/,
  );
  assert.match(linkGraphHtml(null), /too large to describe here/);
});
