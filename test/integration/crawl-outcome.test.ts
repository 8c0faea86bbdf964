// A crawl that fetched nothing never ends as a plain success: when no seed could be reached (the SSRF guard
// refused it, the connection was refused) it fails with a problem naming each seed's reason; when its seeds
// were reached but yielded nothing (robots.txt said no) it completes with warnings saying so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, crawlToEnd } from '../helper.js';
import { type LocalServer, startServer } from '../unit/fetch/local-server.js';

async function startSite(t: { after(fn: () => Promise<void>): void }, robots: string): Promise<LocalServer> {
  const server = await startServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Home</title><p>Hello there.</p>');
  });
  t.after(() => server.close());
  return server;
}

/** An origin nothing listens on: a server's port, closed again. */
async function closedOrigin(): Promise<string> {
  const server = await startServer((_req, res) => res.end());
  await server.close();
  return server.origin;
}

interface Ended {
  status: string;
  error: string | null;
  problem: {
    type: string;
    title: string;
    detail: string;
    seeds: Array<{ url: string; reason: string }>;
  } | null;
  warnings: string[];
  pagesFetched: number;
}

test('a crawl whose seeds the SSRF guard refuses fails, saying so for each seed', async (t) => {
  const site = await startSite(t, '');
  const { app } = await build(t, { env: { ALLOW_PRIVATE_NETWORKS: 'false' } });
  const ended = (await crawlToEnd(
    app,
    { seeds: [`${site.origin}/`], maxPages: 5 },
    { expect: 'failed', timeoutMs: 120_000 },
  )) as unknown as Ended;
  assert.equal(ended.problem?.type, 'urn:trawl:problem:seeds-unreachable');
  assert.equal(ended.problem?.seeds.length, 1);
  assert.equal(ended.problem?.seeds[0]?.url, `${site.origin}/`);
  assert.match(ended.problem?.seeds[0]?.reason ?? '', /^blocked-address/);
  assert.equal(ended.error, ended.problem?.detail);
  assert.match(ended.error ?? '', /no seed could be fetched/);
  assert.deepEqual(ended.warnings, []);
  assert.deepEqual(site.hits, [], 'nothing was requested of the refused host');
  const listed = (await app.inject({ method: 'GET', url: '/v1/crawls' })).json().items[0];
  assert.equal(listed.status, 'failed');
  assert.equal(listed.error, ended.error);
  assert.equal(listed.pagesFetched, ended.pagesFetched, 'the list counts pages fetched as the status does');
});

test('a crawl whose seeds refuse connections fails, saying so for each seed', async (t) => {
  const [first, second] = [await closedOrigin(), await closedOrigin()];
  const { app } = await build(t);
  const ended = (await crawlToEnd(
    app,
    { seeds: [`${first}/`, `${second}/a`], maxPages: 5, fetch: { retries: 0 } },
    { expect: 'failed', timeoutMs: 120_000 },
  )) as unknown as Ended;
  assert.deepEqual(ended.problem?.seeds.map((seed) => seed.url).sort(), [`${first}/`, `${second}/a`].sort());
  for (const seed of ended.problem?.seeds ?? []) {
    // robots.txt is asked first: unreachable, so nothing of the host may be fetched (RFC 9309)
    assert.match(seed.reason, /robots\.txt unreachable.*connect/, seed.reason);
  }
});

test('a crawl fetching without robots.txt fails on a refused connection with the fetch error', async (t) => {
  const origin = await closedOrigin();
  const { app } = await build(t);
  const ended = (await crawlToEnd(
    app,
    { seeds: [`${origin}/`], maxPages: 5, fetch: { retries: 0 }, politeness: { respectRobots: false } },
    { expect: 'failed', timeoutMs: 120_000 },
  )) as unknown as Ended;
  assert.match(ended.problem?.seeds[0]?.reason ?? '', /^connect/);
});

test('a crawl whose seed robots.txt disallows completes with a warning; one that fetched has none', async (t) => {
  const closed = await startSite(t, 'User-agent: *\nDisallow: /\n');
  const open = await startSite(t, '');
  const { app } = await build(t);
  const refused = (await crawlToEnd(
    app,
    { seeds: [`${closed.origin}/`], maxPages: 5 },
    { timeoutMs: 120_000 },
  )) as unknown as Ended;
  assert.equal(refused.error, null);
  assert.equal(refused.problem, null);
  assert.equal(refused.pagesFetched, 0);
  assert.deepEqual(refused.warnings, [
    `nothing fetched from seed ${closed.origin}/: disallowed by robots.txt`,
  ]);

  const fetched = (await crawlToEnd(
    app,
    { seeds: [`${open.origin}/`], maxPages: 5 },
    { timeoutMs: 120_000 },
  )) as unknown as Ended;
  assert.equal(fetched.pagesFetched, 1);
  assert.deepEqual(fetched.warnings, []);
  assert.equal(fetched.problem, null);

  // the list says as much of each
  const listed = (await app.inject({ method: 'GET', url: '/v1/crawls' })).json().items as Array<
    Ended & { seeds: string[] }
  >;
  const item = (origin: string) => listed.find((crawl) => crawl.seeds[0] === `${origin}/`);
  assert.deepEqual(
    { pagesFetched: item(closed.origin)?.pagesFetched, warnings: item(closed.origin)?.warnings },
    { pagesFetched: 0, warnings: refused.warnings },
  );
  assert.deepEqual(
    { pagesFetched: item(open.origin)?.pagesFetched, warnings: item(open.origin)?.warnings },
    { pagesFetched: 1, warnings: [] },
  );
});
