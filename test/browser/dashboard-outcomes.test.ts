// The dashboard with an API key, in a real browser under its own CSP (no bypass): the crawl list tells a crawl
// that failed (no seed reachable) and one that completed with warnings from a plain success, and shows pages
// fetched; "Open report" opens the API's report.html through a signed link, styled by its own CSP; a running
// crawl's pages table follows its progress. Screenshots go to test-artifacts/ (ignored).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { isFinished } from '../../src/crawler/vocabulary.js';
import { build, eventually } from '../helper.js';
import { launchChromium, skipWithoutChromium } from '../support/browser.js';
import { type LocalServer, startServer } from '../unit/fetch/local-server.js';

/** A chain of pages /0 → /1 → … → /39, each with a little text; robots.txt as given. */
async function startSite(robots: string): Promise<LocalServer> {
  return startServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
      return;
    }
    const n = Number(/^\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<title>Page ${n}</title><p>Page ${n} of the chain.</p><a href="/${n + 1}">next</a>`);
  });
}

async function closedOrigin(): Promise<string> {
  const server = await startServer((_req, res) => res.end());
  await server.close();
  return server.origin;
}

test('the dashboard: crawl outcomes in the list, the report in its own tab, live pages', {
  skip: skipWithoutChromium(),
  timeout: 240_000,
}, async (t) => {
  const chain = await startSite('');
  const refused = await startSite('User-agent: *\nDisallow: /\n');
  t.after(() => Promise.all([chain.close(), refused.close()]));
  const { app, runtime } = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const { key } = await runtime.keys.create({ name: 'dashboard' });
  const headers = { authorization: `Bearer ${key}` };
  const start = async (payload: object) => {
    const created = await app.inject({ method: 'POST', url: '/v1/crawls', payload, headers });
    assert.equal(created.statusCode, 202, created.body);
    return created.json().id as string;
  };
  const ended = (server: FastifyInstance, id: string) =>
    eventually(
      async () => {
        const body = (await server.inject({ method: 'GET', url: `/v1/crawls/${id}`, headers })).json();
        return isFinished(body.status) ? body : undefined;
      },
      { message: `crawl ${id} to end`, timeoutMs: 120_000, intervalMs: 100 },
    );
  const politeness = { delayMs: 0 };
  const failed = await start({ seeds: [`${await closedOrigin()}/`], fetch: { retries: 0 }, politeness });
  const warned = await start({ seeds: [`${refused.origin}/0`], politeness });
  const fine = await start({ seeds: [`${chain.origin}/0`], maxPages: 3, politeness });
  for (const id of [failed, warned, fine]) await ended(app, id);

  const browser = await launchChromium();
  t.after(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(String(error)));
  mkdirSync('test-artifacts', { recursive: true });

  await page.goto(`${base}/`);
  await page.fill('#api-key', key);
  await page.click('form.key button[type=submit]');
  const row = (id: string) => page.locator(`table.crawls tbody tr:has(a[href="#/crawls/${id}"])`);
  await row(fine).waitFor();
  await row(failed).waitFor();
  await row(warned).waitFor();
  assert.equal(await row(failed).locator('.status').getAttribute('class'), 'status failed');
  assert.match(
    (await row(failed).locator('.outcome-note.error').textContent()) ?? '',
    /no seed could be fetched: .*robots\.txt unreachable/,
  );
  assert.equal(await row(warned).locator('.status').getAttribute('class'), 'status completed warned');
  assert.match(
    (await row(warned).locator('.outcome-note.warning').textContent()) ?? '',
    /nothing fetched from seed .*disallowed by robots\.txt/,
  );
  assert.equal(await row(fine).locator('.status').getAttribute('class'), 'status completed');
  assert.equal(await row(fine).locator('.outcome-note').count(), 0);
  assert.equal(await row(fine).locator('[data-column="pages-fetched"]').textContent(), '3');
  assert.equal(await row(failed).locator('[data-column="pages-fetched"]').textContent(), '0');
  await page.screenshot({ path: 'test-artifacts/dashboard-outcomes.png' });

  // the report: the API's URL (signed: a tab cannot send the key), styled by the report's own CSP
  await row(fine).locator('a').click();
  const open = page.locator('button', { hasText: 'Open report' });
  await open.waitFor();
  const [tab] = await Promise.all([context.waitForEvent('page'), open.click()]);
  // what a CSP refuses is logged as "Refused to apply/load …"
  const cspErrors: string[] = [];
  tab.on('console', (message) => {
    if (message.type() === 'error' && /Refused to/.test(message.text())) cspErrors.push(message.text());
  });
  await tab.waitForURL(new RegExp(`^${base}/v1/crawls/${fine}/report\\.html\\?token=`));
  await tab.waitForLoadState('load');
  const font = String(await tab.evaluate('getComputedStyle(document.body).fontFamily'));
  assert.match(font, /system-ui/, `the report's own stylesheet applies: ${font}`);
  assert.deepEqual(cspErrors, []);
  await tab.screenshot({ path: 'test-artifacts/dashboard-report.png' });
  await tab.close();

  // a running crawl's pages table follows its progress, as the counters do (one page per 1.5 s)
  const slow = await start({ seeds: [`${chain.origin}/0`], maxPages: 40, politeness: { delayMs: 1500 } });
  await page.goto(`${base}/#/crawls/${slow}`);
  await page.waitForSelector('table.pages-table tbody tr');
  const fetchedRows = async () =>
    (await page.locator('table.pages-table tbody tr td:nth-child(2)').allTextContents()).filter(
      (type) => type !== 'FRONTIER',
    ).length;
  const first = await fetchedRows();
  await eventually(async () => ((await fetchedRows()) >= first + 2 ? true : undefined), {
    message: 'the pages table to show pages fetched since it was first read',
    timeoutMs: 60_000,
    intervalMs: 200,
  });
  assert.equal(await page.textContent('[data-counter="status"] dd'), 'running', 'still running');
  await page.screenshot({ path: 'test-artifacts/dashboard-live-pages.png', fullPage: true });
  assert.equal((await app.inject({ method: 'DELETE', url: `/v1/crawls/${slow}`, headers })).statusCode, 200);
  assert.deepEqual(failures, []);
});
