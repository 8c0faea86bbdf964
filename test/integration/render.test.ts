// Crawls of pages that need JavaScript, rendered in headless Chromium (docs/reference.md#rendering), through
// the HTTP API on whichever queue backend REDIS_URL selects. The test web's host 0 (127.0.0.2) is the only
// private address the SSRF guard lets through (ALLOW_PRIVATE_NETWORKS as a CIDR), so a script's request to
// host 1 (127.0.0.3) must be refused. One Chromium per test file (RENDER_CONCURRENCY 1), closed with the app.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { WorkersRepository } from '../../src/db/workers-repo.js';
import { build, buildShared, crawlToEnd, eventually } from '../helper.js';
import { chromiumProcesses, skipWithoutChromium } from '../support/browser.js';
import { startTestWeb, type TestWeb } from '../support/testweb/index.js';

interface PageItem {
  id: number;
  url: string;
  finalUrl: string | null;
  type: string;
  status: number | null;
  error: string | null;
  loadMs: number | null;
  rendered: boolean;
  renderReason: string | null;
  fetchMs: number | null;
  renderMs: number | null;
  renderNote: string | null;
  navigatedFrom: string | null;
  screenshot: string | null;
}

const skip = skipWithoutChromium();
const ENV = { ALLOW_PRIVATE_NETWORKS: '127.0.0.2/32', RENDER_CONCURRENCY: '1' };

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 3, hosts: 2, pagesPerHost: 3, features: { scripted: true } });
});
after(async () => {
  await web.close();
});
// the tests that render share one app, so one Chromium serves the file; those that need another
// CHROMIUM_PATH build their own
const shared = buildShared({ env: ENV });

async function pagesOf(app: FastifyInstance, id: string): Promise<PageItem[]> {
  const response = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages?limit=200` });
  assert.equal(response.statusCode, 200, response.body);
  return (response.json() as { items: PageItem[] }).items;
}

async function crawl(app: FastifyInstance, seeds: string[], render: unknown, maxDepth = 1) {
  const status = await crawlToEnd(
    app,
    {
      seeds,
      maxDepth,
      maxPages: 50,
      politeness: { delayMs: 0, maxCrawlDelayMs: 0 },
      concurrency: 2,
      workers: 1,
      fetch: { timeoutMs: 10_000, retries: 0 },
      ...(render === undefined ? {} : { render }),
    },
    { timeoutMs: 90_000 },
  );
  const { id } = status;
  const pages = await pagesOf(app, id);
  return { id, pages, byPath: (path: string) => pages.find((page) => new URL(page.url).pathname === path) };
}

test('a BFS crawl finds the links scripts build only when it renders', { skip }, async () => {
  const { app } = shared;
  const seeds = [`${web.hosts[0]}/scripted/app.html`, `${web.hosts[0]}/scripted/xhr.html`];

  const plain = await crawl(app, seeds, undefined);
  assert.deepEqual(plain.pages.map((page) => new URL(page.url).pathname).sort(), [
    '/scripted/app.html',
    '/scripted/xhr.html',
  ]);
  const unrendered = plain.byPath('/scripted/app.html')!;
  assert.equal(unrendered.rendered, false);
  assert.equal(unrendered.renderReason, null);
  assert.equal(unrendered.fetchMs, unrendered.loadMs);

  // the XHR's links arrive after the load event: with waitUntil "load" whether they are in the captured DOM is a
  // race (CI lost it once), so this crawl waits for the network to go idle, as a crawl of such pages should
  const rendered = await crawl(app, seeds, { mode: 'always', waitUntil: 'networkidle' });
  const found = rendered.pages.map((page) => new URL(page.url).pathname).sort();
  assert.deepEqual(found, [
    '/scripted/app.html',
    '/scripted/built-1.html',
    '/scripted/built-2.html',
    '/scripted/from-xhr.html',
    '/scripted/xhr.html',
  ]);
  const app0 = rendered.byPath('/scripted/app.html')!;
  assert.equal(app0.type, 'HTML');
  assert.equal(app0.rendered, true);
  assert.equal(app0.renderReason, 'always');
  assert.ok(app0.fetchMs !== null && app0.renderMs !== null, JSON.stringify(app0));
  assert.equal(app0.loadMs, app0.fetchMs + app0.renderMs);
  // the stored body is the rendered DOM: the built heading is in it
  const detail = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${rendered.id}/pages/${app0.id}?include=html`,
  });
  assert.match((detail.json() as { html: string }).html, /Built by a script/);
  // the main document was fetched once (served to the browser from that fetch), its script once
  const requests = web.log.filter((entry) => entry.url.endsWith('/scripted/app.html'));
  assert.equal(requests.length, 2, 'one fetch per crawl, none by the browser');
  assert.equal(web.log.filter((entry) => entry.url.endsWith('/scripted/app.js')).length, 1);
  // images are blocked by default
  assert.equal(web.log.filter((entry) => entry.url.endsWith('/scripted/pixel.png')).length, 0);
});

test('render: auto renders the pages that look script-built, and says which rule held', {
  skip,
}, async () => {
  const { app } = shared;
  const result = await crawl(
    app,
    [`${web.hosts[0]}/scripted/app.html`, `${web.hosts[0]}/scripted/static.html`],
    { mode: 'auto', block: [] },
    0,
  );
  const built = result.byPath('/scripted/app.html')!;
  assert.equal(built.rendered, true);
  assert.equal(built.renderReason, 'auto:app-root');
  const article = result.byPath('/scripted/static.html')!;
  assert.equal(article.rendered, false);
  assert.equal(article.renderReason, 'auto:static');
  assert.equal(article.renderMs, null);
  // block: [] lets the image through (the rendered page asked for it)
  assert.equal(
    web.log.filter((entry) => entry.url.endsWith('/scripted/pixel.png')).length,
    1,
    JSON.stringify(web.log.map((e) => e.url)),
  );
});

test('a script inside a rendered page cannot reach an address the SSRF guard refuses', {
  skip,
}, async () => {
  const { app } = shared;
  web.resetLog();
  // the script's fetch does not hold the load event back: its refusal is counted only if the render waits
  // for the network to go idle (with "load", a loaded machine can read the DOM before the crawl answered)
  const result = await crawl(app, [`${web.hosts[0]}/scripted/probe.html`], {
    mode: 'always',
    waitUntil: 'networkidle',
  });
  const probe = result.byPath('/scripted/probe.html')!;
  assert.equal(probe.rendered, true);
  assert.match(probe.renderNote ?? '', /1 request refused: .*127\.0\.0\.3.*blocked-address/);
  assert.equal(result.byPath('/scripted/leaked.html'), undefined, 'the refused answer built no link');
  const reachedHost1 = web.log.filter((entry) => entry.url.startsWith(web.hosts[1]!));
  assert.deepEqual(reachedHost1, [], 'nothing reached 127.0.0.3, robots.txt included');
});

test('a page that never settles ends at its render timeout; one that navigates away is recorded where it ended', {
  skip,
}, async () => {
  const { app } = shared;
  const result = await crawl(
    app,
    [`${web.hosts[0]}/scripted/hang.html`, `${web.hosts[0]}/scripted/away.html`],
    { mode: 'always', timeoutMs: 2000 },
  );
  const hang = result.byPath('/scripted/hang.html')!;
  assert.equal(hang.type, 'HTML');
  assert.match(hang.error ?? '', /render did not settle within 2000 ms/);
  assert.match(hang.renderNote ?? '', /2000 ms/);

  const away = result.byPath('/scripted/away.html')!;
  assert.equal(away.rendered, true);
  assert.equal(away.navigatedFrom, `${web.hosts[0]}/scripted/away.html`);
  assert.equal(away.finalUrl, `${web.hosts[0]}/scripted/landing.html`);
  // the landing page's links were read, relative to where the page ended
  assert.ok(result.byPath('/scripted/after-landing.html'), JSON.stringify(result.pages));
});

test('render.screenshot stores a PNG per rendered page, at most 1280×2000, served beside the page', {
  skip,
}, async () => {
  const { app } = shared;
  const result = await crawl(
    app,
    [`${web.hosts[0]}/scripted/app.html`],
    { mode: 'always', screenshot: true },
    0,
  );
  const page = result.byPath('/scripted/app.html')!;
  assert.equal(page.screenshot, `/v1/crawls/${result.id}/pages/${page.id}/screenshot`);
  const shot = await app.inject({ method: 'GET', url: page.screenshot });
  assert.equal(shot.statusCode, 200);
  assert.equal(shot.headers['content-type'], 'image/png');
  const png = shot.rawPayload;
  assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a');
  // IHDR: width and height, big-endian, at bytes 16 and 20
  assert.ok(
    png.readUInt32BE(16) <= 1280 && png.readUInt32BE(20) <= 2000,
    `${png.readUInt32BE(16)}×${png.readUInt32BE(20)}`,
  );

  const plain = await crawl(app, [`${web.hosts[0]}/scripted/static.html`], 'always', 0);
  const without = plain.byPath('/scripted/static.html')!;
  assert.equal(without.screenshot, null);
  const missing = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${plain.id}/pages/${without.id}/screenshot`,
  });
  assert.equal(missing.statusCode, 404);
  // another crawl's page is not found through this crawl
  const foreign = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${plain.id}/pages/${page.id}/screenshot`,
  });
  assert.equal(foreign.statusCode, 404);
});

test('a crawl asking to render is a 422 when no live worker can; a worker without Chromium fails it at its start', async (t) => {
  const { app, runtime } = await build(t, { env: { ...ENV, CHROMIUM_PATH: '/nonexistent/chromium' } });
  const post = (render: unknown) =>
    app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: { seeds: [`${web.hosts[0]}/scripted/app.html`], maxDepth: 0, render },
    });
  const refused = await post('auto');
  assert.equal(refused.statusCode, 422, refused.body);
  assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
  assert.equal((refused.json() as { field: string }).field, 'render');
  assert.equal((await post('never')).statusCode, 202);

  // another live worker says it can render: the crawl is accepted, and this worker's runner fails it once,
  // at its start, saying why
  await new WorkersRepository(runtime.db.pool).announce('elsewhere:1', true);
  const status = await crawlToEnd(
    app,
    { seeds: [`${web.hosts[0]}/scripted/app.html`], maxDepth: 0, render: { mode: 'always' } },
    { expect: 'failed' },
  );
  assert.match(String(status.error), /^render: .*Chromium/);
  assert.equal(status.pagesFetched, 0);
});

test('a Chromium that will not start fails the crawl at its start with the reason', async (t) => {
  const { app } = await build(t, { env: { ...ENV, CHROMIUM_PATH: '/bin/false' } });
  const status = await crawlToEnd(
    app,
    { seeds: [`${web.hosts[0]}/scripted/app.html`], maxDepth: 0, render: 'always' },
    { expect: 'failed' },
  );
  assert.match(String(status.error), /^render: Chromium at \/bin\/false did not start/);
});

test('Chromium killed in the middle of a crawl: the page in flight is recorded with the fault, and the crawl goes on rendering', {
  skip,
}, async () => {
  const { app } = shared;
  web.resetLog();
  const crawling = crawl(app, [`${web.hosts[0]}/scripted/stall.html`], { mode: 'always', timeoutMs: 30_000 });
  // the browser asked for the stalled script: the page is in flight in it
  await eventually(() => web.log.some((entry) => entry.url.endsWith('/scripted/stall.js')), {
    message: 'the rendered page to ask for its script',
    timeoutMs: 60_000,
  });
  const browsers = await chromiumProcesses(process.pid, 'browser');
  assert.equal(browsers.length, 1, `browsers: ${browsers.join(', ')}`);
  process.kill(browsers[0]!, 'SIGKILL');
  const result = await crawling;

  const stalled = result.byPath('/scripted/stall.html')!;
  assert.equal(stalled.type, 'HTML');
  assert.equal(stalled.rendered, false);
  assert.equal(stalled.renderReason, 'render-failed');
  assert.match(stalled.error ?? '', /Chromium exited mid-render/);
  assert.match(stalled.renderNote ?? '', /Chromium exited mid-render/);
  // its fetched HTML was parsed instead, and the page it links was rendered by a new browser
  const app0 = result.byPath('/scripted/app.html')!;
  assert.equal(app0.rendered, true, JSON.stringify(app0));
  assert.equal(app0.error, null);
  const relaunched = await chromiumProcesses(process.pid, 'browser');
  assert.equal(relaunched.length, 1);
  assert.notEqual(relaunched[0], browsers[0]);
});
