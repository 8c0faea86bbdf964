import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Fetcher } from '../../../src/crawler/fetch/fetcher.js';
import { RobotsCache } from '../../../src/crawler/robots/cache.js';
import type { RobotsFetch } from '../../../src/crawler/robots/fetch-robots.js';
import { fetchRobots, MAX_ROBOTS_BYTES, robotsText } from '../../../src/crawler/robots/fetch-robots.js';
import { RobotsPolicy } from '../../../src/crawler/robots/policy.js';
import { type LocalServer, startServer } from '../fetch/local-server.js';

const UA = 'trawl/0.1 (+test)';
const OPTS = { userAgent: UA, timeoutMs: 5_000 };
let server: LocalServer;
let fetcher: Fetcher;

before(async () => {
  fetcher = new Fetcher({ allowPrivateNetworks: true });
  server = await startServer((req, res) => {
    const path = req.url ?? '/';
    const text = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(body);
    };
    if (path === '/ok/robots.txt') return text(200, 'User-agent: trawl\nDisallow: /secret\nCrawl-delay: 3\n');
    if (path === '/moved/robots.txt') {
      res.writeHead(301, { location: '/moved-again/robots.txt' });
      return res.end();
    }
    if (path === '/moved-again/robots.txt') {
      res.writeHead(302, { location: '/ok/robots.txt' });
      return res.end();
    }
    if (path.startsWith('/hop')) {
      res.writeHead(302, { location: `/hop${Number(path.slice(4, path.indexOf('/', 1))) + 1}/robots.txt` });
      return res.end();
    }
    if (path === '/down/robots.txt') return text(503, 'maintenance');
    if (path === '/huge/robots.txt') {
      // The rule past 500 KiB must not be read; the one cut in half must not be read either.
      const filler = `# ${'x'.repeat(98)}\n`.repeat(Math.ceil(MAX_ROBOTS_BYTES / 101) - 1);
      const head = `User-agent: *\nDisallow: /early\n${filler}`;
      const cutLine = 'Disallow: /sec'.padEnd(MAX_ROBOTS_BYTES - Buffer.byteLength(head) + 10, 'z');
      return text(200, `${head}${cutLine}\nDisallow: /late\n`);
    }
    text(404, 'nothing here');
  });
});

after(async () => {
  await fetcher.close();
  await server.close();
});

describe('fetchRobots', () => {
  test('200: rules parsed, body kept', async () => {
    const r = await fetchRobots(`${server.origin}/ok/robots.txt`, fetcher, OPTS);
    assert.equal(r.status, 200);
    assert.equal(r.policy.kind, 'parsed');
    assert.equal(r.policy.isAllowed(`${server.origin}/secret/x`, UA), false);
    assert.equal(r.policy.isAllowed(`${server.origin}/public`, UA), true);
    assert.equal(r.policy.crawlDelayMs(UA), 3000);
    assert.match(r.body ?? '', /Disallow: \/secret/);
    assert.ok(r.fetchedAt instanceof Date);
    assert.equal(r.error, undefined);
  });

  test('redirects are followed and the rules apply to the original origin', async () => {
    const r = await fetchRobots(`${server.origin}/moved/robots.txt`, fetcher, OPTS);
    assert.equal(r.policy.kind, 'parsed');
    assert.equal(r.policy.robotsUrl, `${server.origin}/moved/robots.txt`);
    assert.equal(r.policy.isAllowed(`${server.origin}/secret`, UA), false);
  });

  test('more than five redirects: unavailable, allow all', async () => {
    const r = await fetchRobots(`${server.origin}/hop0/robots.txt`, fetcher, OPTS);
    assert.equal(r.policy.kind, 'allow-all');
    assert.match(r.error ?? '', /too-many-redirects/);
    assert.equal(server.hits.filter((h) => h.startsWith('/hop')).length, 6);
  });

  test('404: allow all; 503: disallow all', async () => {
    assert.equal(
      (await fetchRobots(`${server.origin}/none/robots.txt`, fetcher, OPTS)).policy.kind,
      'allow-all',
    );
    const down = await fetchRobots(`${server.origin}/down/robots.txt`, fetcher, OPTS);
    assert.equal(down.policy.kind, 'disallow-all');
    assert.equal(down.status, 503);
  });

  test('unreachable: disallow all, error kept', async () => {
    const gone = await startServer(() => {});
    const origin = gone.origin;
    await gone.close();
    const r = await fetchRobots(`${origin}/robots.txt`, fetcher, OPTS);
    assert.equal(r.policy.kind, 'disallow-all');
    assert.equal(r.status, null);
    assert.match(r.error ?? '', /^connect:/);
  });

  test('the SSRF guard applies: a blocked host is unreachable', async () => {
    const guarded = new Fetcher({ allowPrivateNetworks: false });
    try {
      const r = await fetchRobots(`${server.origin}/ok/robots.txt`, guarded, OPTS);
      assert.equal(r.policy.kind, 'disallow-all');
      assert.match(r.error ?? '', /^blocked-address:/);
    } finally {
      await guarded.close();
    }
  });

  test('only the first 500 KiB are parsed, and a line cut by the cap is dropped', async () => {
    const r = await fetchRobots(`${server.origin}/huge/robots.txt`, fetcher, OPTS);
    assert.equal(r.policy.kind, 'parsed');
    assert.ok(Buffer.byteLength(r.body ?? '') <= MAX_ROBOTS_BYTES);
    assert.equal(r.policy.isAllowed(`${server.origin}/early`, UA), false);
    assert.equal(r.policy.isAllowed(`${server.origin}/second`, UA), true); // "Disallow: /sec…" was cut
    assert.equal(r.policy.isAllowed(`${server.origin}/late`, UA), true);
  });

  test('robotsText keeps a complete body whole', () => {
    assert.equal(robotsText(Buffer.from('a\nb'), false), 'a\nb');
    assert.equal(robotsText(Buffer.from('a\nb'), true), 'a\n');
    assert.equal(robotsText(Buffer.from('ab'), true), '');
  });
});

describe('RobotsCache', () => {
  const fetched = (policy: RobotsPolicy): RobotsFetch => ({
    policy,
    status: 200,
    body: '',
    fetchedAt: new Date(),
  });

  test('one load per origin, shared by concurrent asks; other origins load their own', async () => {
    const loads: string[] = [];
    const cache = new RobotsCache({
      load: async (url) => {
        loads.push(url);
        return fetched(RobotsPolicy.allowAll(url));
      },
    });
    const [a, b] = await Promise.all([
      cache.policyFor('https://news.example.com/a'),
      cache.policyFor('https://news.example.com/b?x'),
    ]);
    assert.equal(a, b);
    await cache.policyFor('https://example.com/news/');
    assert.deepEqual(loads, ['https://news.example.com/robots.txt', 'https://example.com/robots.txt']);
  });

  test('entries expire after maxAgeMs; failed loads are not kept', async () => {
    let nowMs = 0;
    let calls = 0;
    const cache = new RobotsCache({
      maxAgeMs: 1_000,
      now: () => nowMs,
      load: async (url) => {
        calls++;
        if (calls === 3) throw new Error('boom');
        return fetched(RobotsPolicy.allowAll(url));
      },
    });
    await cache.policyFor('https://a.example/x');
    nowMs = 500;
    await cache.policyFor('https://a.example/y');
    assert.equal(calls, 1);
    nowMs = 1_500;
    await cache.policyFor('https://a.example/z');
    assert.equal(calls, 2);
    nowMs = 3_000;
    await assert.rejects(cache.policyFor('https://a.example/z'), /boom/);
    await cache.policyFor('https://a.example/z');
    assert.equal(calls, 4);
  });
});
