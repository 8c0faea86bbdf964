// Scope patterns that take V8's backtracking engine exponential or high-polynomial time, crawled against a
// page whose links are their worst inputs: every crawl completes, excludes what its pattern matches, and the
// service's /healthz (polled over real HTTP, the crawl running in the same process) answers within a second
// throughout. On V8's engine the first of these crawls froze the process for good.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { build, crawlToEnd } from '../helper.js';

const PATTERNS = [
  '(a|a)+$',
  '(?:a|a)*b',
  '([a-z]|[a-z0-9])+\\.x$',
  '(a|aa)+$',
  '.*.*.*.*.*x$',
  'a*a*a*a*a*a*a*b',
];
/** Matched by none of the patterns, and the inputs on which V8 backtracks without end. */
const HOSTILE_PATHS = [`/${'a'.repeat(40)}!`, `/${'a'.repeat(990)}!`];
/** Longer than scope patterns are run on (MAX_PATTERN_URL_LENGTH): out of scope, never fetched. */
const TOO_LONG_PATH = `/${'a'.repeat(2000)}!`;
/** Short paths each matched by some of the patterns (V8 answers these quickly: the test's oracle). */
const MATCHED_PATHS = ['/aaaa', '/aab', '/abc.x', '/zzzzx'];

let site: Server;
let origin: string;
before(async () => {
  site = createServer((request, response) => {
    const links = request.url === '/' ? [...HOSTILE_PATHS, TOO_LONG_PATH, ...MATCHED_PATHS] : [];
    if (request.url === '/robots.txt') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html><head><title>page</title></head><body><p>the page at ${request.url}</p>${links
        .map((href) => `<a href="${href}">link</a>`)
        .join('')}</body></html>`,
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => site.close(() => resolve())));

test('crawls with patterns that hang a backtracking engine complete, and /healthz answers throughout', async (t) => {
  const { app } = await build(t);
  const service = await app.listen({ port: 0, host: '127.0.0.1' });

  // The event loop never blocks: /healthz, asked every 50 ms, answers each time within a second (after one
  // request that warms the HTTP client and the route up).
  await (await fetch(`${service}/healthz`)).arrayBuffer();
  const latenciesMs: number[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const started = performance.now();
      const response = await fetch(`${service}/healthz`, { signal: AbortSignal.timeout(30_000) });
      assert.equal(response.status, 200);
      await response.arrayBuffer();
      latenciesMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  try {
    for (const pattern of PATTERNS) {
      const { id } = await crawlToEnd(app, {
        seeds: [`${origin}/`],
        maxDepth: 1,
        scope: { exclude: [pattern] },
        politeness: { delayMs: 0, maxCrawlDelayMs: 0 },
      });

      const pages = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages?limit=100` })).json() as {
        items: Array<{ id: number; canonicalUrl: string; type: string }>;
      };
      // the link too long for the patterns is listed among the root page's skipped links, with why
      const root = pages.items.find((page) => page.canonicalUrl === `${origin}/`);
      const detail = (
        await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages/${root?.id}` })
      ).json() as { skipped: Array<{ kind: string; url: string; reason: string }> };
      assert.deepEqual(
        detail.skipped.map((entry) => [entry.kind, entry.reason.split(':')[0]]),
        [['link', 'too-long-for-patterns']],
        pattern,
      );
      const fetched = pages.items.map((page) => page.canonicalUrl).sort();
      const expected = [
        '/',
        ...HOSTILE_PATHS,
        ...MATCHED_PATHS.filter((path) => !new RegExp(pattern).test(`${origin}${path}`)),
      ]
        .map((path) => `${origin}${path}`)
        .sort();
      assert.deepEqual(fetched, expected, pattern);
      assert.deepEqual(
        pages.items.filter((page) => page.type !== 'HTML'),
        [],
        pattern,
      );
    }
  } finally {
    polling = false;
    await poller;
  }
  assert.ok(latenciesMs.length >= 10, `only ${latenciesMs.length} /healthz answers`);
  const slowest = Math.max(...latenciesMs);
  assert.ok(slowest < 1000, `/healthz took ${slowest.toFixed(0)} ms`);
  t.diagnostic(`/healthz: ${latenciesMs.length} answers, slowest ${slowest.toFixed(0)} ms`);
});
