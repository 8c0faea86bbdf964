// /docs (Swagger UI) in a real browser (Debian's Chromium through playwright-core) under its own
// Content-Security-Policy: the operations of the spec are drawn and expand, and the page meets no CSP violation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DOCS_CSP } from '../../src/plugins/swagger.js';
import { build } from '../helper.js';
import { launchChromium, skipWithoutChromium } from '../support/browser.js';

test('/docs and its assets carry a Content-Security-Policy', async (t) => {
  const { app } = await build(t, { worker: false });
  for (const url of ['/docs', '/docs/', '/docs/static/swagger-initializer.js', '/docs/json']) {
    const response = await app.inject({ method: 'GET', url });
    assert.ok(response.statusCode < 400, `${url}: ${response.statusCode}`);
    assert.equal(response.headers['content-security-policy'], DOCS_CSP, url);
  }
  // the dashboard keeps its own policy
  const dashboard = await app.inject({ method: 'GET', url: '/' });
  assert.notEqual(dashboard.headers['content-security-policy'], DOCS_CSP);
});

test('/docs renders the spec under its Content-Security-Policy with no violation', {
  skip: skipWithoutChromium(),
  timeout: 120_000,
}, async (t) => {
  const { app } = await build(t, { worker: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const browser = await launchChromium();
  t.after(() => browser.close());
  const page = await browser.newPage();
  const violations: string[] = [];
  const failures: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => failures.push(String(error)));
  // reported by the page itself too, so a violation that logs nothing is still seen
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) =>
    window.reportViolation([event.violatedDirective, event.blockedURI, event.sourceFile].join(' ')));`);

  const response = await page.goto(`${base}/docs`);
  assert.equal(response?.headers()['content-security-policy'], DOCS_CSP);
  await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
  assert.match((await page.locator('.info .title').textContent()) ?? '', /trawl/);
  assert.ok((await page.locator('.opblock').count()) > 10, 'the operations are listed');
  // an operation opens: its parameters and responses are drawn by the same scripts and styles
  await page.locator('.opblock-summary').first().click();
  await page.locator('.opblock-body').first().waitFor({ timeout: 30_000 });
  assert.deepEqual(violations, []);
  assert.deepEqual(failures, []);
});
