// Schedules in the dashboard, in a real browser: the form shows the API's problem beside the field it names,
// makes a schedule with a yearly cron, the list shows it (when it runs, its next run, no runs yet), Change
// turns the form to its name and timing and saves them, and Delete removes it from the list and from the API;
// axe-core finds no serious or critical violation there.
// Screenshots go to test-artifacts/ (ignored).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { build, eventually } from '../helper.js';
import { assertAccessible, launchChromium, skipWithoutChromium } from '../support/browser.js';

test('the dashboard: make a schedule with a yearly cron, see it listed, change it, delete it', {
  skip: skipWithoutChromium(),
  timeout: 120_000,
}, async (t) => {
  const { app } = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const browser = await launchChromium();
  t.after(() => browser.close());
  // bypassCSP only so the test can inject axe-core; the page itself runs under its own CSP
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(String(error)));
  mkdirSync('test-artifacts', { recursive: true });

  await page.goto(`${base}/#/schedules`);
  await page.locator('form.schedule-form').waitFor();
  assert.equal(await page.getAttribute('header nav a[href="#/schedules"]', 'aria-current'), 'page');
  await page.fill('[name="name"]', 'new year');
  await page.fill('[name="crawl.seeds"]', 'https://example.org/');
  await page.fill('[name="crawl.maxPages"]', '20');
  await page.selectOption('#schedule-timing', 'cron');
  // a cron of six fields: the API's problem shown beside the cron field
  await page.fill('[name="cron"]', '0 0 0 1 1 *');
  await page.fill('[name="timezone"]', 'Europe/Paris');
  await page.click('form.schedule-form button[type=submit]');
  await page.locator('[data-field="cron"]:not(:empty)').waitFor();
  assert.match((await page.textContent('[data-field="cron"]')) ?? '', /five fields/);
  await page.screenshot({ path: 'test-artifacts/dashboard-schedule-problem.png', fullPage: true });

  await page.fill('[name="cron"]', '0 0 1 1 *');
  await page.click('form.schedule-form button[type=submit]');
  const row = page.locator('table.schedules tbody tr', { hasText: 'new year' });
  await row.waitFor();
  assert.equal(await page.textContent('[data-field="cron"]'), '', 'the problem cleared');
  const cells = await row.locator('td').allTextContents();
  assert.equal(cells[1], '0 0 1 1 * (Europe/Paris)');
  assert.notEqual(cells[2], '–', 'a next run shown');
  assert.deepEqual(cells.slice(3, 7), ['0', '0', '–', '']);
  const listed = (await app.inject({ method: 'GET', url: '/v1/schedules' })).json();
  assert.equal(listed.items.length, 1);
  const schedule = listed.items[0];
  assert.deepEqual(schedule.crawl.seeds, ['https://example.org/']);
  assert.equal(schedule.crawl.maxPages, 20);
  // the next run shown is the API's: midnight on 1 January in Paris
  assert.match(schedule.nextRunAt, /-12-31T23:00:00/);
  await page.screenshot({ path: 'test-artifacts/dashboard-schedules.png', fullPage: true });
  await assertAccessible(page, 'the schedules view');

  // Change: the same form, for its name and when it runs; its crawl request stays
  await row.locator('button', { hasText: 'Change' }).click();
  assert.equal(await page.textContent('form.schedule-form h2'), 'Change new year');
  assert.equal(await page.isVisible('[name="crawl.seeds"]'), false, 'the crawl request is not edited here');
  assert.equal(await page.inputValue('[name="cron"]'), '0 0 1 1 *');
  await page.selectOption('#schedule-timing', 'every');
  await page.fill('[name="every"]', 'soon');
  await page.click('form.schedule-form button[type=submit]');
  await page.locator('[data-field="every"]:not(:empty)').waitFor();
  await page.selectOption('#schedule-timing', 'cron');
  await page.fill('[name="name"]', 'summer');
  await page.fill('[name="cron"]', '30 6 1 7 *');
  await page.screenshot({ path: 'test-artifacts/dashboard-schedule-change.png', fullPage: true });
  await page.click('form.schedule-form button[type=submit]');
  const changedRow = page.locator('table.schedules tbody tr', { hasText: 'summer' });
  await changedRow.waitFor();
  assert.equal((await changedRow.locator('td').allTextContents())[1], '30 6 1 7 * (Europe/Paris)');
  assert.equal(await page.textContent('form.schedule-form h2'), 'Make a schedule', 'back to making one');
  const changed = (await app.inject({ method: 'GET', url: `/v1/schedules/${schedule.id}` })).json();
  assert.equal(changed.name, 'summer');
  assert.equal(changed.cron, '30 6 1 7 *');
  assert.match(changed.nextRunAt, /-07-01T04:30:00/);
  assert.deepEqual(changed.crawl, schedule.crawl, 'its crawl request as it was');
  await assertAccessible(page, 'the schedules view after a change');

  await changedRow.locator('button', { hasText: 'Delete' }).click();
  await eventually(async () => ((await changedRow.count()) === 0 ? true : undefined), {
    message: 'the row removed',
    timeoutMs: 30_000,
    intervalMs: 100,
  });
  assert.match((await page.textContent('main div[role=status]')) ?? '', /No schedules yet/);
  assert.equal((await app.inject({ method: 'GET', url: `/v1/schedules/${schedule.id}` })).statusCode, 404);
  assert.deepEqual(failures, []);
});
