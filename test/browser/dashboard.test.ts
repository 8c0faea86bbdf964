// The dashboard in a real browser (Debian's Chromium through playwright-core) against the real app and the
// test web: a crawl started from the form runs to completed with its counters moving, its pages table and
// plots and harvest chart show, its link graph is drawn (sigma, a chunk loaded only there), an edges file is
// ranked, a corpus is built from pasted texts, a problem from the API appears beside its field, a second crawl
// is cancelled; axe-core finds no serious or critical accessibility violation on any view. Screenshots go to
// test-artifacts/ (ignored); `npm run dashboard:screenshot` copies the one docs/guide.md shows into docs/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { build, eventually } from '../helper.js';
import { assertAccessible, launchChromium, skipWithoutChromium } from '../support/browser.js';
import { BENCHMARK_FEATURES, startTestWeb } from '../support/testweb/index.js';

test('the dashboard: start a crawl from the form, watch it, read its pages, cancel another', {
  skip: skipWithoutChromium(),
  timeout: 240_000,
}, async (t) => {
  const web = await startTestWeb({
    seed: 4,
    hosts: 1,
    pagesPerHost: 15,
    features: BENCHMARK_FEATURES,
    crawlDelaySeconds: 0,
  });
  t.after(() => web.close());
  const { app } = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const browser = await launchChromium();
  t.after(() => browser.close());
  // bypassCSP only so the test can inject axe-core; the page itself runs under its own CSP
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(String(error)));
  mkdirSync('test-artifacts', { recursive: true });

  /**
   * Whether a screenshot shows saturated colour (the graph's nodes; the stage is white, edges grey, text dark),
   * decoded by the browser's own canvas. A script string: the test's TypeScript has no DOM types.
   */
  const coloured = async (png: Buffer): Promise<boolean> =>
    page.evaluate(`(async () => {
      const image = new Image();
      image.src = 'data:image/png;base64,${png.toString('base64')}';
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const pixels = context.getImageData(0, 0, image.width, image.height).data;
      let count = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
        if (Math.max(r, g, b) - Math.min(r, g, b) > 60) count++;
      }
      return count > 200;
    })()`);

  // the scripts the page loaded, by URL: the graph view's chunk (sigma) only when that view opens
  const scripts = new Map<string, Buffer>();
  page.on('response', async (answer) => {
    if (/\/dashboard\/[^/]+\.js$/.test(answer.url())) scripts.set(answer.url(), await answer.body());
  });

  const response = await page.goto(`${base}/`);
  assert.match(response!.headers()['content-security-policy'] ?? '', /script-src 'self'/);
  await page.waitForSelector('table.crawls');
  await assertAccessible(page, 'crawls');
  const gzipped = [...scripts.values()].reduce((sum, body) => sum + gzipSync(body).length, 0);
  assert.ok(gzipped > 0 && gzipped <= 250_000, `the dashboard's scripts, gzipped: ${gzipped} bytes`);
  assert.ok(![...scripts.keys()].some((url) => url.includes('/graph-')), 'graph chunk loaded too early');

  // a mistake: the API's problem shows beside the field it names
  await page.fill('#field-seeds', 'ftp://x');
  await page.click('form.crawl-form button[type=submit]');
  await page.waitForSelector('[data-field="seeds"]:not(:empty)');
  assert.match((await page.textContent('[data-field="seeds"]')) ?? '', /http\(s\) URL/);

  // a crawl from the form, watched to the end
  await page.fill('#field-seeds', web.seeds[0]!);
  await page.fill('#field-maxPages', '12');
  await page.fill('[id="field-politeness.delayMs"]', '0');
  // a keyword query makes the crawl score its pages: its view draws the harvest rate
  await page.fill('[id="field-relevance.query"]', 'lantern orchard');
  await page.click('form.crawl-form button[type=submit]');
  await page.waitForURL(/#\/crawls\/[0-9a-f-]{36}$/);
  await page.waitForSelector('[data-counter="status"] dd');
  await page.screenshot({ path: 'test-artifacts/dashboard-running.png' });
  await eventually(
    async () => (await page.textContent('[data-counter="status"] dd')) === 'completed' || undefined,
    {
      message: 'the counters to reach completed',
      timeoutMs: 120_000,
      intervalMs: 200,
    },
  );
  assert.equal(await page.textContent('[data-counter="pages fetched"] dd'), '12');
  // the table may first show the rows it had while the crawl ran, then all of them: wait for that state
  await eventually(
    async () => (await page.locator('table.pages-table tbody tr').count()) >= 12 || undefined,
    { message: 'the pages table to list the 12 pages', timeoutMs: 30_000, intervalMs: 200 },
  );
  await page.waitForSelector('.plots img');
  // the Zipf plot waits for the word count, so it never shows an empty "N = 0" plot
  const zipf = page.locator('.plots img[alt^="rank–frequency"]');
  await zipf.waitFor();
  // the image has loaded and drawn something (a string: this file is type-checked without the DOM's types)
  await page.waitForFunction(
    'document.querySelector(\'.plots img[alt^="rank–frequency"]\')?.complete === true',
  );
  const zipfWidth = Number(
    await page.evaluate('document.querySelector(\'.plots img[alt^="rank–frequency"]\').naturalWidth'),
  );
  assert.ok(zipfWidth > 0, `the Zipf plot is ${zipfWidth} pixels wide`);
  // the harvest rate over time: the report's series, a point per stored sample
  await page.waitForSelector('.harvest-plot svg polyline', { state: 'attached' });
  assert.ok(Number(await page.getAttribute('.harvest-plot', 'data-points')) >= 2);
  assert.match((await page.getAttribute('.harvest-plot svg', 'aria-label')) ?? '', /after 12 pages fetched/);
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'test-artifacts/dashboard-crawl.png', fullPage: true });
  await assertAccessible(page, 'crawl');
  // the pages table filters
  await page.selectOption('#filter-type', 'HTML');
  await page.click('form.filters button[type=submit]');
  await eventually(
    async () => {
      const types = await page.locator('table.pages-table tbody tr td:nth-child(2)').allTextContents();
      return types.length > 0 && types.every((type) => type === 'HTML') ? true : undefined;
    },
    { message: 'only HTML rows', timeoutMs: 10_000, intervalMs: 100 },
  );

  // its link graph, drawn by sigma: the drawn graph's order once a frame rendered, and coloured pixels on it
  const crawlUrl = page.url();
  await page.click('a[href$="/graph"]');
  await page.waitForSelector('.graph-stage:not([data-nodes="0"])', { timeout: 60_000 });
  assert.ok(
    [...scripts.keys()].some((url) => url.includes('/graph-')),
    'the graph chunk loaded',
  );
  const drawn = Number(await page.getAttribute('.graph-stage', 'data-nodes'));
  assert.ok(drawn >= 12, `graph nodes drawn: ${drawn}`);
  assert.ok(Number(await page.getAttribute('.graph-stage', 'data-edges')) > 0);
  await page.waitForSelector('.top-lists ol li a');
  assert.equal(await coloured(await page.locator('.graph-stage').screenshot()), true);
  await page.screenshot({ path: 'test-artifacts/dashboard-graph.png', fullPage: true });
  await assertAccessible(page, 'graph');
  // coloured by clustering coefficient with its legend, the ranking's structure figures beside it
  assert.match((await page.locator('.legend').textContent()) ?? '', /clustering coefficient/);
  assert.ok((await page.locator('table.structure tbody tr').count()) >= 10);
  // Fruchterman–Reingold instead of ForceAtlas2: the same pages, drawn again
  await page.selectOption('#graph-layout', 'fruchtermanReingold');
  await page.waitForSelector('.graph-stage[data-layout="fruchtermanReingold"]', { timeout: 30_000 });
  assert.equal(Number(await page.getAttribute('.graph-stage', 'data-nodes')), drawn);
  assert.equal(await coloured(await page.locator('.graph-stage').screenshot()), true);
  await page.screenshot({ path: 'test-artifacts/dashboard-graph-fr.png', fullPage: true });
  // only the largest weak component: never more pages than before
  await page.check('#graph-largest');
  await page.getByText(/of the largest weak component/).waitFor({ timeout: 30_000 });
  assert.ok(Number(await page.getAttribute('.graph-stage', 'data-nodes')) <= drawn);
  await page.selectOption('#graph-colour', 'host');
  assert.doesNotMatch((await page.locator('.legend').textContent()) ?? '', /clustering coefficient/);
  // a second visit of the finished crawl's graph ranks nothing new
  const rankings = async () =>
    ((await (await fetch(`${base}/v1/rankings`)).json()) as { items: unknown[] }).items.length;
  assert.equal(await rankings(), 1);
  await page.goto(crawlUrl);
  await page.click('a[href$="/graph"]');
  await page.waitForSelector('.graph-stage:not([data-nodes="0"])', { timeout: 60_000 });
  assert.equal(await rankings(), 1);

  // rankings: an edges file that is not one is a problem beside the file field; a good one shows its top lists,
  // a vertex named like a script URL stays text
  await page.click('header nav a[href="#/rankings"]');
  await page.waitForSelector('table.rankings tbody tr');
  await assertAccessible(page, 'rankings');
  await page.fill('#field-edges-text', 'three\na b');
  await page.click('form.upload-form button[type=submit]');
  await page.waitForSelector('[data-field="body"]:not(:empty)');
  assert.match((await page.textContent('[data-field="body"]')) ?? '', /vertex count|first line/);
  await page.fill('#field-edges-text', '');
  await page.setInputFiles('#field-body', {
    name: 'edges.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('4\na b\nb c\nc a\njavascript:alert(1) a\n'),
  });
  await page.click('form.upload-form button[type=submit]');
  await page.waitForURL(/#\/rankings\/[0-9a-f-]{36}$/);
  await page.waitForSelector('.top-lists ol li');
  const topByRank = await page.locator('.top-list').first().locator('li .vertex').allTextContents();
  assert.equal(topByRank[0], 'a');
  assert.ok(topByRank.includes('javascript:alert(1)'));
  assert.equal(await page.locator('a[href^="javascript"]').count(), 0);
  await page.screenshot({ path: 'test-artifacts/dashboard-ranking.png', fullPage: true });
  await assertAccessible(page, 'ranking');
  await page.click('a[href="#/rankings"]');
  await eventually(
    async () => ((await page.locator('table.rankings tbody tr').count()) === 2 ? true : undefined),
    {
      message: 'the crawl ranking and the upload listed',
      timeoutMs: 10_000,
      intervalMs: 100,
    },
  );
  await page.screenshot({ path: 'test-artifacts/dashboard-rankings.png', fullPage: true });

  // corpora: no text is a problem beside the texts; three texts build a corpus whose top term is in two of them
  await page.click('header nav a[href="#/corpora"]');
  await page.waitForSelector('form.corpus-form');
  await assertAccessible(page, 'corpora');
  await page.fill('#field-name', 'sports');
  await page.click('form.corpus-form button[type=submit]');
  await page.waitForSelector('[data-field="documents"]:not(:empty)');
  await page.fill('#field-documents', 'tennis court and net\n\ntennis ball, yellow\n\nfootball match');
  await page.click('form.corpus-form button[type=submit]');
  await page.waitForURL(/#\/corpora\/[0-9a-f-]{36}$/);
  await page.waitForSelector('table.terms tbody tr', { timeout: 60_000 });
  assert.equal(await page.textContent('[data-counter="documents"] dd'), '3');
  assert.deepEqual(await page.locator('table.terms tbody tr').first().locator('td').allTextContents(), [
    'tennis',
    '2',
    '67 %',
  ]);
  await page.screenshot({ path: 'test-artifacts/dashboard-corpus.png', fullPage: true });
  await assertAccessible(page, 'corpus');
  await page.click('a[href="#/corpora"]');
  await page.waitForSelector('table.corpora tbody tr');
  await page.screenshot({ path: 'test-artifacts/dashboard-corpora.png', fullPage: true });

  // a second crawl, slow, cancelled from its page
  await page.goto(`${base}/#/`);
  await page.waitForSelector('#field-seeds');
  await page.fill('#field-seeds', web.seeds[0]!);
  await page.fill('[id="field-politeness.delayMs"]', '5000');
  await page.click('form.crawl-form button[type=submit]');
  await page.waitForURL(/#\/crawls\/[0-9a-f-]{36}$/);
  await page.click('button.danger');
  await eventually(
    async () => (await page.textContent('[data-counter="status"] dd')) === 'cancelled' || undefined,
    {
      message: 'the second crawl to be cancelled',
      timeoutMs: 60_000,
      intervalMs: 200,
    },
  );
  await page.goto(`${base}/#/`);
  await page.waitForSelector('table.crawls tbody tr');
  await page.screenshot({ path: 'test-artifacts/dashboard.png' });
  assert.deepEqual(failures, []);
});
