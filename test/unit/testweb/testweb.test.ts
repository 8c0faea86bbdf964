import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import {
  BENCHMARK_FEATURES,
  countDisallowedRequests,
  countRepeatedRequests,
  type GroundTruth,
  loggedPageUrls,
  startTestWeb,
  type TestWeb,
} from '../../support/testweb/index.js';
import { walk } from './walker.js';

// Small and quick: the slow page waits 20 ms, the long page is 64 KiB.
const SMALL = {
  seed: 11,
  pagesPerHost: 12,
  slowPageDelayMs: 20,
  oversizePageBytes: 64 * 1024,
  bigBinaryBytes: 1024 * 1024,
};

function sorted(set: Iterable<string>): string[] {
  return [...set].sort();
}

function types(truth: GroundTruth): Map<string, { type: string; status: number | null }> {
  return new Map([...truth.expected].map(([url, page]) => [url, { type: page.type, status: page.status }]));
}

/** Ground truth with origins replaced by host numbers, so two webs on different ports compare. */
function portable(web: TestWeb, truth: GroundTruth): string {
  const strip = (text: string) =>
    web.hosts.reduce((out, origin, index) => out.split(origin).join(`<host ${index}>`), text);
  return strip(
    JSON.stringify({
      fetched: sorted(truth.fetched),
      disallowed: sorted(truth.disallowed),
      duplicates: truth.duplicateGroups,
      expected: [...truth.expected].sort(([a], [b]) => (a < b ? -1 : 1)),
    }),
  );
}

test('serves one host per loopback address from 127.0.0.2, one robots.txt variant each, and closes', async () => {
  const web = await startTestWeb(SMALL);
  try {
    assert.deepEqual(
      web.hosts,
      [2, 3, 4, 5, 6].map((last) => `http://127.0.0.${last}:${web.port}`),
    );
    assert.deepEqual(web.seeds, [`${web.hosts[0]}/`]);
    const statuses: number[] = [];
    for (const origin of web.hosts) statuses.push((await fetch(`${origin}/robots.txt`)).status);
    assert.deepEqual(statuses, [200, 200, 404, 500, 200]);
    const agents = await (await fetch(`${web.hosts[1]}/robots.txt`)).text();
    assert.match(agents, /User-Agent: Trawl\nDisallow: \/drafts\//);
    const home = await fetch(web.seeds[0]!);
    assert.equal(home.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(await home.text(), /<title>Home of host 0<\/title>/);
    assert.equal((await fetch(`${web.hosts[0]}/no/such/page.html`)).status, 404);
    assert.deepEqual(
      web.log.map((entry) => [entry.host, entry.status]),
      [
        ...web.hosts.map((origin, index) => [origin, statuses[index]]),
        [web.hosts[1], 200],
        [web.hosts[0], 200],
        [web.hosts[0], 404],
      ],
    );
  } finally {
    await web.close();
  }
  await assert.rejects(fetch(`${web.hosts[0]}/`));
});

test('the ground truth depends on the seed only', async () => {
  const first = await startTestWeb(SMALL);
  const second = await startTestWeb(SMALL);
  const other = await startTestWeb({ ...SMALL, seed: 12 });
  try {
    const options = { maxDepth: 4 };
    assert.notEqual(first.port, second.port);
    assert.equal(portable(first, first.groundTruth(options)), portable(second, second.groundTruth(options)));
    assert.notEqual(portable(first, first.groundTruth(options)), portable(other, other.groundTruth(options)));
    const [home1, home2] = await Promise.all(
      [first, second].map(async (web) => (await fetch(web.seeds[0]!)).text()),
    );
    assert.equal(
      home1!.split(String(first.port)).join('PORT'),
      home2!.split(String(second.port)).join('PORT'),
    );
  } finally {
    await Promise.all([first.close(), second.close(), other.close()]);
  }
});

test('an independent walk of the live server agrees with the ground truth, robots off', async () => {
  const web = await startTestWeb({ ...SMALL, features: { robots: false } });
  try {
    const truth = web.groundTruth({ maxDepth: 6, respectRobots: false });
    const walked = await walk(web.hosts, web.seeds, { maxDepth: 6, robots: false, sitemaps: true });
    assert.deepEqual(sorted(walked.requested), sorted(truth.fetched));
    assert.deepEqual(walked.records, types(truth));
    assert.deepEqual(walked.duplicateGroups, truth.duplicateGroups);
    assert.deepEqual(sorted(loggedPageUrls(web)), sorted(truth.fetched));
    assert.equal(countRepeatedRequests(web), 0);
    assert.equal(truth.disallowed.size, 0);
    // Every feature shows up.
    const types_ = new Set([...truth.expected.values()].map((page) => page.type));
    assert.deepEqual(sorted(types_), ['BINARY', 'DUPLICATE', 'HTML', 'INVALID']);
    for (const path of [
      '/orphans/zipped.html',
      '/malformed/f.html',
      '/slow/after.html',
      '/big/tail.html',
      '/canon/t8.html',
    ]) {
      assert.ok(
        [...truth.fetched].some((url) => url.endsWith(path)),
        path,
      );
    }
    // The charset pages decode to their known words.
    for (const [url, page] of truth.expected) {
      for (const word of page.words ?? [])
        assert.ok(walked.texts.get(url)!.toLowerCase().includes(word), `${word} in ${url}`);
    }
    const latin1 = [...truth.expected.values()].filter((page) => page.words !== undefined);
    assert.equal(latin1.length, 2);
  } finally {
    await web.close();
  }
});

test('an independent walk with robots-parser agrees with the ground truth, robots on', async () => {
  const web = await startTestWeb(SMALL);
  try {
    const truth = web.groundTruth({ maxDepth: 5 });
    const walked = await walk(web.hosts, web.seeds, { maxDepth: 5, robots: true, sitemaps: true });
    assert.deepEqual(sorted(walked.requested), sorted(truth.fetched));
    assert.deepEqual(walked.records, types(truth));
    assert.equal(countDisallowedRequests(web), 0);
    assert.equal(countRepeatedRequests(web), 0);
    // The 5xx host is never fetched from; redirects into disallowed paths stop before them.
    const closed = web.hosts[3]!;
    assert.ok([...truth.disallowed].some((url) => url.startsWith(closed)));
    assert.ok(![...truth.fetched].some((url) => url.startsWith(closed)));
    assert.equal(truth.expected.get(`${web.hosts[0]}/redirects/to-disallowed`)?.type, 'DISALLOWED');
    assert.ok(truth.disallowed.has(`${web.hosts[1]}/drafts/moved.html`));
    assert.equal(truth.expected.get(`${web.hosts[1]}/members/area.html`)?.type, 'HTML');
  } finally {
    await web.close();
  }
});

test('ground-truth options: nofollow, sitemaps, robots, page cap, trap, over-size bodies', async () => {
  const web = await startTestWeb(SMALL);
  try {
    const origin = web.hosts[0]!;
    const base = web.groundTruth({ maxDepth: 5 });
    assert.ok(!base.fetched.has(`${origin}/nofollow/skipped.html`));
    assert.ok(!base.fetched.has(`${origin}/nofollow/behind-meta.html`));
    const followAll = web.groundTruth({ maxDepth: 5, honourNofollow: false });
    for (const path of [
      '/nofollow/skipped.html',
      '/nofollow/skipped-too.html',
      '/nofollow/behind-meta.html',
    ]) {
      assert.ok(followAll.fetched.has(`${origin}${path}`), path);
    }
    assert.ok(base.fetched.has(`${origin}/orphans/first.html`));
    assert.equal(base.depth.get(`${origin}/orphans/first.html`), 0);
    assert.ok(!web.groundTruth({ maxDepth: 5, sitemaps: false }).fetched.has(`${origin}/orphans/first.html`));
    assert.ok(web.groundTruth({ maxDepth: 5, respectRobots: false }).fetched.has(`${web.hosts[3]}/`));

    // Redirects: 5 hops are followed, 6 are too many, a loop is invalid.
    assert.equal(
      base.expected.get(`${origin}/redirects/chain5/0`)?.redirectsTo,
      `${origin}/redirects/chain5/end.html`,
    );
    assert.equal(base.expected.get(`${origin}/redirects/chain6/0`)?.type, 'INVALID');
    assert.ok(base.fetched.has(`${origin}/redirects/chain6/5`));
    assert.ok(!base.fetched.has(`${origin}/redirects/chain6/end.html`));
    assert.equal(base.expected.get(`${origin}/redirects/loop-a`)?.type, 'INVALID');
    assert.equal(base.expected.get(`${origin}/errors/flaky.html`)?.type, 'HTML');

    // The trap: a depth limit or a page cap is required; depth grows one per month.
    assert.throws(() => web.groundTruth({ maxDepth: null }), /spider trap/);
    assert.equal(base.depth.get(`${origin}/trap/2026/11/`), 1);
    assert.ok(base.fetched.has(`${origin}/trap/2027/03/`));
    assert.ok(!base.fetched.has(`${origin}/trap/2027/04/`));

    const capped = web.groundTruth({ maxDepth: null, maxPages: 30 });
    assert.equal(capped.exact, false);
    assert.equal(capped.fetchedUpperBound, 30);
    assert.ok(capped.fetched.has(`${origin}/trap/2028/12/`)); // depth 26 ≤ 29

    const small = { maxDepth: 5, maxBodyBytes: 32 * 1024 };
    assert.ok(web.groundTruth(small).fetched.has(`${origin}/big/head.html`));
    assert.ok(!web.groundTruth(small).fetched.has(`${origin}/big/tail.html`));
    assert.ok(base.fetched.has(`${origin}/big/tail.html`));
    const rejected = web.groundTruth({ ...small, oversize: 'reject' });
    assert.equal(rejected.expected.get(`${origin}/big/page.html`)?.type, 'INVALID');
    assert.ok(!rejected.fetched.has(`${origin}/big/head.html`));
  } finally {
    await web.close();
  }
});

test('duplicate groups are exactly the fetched pages with equal SHA-256', async () => {
  const web = await startTestWeb(SMALL);
  try {
    const truth = web.groundTruth({ maxDepth: 4 });
    const byHash = new Map<string, string[]>();
    for (const [url, page] of truth.expected) {
      if (page.status !== 200 || !page.contentType?.startsWith('text/html')) continue;
      const body = Buffer.from(await (await fetch(url)).arrayBuffer());
      const hash = createHash('sha256').update(body).digest('hex');
      byHash.set(hash, [...(byHash.get(hash) ?? []), url]);
    }
    const groups = [...byHash.values()].filter((group) => group.length > 1).map((group) => group.sort());
    assert.deepEqual(groups.sort(), truth.duplicateGroups.map((group) => [...group].sort()).sort());
    assert.equal(truth.duplicateGroups.length, 2);
  } finally {
    await web.close();
  }
});

test('request counters: disallowed, repeated, spelled twice; a 503 retry is not a repeat', async () => {
  const web = await startTestWeb(SMALL);
  try {
    const [first, second, , closed] = web.hosts;
    const get = async (url: string) => (await fetch(url, { redirect: 'manual' })).arrayBuffer();
    await get(`${first}/robots.txt`);
    await get(`${first}/robots.txt`);
    await get(`${first}/sitemap.xml`);
    await get(`${second}/sitemap.xml`); // a guessed sitemap (404) is not a page request either
    await get(`${first}/private/secret.html`); // disallowed
    await get(`${closed}/`); // disallowed: robots.txt answers 500
    await get(`${second}/drafts/plan.html`); // disallowed for trawl
    await get(`${second}/members/area.html`); // allowed for trawl, not for *
    assert.equal(countDisallowedRequests(web), 3);
    assert.equal(countDisallowedRequests(web, 'otherbot'), 4); // host 1 disallows everything to otherbot
    assert.equal(countRepeatedRequests(web), 0);

    await get(`${first}/errors/flaky.html`);
    await get(`${first}/errors/flaky.html`);
    assert.deepEqual(
      web.log.slice(-2).map((entry) => entry.status),
      [503, 200],
    );
    assert.equal(countRepeatedRequests(web), 0);
    await get(`${first}/errors/flaky.html`);
    assert.equal(countRepeatedRequests(web), 1);
    await get(`${first}/canon/t5.html?utm_source=a`);
    await get(`${first}/canon/t5.html`);
    assert.equal(countRepeatedRequests(web), 2);

    web.resetLog();
    assert.equal(web.log.length, 0);
    await get(`${first}/errors/flaky.html`);
    assert.equal(web.log[0]?.status, 503);
  } finally {
    await web.close();
  }
});

test('binaries carry real signatures; the big one is streamed and can be left unread', async () => {
  const web = await startTestWeb({ ...SMALL, bigBinaryBytes: 4 * 1024 * 1024 });
  try {
    const origin = web.hosts[0]!;
    const pdf = Buffer.from(await (await fetch(`${origin}/files/report.pdf`)).arrayBuffer());
    assert.equal(pdf.subarray(0, 8).toString('latin1'), '%PDF-1.4');
    const png = Buffer.from(await (await fetch(`${origin}/files/photo.png`)).arrayBuffer());
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
    const big = await fetch(`${origin}/files/big.pdf`);
    assert.equal(big.headers.get('content-length'), String(4 * 1024 * 1024));
    const reader = big.body!.getReader();
    const { value } = await reader.read();
    assert.equal(Buffer.from(value!).subarray(0, 8).toString('latin1'), '%PDF-1.5');
    await reader.cancel();
    const head = await fetch(`${origin}/files/big.pdf`, { method: 'HEAD' });
    assert.equal(head.headers.get('content-type'), 'application/pdf');
    assert.equal(web.log.at(-1)?.bytes, 0);
  } finally {
    await web.close();
  }
});

test('benchmark mode: 8 hosts × 2000 plain pages, robots rules, one 5xx host', async () => {
  const web = await startTestWeb({ hosts: 8, pagesPerHost: 2000, features: BENCHMARK_FEATURES });
  try {
    const truth = web.groundTruth({ maxDepth: null });
    const closed = web.hosts.filter(
      (origin) => [...truth.disallowed].filter((url) => url.startsWith(origin)).length > 1000,
    );
    assert.equal(closed.length, 1);
    // 7 open hosts × 2000 pages plus robots probes, every one of them HTML.
    assert.ok(
      truth.fetched.size >= 7 * 2000 && truth.fetched.size < 7 * 2000 + 100,
      String(truth.fetched.size),
    );
    assert.ok(
      [...truth.expected.values()].every((page) => page.type === 'HTML' || page.type === 'DISALLOWED'),
    );
    const sample = [...truth.fetched].filter((_url, index) => index % 700 === 0);
    for (const url of sample) {
      const html = await (await fetch(url)).text();
      const links = html.match(/<a href=/g)?.length ?? 0;
      assert.ok(
        Buffer.byteLength(html) >= 1000 && Buffer.byteLength(html) <= 6000,
        `${url}: ${html.length} bytes`,
      );
      assert.ok(links >= 4 && links <= 30, `${url}: ${links} links`);
    }
  } finally {
    await web.close();
  }
});

test('conditional requests: validators on pages, 304 when they match, ignored on request', async () => {
  const web = await startTestWeb({ ...SMALL, hosts: 1, features: BENCHMARK_FEATURES, conditional: 'honour' });
  try {
    const url = web.seeds[0]!;
    const first = await fetch(url);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    const lastModified = first.headers.get('last-modified');
    assert.match(etag ?? '', /^"[0-9a-f]{20}"$/);
    assert.ok(lastModified && !Number.isNaN(Date.parse(lastModified)));
    const ask = async (headers: Record<string, string>) => {
      const response = await fetch(url, { headers });
      return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
    };
    assert.deepEqual(await ask({ 'if-none-match': etag! }), { status: 304, bytes: 0 });
    assert.deepEqual(await ask({ 'if-modified-since': lastModified! }), { status: 304, bytes: 0 });
    // If-None-Match decides when sent, even with a matching date
    assert.equal((await ask({ 'if-none-match': '"other"', 'if-modified-since': lastModified! })).status, 200);
    web.setConditional('ignore');
    assert.equal((await ask({ 'if-none-match': etag! })).status, 200, 'a server that ignores them');
  } finally {
    await web.close();
  }
});

test('mutation: edits, removes and adds pages, and knows the change class of each', async () => {
  const web = await startTestWeb({
    ...SMALL,
    hosts: 2,
    pagesPerHost: 40,
    features: BENCHMARK_FEATURES,
    conditional: 'honour',
  });
  try {
    const before = new Map<string, { status: number; etag: string | null; body: string }>();
    const get = async (url: string) => {
      const response = await fetch(url);
      return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
    };
    const truth = web.groundTruth({ maxDepth: null });
    for (const url of truth.fetched) before.set(url, await get(url));
    const mutation = web.mutate({ edit: 0.1, remove: 0.05, add: 0.05, seed: 3 });
    assert.ok(mutation.edited.length >= 7 && mutation.removed.length >= 3 && mutation.added.length >= 3);
    for (const url of mutation.edited) {
      const now = await get(url);
      assert.equal(now.status, 200);
      assert.notEqual(now.etag, before.get(url)?.etag, `${url}: a new ETag`);
      assert.equal(mutation.expected(url), 'changed');
    }
    for (const url of mutation.removed) {
      assert.ok([404, 410].includes((await get(url)).status), url);
      assert.equal(mutation.expected(url), 'gone');
    }
    // each added page is linked from an edited page, and was no page before
    for (const url of mutation.added) {
      assert.equal((await get(url)).status, 200);
      assert.equal(before.has(url), false);
      assert.equal(mutation.expected(url), 'new');
    }
    const after = web.groundTruth({ maxDepth: null });
    for (const url of mutation.added) assert.ok(after.fetched.has(url), `${url} is reachable`);
    // every other page answers as before
    const untouched = [...truth.fetched].filter((url) => mutation.expected(url) === 'unchanged');
    assert.ok(untouched.length > 50);
    for (const url of untouched) assert.equal((await get(url)).etag, before.get(url)?.etag, url);
  } finally {
    await web.close();
  }
});
