// A recrawl in the dashboard, in a real browser: a finished crawl's "Recrawl" button starts one and opens it;
// once it ends it shows what changed (counts by class, each a button filtering the pages table by that class),
// the pages' change column, and a changed page's diff side by side (earlier | now, the words that differ
// marked); axe-core finds no serious or critical violation there. Screenshots go to test-artifacts/ (ignored);
// `npm run dashboard:screenshot` copies the one docs/guide.md shows into docs/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { build, crawlToEnd, eventually, textJobDone } from '../helper.js';
import { assertAccessible, launchChromium, skipWithoutChromium } from '../support/browser.js';
import { CHANGING_SITE_CHANGES, startChangingSite } from '../support/changing-site.js';

test('the dashboard: recrawl a finished crawl, see what changed, a page’s diff side by side', {
  skip: skipWithoutChromium(),
  timeout: 240_000,
}, async (t) => {
  const site = await startChangingSite();
  t.after(() => site.close());
  const { app } = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const first = await crawlToEnd(app, {
    seeds: [`${site.origin}/`],
    politeness: { delayMs: 0, respectRobots: false },
  });
  await textJobDone(app, first.id);
  site.change();

  const browser = await launchChromium();
  t.after(() => browser.close());
  // bypassCSP only so the test can inject axe-core; the page itself runs under its own CSP
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(String(error)));
  mkdirSync('test-artifacts', { recursive: true });

  // a crawl that recrawls none shows no changes; its Recrawl button starts one and opens it
  await page.goto(`${base}/#/crawls/${first.id}`);
  const recrawl = page.locator('.actions button', { hasText: 'Recrawl' });
  await recrawl.waitFor();
  assert.equal(await page.locator('section.changes').count(), 0);
  assert.equal(await page.locator('#filter-change').count(), 0);
  await recrawl.click();
  await page.waitForURL((url) => /#\/crawls\/[0-9a-f-]{36}$/.test(url.hash) && !url.hash.includes(first.id));
  const second = new URL(page.url()).hash.slice('#/crawls/'.length);
  const status = await eventually(
    async () => {
      const body = (await app.inject({ method: 'GET', url: `/v1/crawls/${second}` })).json();
      return body.status === 'completed' ? body : undefined;
    },
    { message: 'the recrawl to complete', timeoutMs: 120_000, intervalMs: 100 },
  );
  assert.equal(status.recrawlOf, first.id);
  const shownCounts = async () => {
    const counts: Record<string, number> = {};
    for (const tile of await page.locator('section.changes .change-count').all()) {
      counts[(await tile.getAttribute('data-change'))!] = Number(await tile.locator('.count').textContent());
    }
    return counts;
  };
  // the view followed the recrawl live: its final status brings the counts, without a reload
  await eventually(
    async () =>
      JSON.stringify(await shownCounts()) === JSON.stringify(CHANGING_SITE_CHANGES) ? true : undefined,
    { message: 'the final counts shown', timeoutMs: 60_000, intervalMs: 100 },
  );
  // the changed pages' texts compared, then the view read afresh
  await textJobDone(app, second);
  await eventually(
    async () => {
      const listed = await app.inject({ method: 'GET', url: `/v1/crawls/${second}/pages?change=changed` });
      const items = listed.json().items as Array<{ textChanged: boolean | null }>;
      return items.length > 0 && items.every((item) => item.textChanged !== null) ? true : undefined;
    },
    { message: 'the changed pages compared', timeoutMs: 60_000 },
  );
  await page.reload();
  await page.locator('section.changes .change-count').first().waitFor();
  assert.match((await page.textContent('h2')) ?? '', /^Recrawl of /);
  assert.deepEqual(await shownCounts(), CHANGING_SITE_CHANGES);
  await page.screenshot({ path: 'test-artifacts/dashboard-recrawl.png', fullPage: true });

  // a count shows its class in the pages table, with the change column
  await page.click('section.changes .change-count[data-change="gone"]');
  await eventually(
    async () => {
      const cells = await page.locator('table.pages-table tbody td.change').allTextContents();
      return cells.length === CHANGING_SITE_CHANGES.gone && cells.every((cell) => cell.startsWith('gone'))
        ? true
        : undefined;
    },
    { message: 'the gone pages listed', timeoutMs: 30_000, intervalMs: 100 },
  );
  assert.equal(await page.inputValue('#filter-change'), 'gone');
  assert.equal(
    await page.locator('table.pages-table button[data-diff]').count(),
    0,
    'a gone page has no text',
  );
  await page.selectOption('#filter-change', 'changed');
  await page.click('form.filters button[type=submit]');
  const ferry = page.locator('table.pages-table tbody tr', { hasText: '/ferry' });
  await ferry.waitFor();
  assert.match(
    (await ferry.locator('td.change').textContent()) ?? '',
    /changedtext changed · similarity 0\.\d\ddiff/,
  );

  // the diff side by side: the earlier sentence beside what it became
  await ferry.locator('button[data-diff]').click();
  await page.locator('table.diff tbody tr').first().waitFor();
  const rows = await page
    .locator('table.diff tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => `${td.className}:${td.textContent}`)),
    );
  assert.ok(
    rows.some(
      ([earlier, now]) => /^removed:.*at dawn/.test(earlier ?? '') && /^added:.*at noon/.test(now ?? ''),
    ),
    JSON.stringify(rows),
  );
  // within an edited sentence, the words that differ are marked
  const marked = async (side: string) =>
    (await page.locator(`table.diff td.${side} mark`).allTextContents()).join('|');
  assert.equal(await marked('removed'), 'dawn|aboard.');
  assert.equal(await marked('added'), 'noon|at the kiosk.');
  assert.match((await page.textContent('.diff-summary')) ?? '', /The main text changed · similarity 0\.\d+/);
  await assertAccessible(page, 'the changes view');
  await page.locator('section.page-diff').screenshot({ path: 'test-artifacts/dashboard-diff.png' });
  await page.screenshot({ path: 'test-artifacts/dashboard-recrawl-diff.png', fullPage: true });
  // the picture docs/guide.md shows: the view from its top to the diff
  const bottom = await page
    .locator('section.page-diff')
    .evaluate(
      (section) => section.getBoundingClientRect().bottom + section.ownerDocument.documentElement.scrollTop,
    );
  await page.screenshot({
    path: 'test-artifacts/dashboard-recrawl-view.png',
    fullPage: true,
    clip: { x: 0, y: 0, width: 1280, height: Math.ceil(bottom) + 16 },
  });
  assert.deepEqual(failures, []);
});
