// Rendered pages whose scripts do what a crawler's browser must survive: popups, window.close, dialogs,
// print, downloads, a frame removed while it loads, navigations to javascript: and data: URLs, to a file and
// to a refused address, a reload loop, a heap that grows without end (its renderer crashes).
// Each is crawled with render "always" through the HTTP API and its in-process worker (docs/reference.md
// #rendering): the page is recorded (rendered, or with its render-failed note), and the process stays up (a
// later request answers). Any throw of a Playwright handler would reach this process as an uncaught
// exception and fail the test. One runtime and one Chromium for the whole file.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { build, crawlToEnd } from '../helper.js';
import { skipWithoutChromium } from '../support/browser.js';
import { startTestWeb, type TestWeb } from '../support/testweb/index.js';

interface PageItem {
  id: number;
  url: string;
  finalUrl: string | null;
  type: string;
  error: string | null;
  rendered: boolean;
  renderReason: string | null;
  renderNote: string | null;
}

const skip = skipWithoutChromium();
const ENV = { ALLOW_PRIVATE_NETWORKS: '127.0.0.2/32', RENDER_CONCURRENCY: '1' };
/**
 * Many times what any of these pages takes (a second or two): a page asserted to settle without an error
 * must not have waited it out, whatever the machine's load.
 */
const RENDER_TIMEOUT_MS = 30_000;

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 3, hosts: 2, pagesPerHost: 3, features: { scripted: true } });
});
after(async () => {
  await web.close();
});

/**
 * Crawls one page, rendered, and returns its record and stored HTML once the crawl ended; the process must
 * still answer then.
 */
async function renderOne(
  app: FastifyInstance,
  path: string,
  timeoutMs = RENDER_TIMEOUT_MS,
): Promise<{ page: PageItem; html: string }> {
  const { id } = await crawlToEnd(
    app,
    {
      seeds: [`${web.hosts[0]}${path}`],
      maxDepth: 0,
      politeness: { delayMs: 0, maxCrawlDelayMs: 0 },
      fetch: { timeoutMs: 10_000, retries: 0 },
      render: { mode: 'always', timeoutMs },
    },
    { timeoutMs: 90_000 },
  );
  const listed = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages?limit=10` });
  assert.equal(listed.statusCode, 200, listed.body);
  const page = (listed.json() as { items: PageItem[] }).items.find(
    (item) => new URL(item.url).pathname === path,
  );
  assert.ok(page, `${path} recorded`);
  assert.equal(page.type, 'HTML', JSON.stringify(page));
  const detail = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages/${page.id}?include=html` });
  assert.equal(detail.statusCode, 200, detail.body);
  const health = await app.inject({ method: 'GET', url: '/healthz' });
  assert.equal(health.statusCode, 200, 'the process still answers');
  return { page, html: (detail.json() as { html: string }).html };
}

/** The page was rendered, and its script got past what it did (it wrote its "after" line). */
function assertRenderedPast({ page, html }: { page: PageItem; html: string }): void {
  assert.equal(page.rendered, true, JSON.stringify(page));
  assert.equal(page.renderReason, 'always');
  assert.match(html, /<p id="after">after<\/p>/);
}

test('a rendered page survives what its scripts do, and the process with it', { skip }, async (t) => {
  const { app } = await build(t, { env: ENV });

  await t.test('popups are closed, and what they would show is never requested', async () => {
    web.resetLog();
    const popup = await renderOne(app, '/scripted/popup.html');
    assertRenderedPast(popup);
    assert.equal(popup.page.error, null);
    assert.deepEqual(
      web.log.filter((entry) => entry.url.includes('/scripted/popup-target.html')),
      [],
      'the popup reached nothing',
    );
  });

  await t.test('window.close() of the page itself', async () => {
    assertRenderedPast(await renderOne(app, '/scripted/close.html'));
  });

  await t.test('alert, confirm and prompt are dismissed', async () => {
    const dialogs = await renderOne(app, '/scripted/dialogs.html');
    assertRenderedPast(dialogs);
    assert.match(dialogs.html, /confirm:false prompt:null/);
  });

  await t.test('window.print()', async () => {
    assertRenderedPast(await renderOne(app, '/scripted/print.html'));
  });

  await t.test('a download is refused, its file never requested', async () => {
    web.resetLog();
    assertRenderedPast(await renderOne(app, '/scripted/download.html'));
    assert.deepEqual(
      web.log.filter((entry) => entry.url.endsWith('/scripted/download.bin')),
      [],
      'the download reached nothing',
    );
  });

  await t.test('a frame removed while it loads', async () => {
    assertRenderedPast(await renderOne(app, '/scripted/frame-removed.html'));
  });

  await t.test('a navigation to a javascript: URL: the document it writes is read', async () => {
    const written = await renderOne(app, '/scripted/javascript-url.html');
    assert.equal(written.page.rendered, true, JSON.stringify(written.page));
    assert.match(written.html, /<p>written by a javascript: URL<\/p>/);
  });

  await t.test('a navigation to a data: URL is refused: the page stays where it was', async () => {
    const stayed = await renderOne(app, '/scripted/data-url.html');
    assertRenderedPast(stayed);
    assert.equal(stayed.page.finalUrl, `${web.hosts[0]}/scripted/data-url.html`);
  });

  await t.test('a page reloading itself for ever is read where it stands once it loaded', async () => {
    const looping = await renderOne(app, '/scripted/reload-loop.html');
    assertRenderedPast(looping);
    assert.equal(looping.page.error, null);
  });

  await t.test('a navigation to a file: the page stays, and does not wait for it', async () => {
    const stayed = await renderOne(app, '/scripted/download-navigation.html');
    assertRenderedPast(stayed);
    assert.equal(stayed.page.error, null, 'settled, not at its deadline');
    assert.equal(stayed.page.finalUrl, `${web.hosts[0]}/scripted/download-navigation.html`);
  });

  await t.test("a refused navigation: the page stays, not Chromium's error page in its place", async () => {
    const stayed = await renderOne(app, '/scripted/refused-navigation.html');
    assertRenderedPast(stayed);
    assert.equal(stayed.page.error, null, 'settled, not at its deadline');
    assert.match(stayed.page.renderNote ?? '', /1 request refused: .*127\.0\.0\.3.*blocked-address/);
  });

  await t.test(
    'a script that allocates without end crashes its renderer at its heap cap: recorded, and the next page renders',
    async () => {
      web.resetLog();
      // the deadline is far past the time the cap takes: the crash, not the deadline, ends the render
      const crashed = await renderOne(app, '/scripted/out-of-memory.html', 120_000);
      assert.equal(crashed.page.rendered, false, JSON.stringify(crashed.page));
      assert.equal(crashed.page.renderReason, 'render-failed');
      assert.match(crashed.page.renderNote ?? '', /the page's renderer process crashed/);
      assert.deepEqual(
        web.log.filter((entry) => entry.url.endsWith('/scripted/allocated-1gib.txt')),
        [],
        'the page never held 1 GiB',
      );
      assertRenderedPast(await renderOne(app, '/scripted/print.html'));
    },
  );
});
