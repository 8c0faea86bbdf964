// The runner's decisions against the in-memory CrawlStore and a fake Fetcher: no database, no network.
// The memory store follows the SQL's rules (test/contract/crawl-store.contract.ts keeps it honest).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_DOCUMENT_TYPES } from '../../../src/crawler/crawl-request.js';
import { CrawlRunner, type RunnerExit } from '../../../src/crawler/engine/crawl-runner.js';
import type { CrawlSettings, DocumentTextReader, HtmlPageReader } from '../../../src/crawler/engine/ports.js';
import { extractMainText } from '../../../src/crawler/extract/index.js';
import { readPage } from '../../../src/crawler/extract/page-reading.js';
import { canonicalizeUrl } from '../../../src/crawler/frontier/canonicalize.js';
import { testCrawlSettings } from '../../support/crawl-settings.js';
import { FakeFetcher, type FakeResponse } from '../../support/fake-fetcher.js';
import { MemoryCrawlStore } from '../../support/memory-crawl-store.js';

const ORIGIN = 'http://site.test';
const u = (path: string) => `${ORIGIN}${path}`;
const silent = { info() {}, warn() {}, error() {}, debug() {} };

function html(links: string[], text = 'a page'): FakeResponse {
  const anchors = links.map((href) => `<a href="${href}">${href}</a>`).join(' ');
  return {
    body: `<!doctype html><html><head><title>${text}</title></head><body><p>${text}</p>${anchors}</body></html>`,
  };
}

const settingsFor = testCrawlSettings;

async function crawl(
  routes: Record<string, FakeResponse>,
  overrides: Partial<CrawlSettings> = {},
  store = new MemoryCrawlStore(),
  documentText?: DocumentTextReader,
  pageReader?: HtmlPageReader,
) {
  const settings = settingsFor(overrides);
  await store.createCrawl({
    id: settings.crawlId,
    seeds: settings.seeds,
    maxPages: settings.maxPages,
    slotsPerHost: settings.perHostConcurrency,
  });
  return {
    settings,
    store,
    ...runnerOn(settings, store, new FakeFetcher(routes), 'w1', documentText, pageReader),
  };
}

function runnerOn(
  settings: CrawlSettings,
  store: MemoryCrawlStore,
  fetcher: FakeFetcher,
  workerId = 'w1',
  documentText?: DocumentTextReader,
  pageReader?: HtmlPageReader,
) {
  const controller = new AbortController();
  const runner = new CrawlRunner(settings, {
    workerId,
    leaseSecs: 30,
    fetcher,
    store,
    log: silent,
    concurrency: settings.concurrency,
    signal: controller.signal,
    ...(documentText ? { documentText } : {}),
    ...(pageReader ? { pageReader } : {}),
  });
  return { fetcher, controller, run: () => bounded(runner.run(), controller) };
}

/**
 * Bounds a hang: the runner must end long before this (its work takes well under a second here). Past it,
 * the runner is shut down too, so a failing test cannot keep the file running.
 */
async function bounded(run: Promise<RunnerExit>, controller: AbortController): Promise<RunnerExit> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error('the runner did not end within 20 s'));
    }, 20_000);
  });
  try {
    return await Promise.race([run, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition never met');
    await sleep(5);
  }
}

function byUrl(store: MemoryCrawlStore, crawlId: string) {
  return new Map(store.pages(crawlId).map((page) => [page.url, page]));
}

test('claim loop: the runner crawls its frontier to the end and completes the crawl', async () => {
  const { settings, store, fetcher, run } = await crawl(
    {
      [u('/')]: html(['/a', '/b', 'http://elsewhere.test/x']),
      [u('/a')]: html(['/c', '/d', '/']),
      [u('/b')]: { contentType: 'application/pdf', body: '%PDF-1.4' },
      [u('/c')]: html([], 'same body'),
      [u('/d')]: html([], 'same body'),
    },
    { perHostConcurrency: 2 },
  );
  assert.equal(await run(), 'finished');
  assert.equal(store.crawl(settings.crawlId)?.status, 'completed');
  const pages = byUrl(store, settings.crawlId);
  assert.deepEqual(
    [...pages].map(([url, page]) => [url, page.type]),
    [
      [u('/'), 'HTML'],
      [u('/a'), 'HTML'],
      [u('/b'), 'BINARY'],
      [u('/c'), 'HTML'],
      [u('/d'), 'DUPLICATE'],
    ],
    'the other host is out of scope; /c and /d share a body',
  );
  assert.equal(pages.get(u('/d'))?.duplicateOf, pages.get(u('/c'))?.id);
  for (const path of ['/robots.txt', '/', '/a', '/b', '/c', '/d'])
    assert.equal(fetcher.requested(u(path)), 1, path);
  assert.equal(fetcher.requested('http://elsewhere.test/x'), 0);
  assert.ok(
    store.links.has(`${pages.get(u('/a'))?.id} ${pages.get(u('/'))?.id}`),
    'the link back is recorded',
  );
});

test('the page budget: maxPages pages are fetched, then the crawl completes', async () => {
  const { settings, store, fetcher, run } = await crawl(
    {
      [u('/')]: html(['/1', '/2', '/3']),
      [u('/1')]: html([], 'page 1'),
      [u('/2')]: html([], 'page 2'),
      [u('/3')]: html([], 'page 3'),
    },
    { maxPages: 2 },
  );
  assert.equal(await run(), 'finished');
  assert.equal(store.crawl(settings.crawlId)?.status, 'completed');
  const fetched = store.pages(settings.crawlId).filter((page) => page.type !== 'FRONTIER');
  assert.equal(fetched.length, 2);
  assert.equal(fetcher.requests.filter((r) => !r.url.endsWith('/robots.txt')).length, 2);
});

test('politeness: requests to one host are at least delayMs apart, robots.txt included', async () => {
  const delayMs = 150;
  const { settings, store, fetcher, run } = await crawl(
    {
      [u('/')]: html(['/1', '/2', '/3']),
      [u('/1')]: html([], 'page 1'),
      [u('/2')]: html([], 'page 2'),
      [u('/3')]: html([], 'page 3'),
    },
    { delayMs, concurrency: 4 },
  );
  assert.equal(await run(), 'finished');
  assert.equal(store.pages(settings.crawlId).filter((page) => page.type === 'HTML').length, 4);
  assert.equal(fetcher.requests.length, 5);
  for (let i = 1; i < fetcher.requests.length; i++) {
    const gap = fetcher.requests[i]!.atMs - fetcher.requests[i - 1]!.atMs;
    // timers never fire early; a millisecond of slack for Date.now() rounding
    assert.ok(gap >= delayMs - 1, `request ${i} came ${gap} ms after the one before`);
  }
});

test("politeness: robots.txt's Crawl-delay raises the delay, up to maxCrawlDelayMs", async () => {
  const { fetcher, run } = await crawl(
    {
      [u('/robots.txt')]: { contentType: 'text/plain', body: 'User-agent: *\nCrawl-delay: 5\n' },
      [u('/')]: html(['/1']),
      [u('/1')]: html([], 'page 1'),
    },
    { delayMs: 0, maxCrawlDelayMs: 200 },
  );
  assert.equal(await run(), 'finished');
  const [robots, root, first] = fetcher.requests;
  assert.ok(root!.atMs - robots!.atMs >= 199);
  assert.ok(first!.atMs - root!.atMs >= 199);
});

test('redirects: each hop is checked (dedup, robots.txt, scope) and waits its host’s delay', async () => {
  const delayMs = 100;
  const { settings, store, fetcher, run } = await crawl(
    {
      [u('/robots.txt')]: { contentType: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' },
      [u('/')]: { redirect: '/home' },
      [u('/home')]: html(['/b-again', '/c-blocked', '/d-out', '/home']),
      [u('/b-again')]: { redirect: '/home' },
      [u('/c-blocked')]: { redirect: '/private/x' },
      [u('/d-out')]: { redirect: 'http://elsewhere.test/' },
    },
    { delayMs },
  );
  assert.equal(await run(), 'finished');
  const pages = byUrl(store, settings.crawlId);
  const root = pages.get(u('/'))!;
  assert.equal(root.type, 'HTML');
  assert.equal(root.finalUrl, u('/home'));
  assert.deepEqual(root.outcome?.redirects, [{ url: u('/'), status: 301 }]);
  const home = pages.get(u('/home'))!;
  assert.deepEqual([home.type, home.duplicateOf], ['DUPLICATE', root.id], 'reserved by the redirect');
  const again = pages.get(u('/b-again'))!;
  assert.deepEqual([again.type, again.duplicateOf], ['DUPLICATE', home.id]);
  const blocked = pages.get(u('/c-blocked'))!;
  assert.equal(blocked.type, 'DISALLOWED');
  assert.equal(blocked.error, `redirect to a URL robots.txt disallows: ${u('/private/x')}`);
  const out = pages.get(u('/d-out'))!;
  assert.equal(out.type, 'INVALID');
  assert.match(out.error ?? '', /redirect leaves the crawl's scope/);
  assert.equal(fetcher.requested(u('/home')), 1, 'fetched once, as the hop of /');
  assert.equal(fetcher.requested(u('/private/x')), 0);
  assert.equal(fetcher.requested('http://elsewhere.test/'), 0);
  const at = (url: string) => fetcher.requests.find((r) => r.url === url)!.atMs;
  assert.ok(at(u('/home')) - at(u('/')) >= delayMs - 1, 'the hop waited the delay after the redirect');
});

test('redirects to another host lease a slot of that host and wait for its robots.txt', async () => {
  const other = 'http://other.test';
  const { settings, store, fetcher, run } = await crawl(
    {
      [u('/')]: { redirect: `${other}/landing` },
      [`${other}/robots.txt`]: { contentType: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
      [`${other}/landing`]: html([]),
    },
    { scope: { allowedDomains: ['site.test', 'other.test'] }, delayMs: 50 },
  );
  assert.equal(await run(), 'finished');
  const root = byUrl(store, settings.crawlId).get(u('/'))!;
  assert.deepEqual([root.type, root.finalUrl], ['HTML', `${other}/landing`]);
  assert.deepEqual(
    fetcher.requests.map((r) => r.url),
    [u('/robots.txt'), u('/'), `${other}/robots.txt`, `${other}/landing`],
  );
  const at = (url: string) => fetcher.requests.find((r) => r.url === url)!.atMs;
  assert.ok(at(`${other}/landing`) - at(`${other}/robots.txt`) >= 49);
  for (const page of store.pages(settings.crawlId)) {
    const site = store.site(page.siteId)!;
    assert.ok(
      site.slots.every((slot) => slot.leasedBy === null),
      `${site.origin}: every slot given back`,
    );
  }
});

test('cancellation: the runner stops claiming, aborts what is in flight and gives it back', async () => {
  const { settings, store, fetcher, run } = await crawl(
    {
      [u('/')]: html(['/1', '/2', '/3']),
      [u('/1')]: { hang: true },
      [u('/2')]: html([], 'page 2'),
      [u('/3')]: html([], 'page 3'),
    },
    { concurrency: 1 },
  );
  const running = run();
  await until(() => fetcher.requested(u('/1')) === 1);
  await store.cancel(settings.crawlId);
  assert.equal(await running, 'stopped');
  const pages = byUrl(store, settings.crawlId);
  assert.equal(pages.get(u('/1'))?.type, 'FRONTIER', 'the aborted page is not recorded as a failure');
  assert.equal(pages.get(u('/1'))?.leasedBy, null);
  assert.equal(
    fetcher.requested(u('/2')) + fetcher.requested(u('/3')),
    0,
    'nothing claimed after the cancel',
  );
  assert.equal(store.crawl(settings.crawlId)?.status, 'cancelled');
});

test('shutdown: the runner gives its leases back, and the next runner finishes the crawl', async () => {
  const routes = {
    [u('/')]: html(['/1', '/2']),
    [u('/1')]: html([], 'page 1'),
    [u('/2')]: html([], 'page 2'),
  };
  const { settings, store, fetcher, controller, run } = await crawl(
    { ...routes, [u('/1')]: { hang: true } },
    { concurrency: 2, perHostConcurrency: 2 },
  );
  const running = run();
  await until(() => fetcher.requested(u('/1')) === 1);
  controller.abort();
  assert.equal(await running, 'aborted');
  const pages = store.pages(settings.crawlId);
  assert.ok(
    pages.every((page) => page.leasedBy === null),
    'no page stays leased',
  );
  const site = store.site(pages[0]!.siteId)!;
  assert.ok(
    site.slots.every((slot) => slot.leasedBy === null),
    'no politeness slot stays leased',
  );
  assert.equal(byUrl(store, settings.crawlId).get(u('/1'))?.type, 'FRONTIER');

  const next = runnerOn(settings, store, new FakeFetcher(routes), 'w2');
  assert.equal(await next.run(), 'finished');
  const one = byUrl(store, settings.crawlId).get(u('/1'))!;
  assert.deepEqual([one.type, one.leaseExpiries], ['HTML', 0], 'taken back as given, not as a dead worker’s');
});

/** A store whose lease renewals fail while `down` (the database unreachable), counting both outcomes. */
class FlakyRenewals extends MemoryCrawlStore {
  down = false;
  failed = 0;
  renewed = 0;
  override async renewLeases(crawlId: string, workerId: string, pageIds: number[], leaseSecs: number) {
    if (this.down) {
      this.failed++;
      throw new Error('Connection terminated unexpectedly');
    }
    this.renewed++;
    return super.renewLeases(crawlId, workerId, pageIds, leaseSecs);
  }
}

test('a renewal that failed is tried again at once when the store answers, not an interval later', async (t) => {
  // Date is the test's: renewals fall due when it says so, whatever the machine's pace (timers stay real)
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  const store = new FlakyRenewals();
  const { controller, fetcher, run } = await crawl({ [u('/')]: { hang: true } }, {}, store);
  const running = run();
  await until(() => fetcher.requested(u('/')) === 1);
  // a third of the lease (30 s) passes with the database down: the renewal fails
  store.down = true;
  t.mock.timers.tick(10_500);
  await until(() => store.failed > 0);
  // it comes back: the next turn of the loop renews, though no further interval has passed
  store.down = false;
  await until(() => store.renewed > 0);
  controller.abort();
  assert.equal(await running, 'aborted');
});

test('a page whose leases ran out twice is recorded worker-lost, never fetched again', async () => {
  const store = new MemoryCrawlStore();
  const settings = settingsFor({ seeds: [u('/')] });
  await store.createCrawl({ id: settings.crawlId, seeds: settings.seeds, maxPages: 10 });
  await store.markRunning(settings.crawlId);
  // two workers died holding it: each lease runs out
  for (const worker of ['dead-1', 'dead-2']) {
    const claimed = await store.claim(settings.crawlId, worker, 1, 0.05);
    assert.equal(claimed.pages.length, 1);
    await sleep(80);
  }
  const { fetcher, run } = runnerOn(settings, store, new FakeFetcher({ [u('/')]: html([]) }));
  assert.equal(await run(), 'finished');
  const page = byUrl(store, settings.crawlId).get(u('/'))!;
  assert.deepEqual([page.type, page.error], ['INVALID', 'worker-lost']);
  assert.equal(fetcher.requested(u('/')), 0);
});

test('robots.txt: read once per origin, its group chosen by the product token of politeness.userAgent', async () => {
  const { settings, store, fetcher, run } = await crawl(
    {
      [u('/robots.txt')]: {
        contentType: 'text/plain',
        body: 'User-agent: trawl-test\nDisallow: /mine\n\nUser-agent: *\nDisallow: /theirs\n',
      },
      [u('/')]: html(['/mine', '/theirs', '/1']),
      [u('/1')]: html(['/mine'], 'page 1'),
      [u('/theirs')]: html([], 'theirs'),
    },
    { userAgent: 'trawl-test/1.0 (+https://example.test/bot)' },
  );
  assert.equal(await run(), 'finished');
  const pages = byUrl(store, settings.crawlId);
  assert.equal(pages.get(u('/mine'))?.type, 'DISALLOWED');
  assert.equal(pages.get(u('/theirs'))?.type, 'HTML', 'the * group is not ours');
  assert.equal(fetcher.requested(u('/mine')), 0);
  assert.equal(fetcher.requested(u('/robots.txt')), 1);
});

test('documents: downloaded and hashed (a copy is a DUPLICATE), read and scored; text/plain is a text page', async () => {
  const pdf = Buffer.from('%PDF-1.4 tennis');
  // reads "text" out of a fake document: what follows its first space
  const reader: DocumentTextReader = {
    reads: (dataType) => dataType === 'PDF',
    read: async (_type, body) => ({
      text: body.toString('latin1').split(' ').slice(1).join(' '),
      truncated: false,
    }),
  };
  const { settings, store, fetcher, run } = await crawl(
    {
      [u('/')]: html(['/notes.txt', '/a.pdf', '/b.pdf', '/old.doc', '/photo.png']),
      [u('/notes.txt')]: { contentType: 'text/plain', body: 'tennis rackets <a href="/x">not a link</a>' },
      [u('/a.pdf')]: { contentType: 'application/pdf', body: pdf },
      [u('/b.pdf')]: { contentType: 'application/pdf', body: Buffer.from(pdf) },
      [u('/old.doc')]: { contentType: 'application/msword', body: Buffer.from([0xd0, 0xcf, 0x11, 0xe0]) },
      [u('/photo.png')]: { contentType: 'image/png', body: Buffer.from([0x89, 0x50]) },
    },
    { relevance: { query: 'tennis', threshold: 0.1 } },
    new MemoryCrawlStore(),
    reader,
  );
  assert.equal(await run(), 'finished');
  const pages = byUrl(store, settings.crawlId);
  const notes = pages.get(u('/notes.txt'));
  assert.deepEqual([notes?.type, notes?.outcome?.contentType], ['HTML', 'text/plain']);
  assert.ok((notes?.score ?? 0) > 0, 'the text is scored');
  assert.equal(pages.has(u('/x')), false, 'a text page has no links');
  const first = pages.get(u('/a.pdf'));
  assert.deepEqual([first?.type, first?.outcome?.text], ['BINARY', 'tennis']);
  assert.ok((first?.score ?? 0) > 0 && first?.result, 'the document text is scored, and relevant');
  assert.match(first?.outcome?.sha256 ?? '', /^[0-9a-f]{64}$/);
  const copy = pages.get(u('/b.pdf'));
  assert.deepEqual([copy?.type, copy?.duplicateOf, copy?.outcome?.text], ['DUPLICATE', first?.id, null]);
  const doc = pages.get(u('/old.doc'));
  assert.deepEqual([doc?.type, doc?.outcome?.text, doc?.score], ['BINARY', null, null], 'no reader for .doc');
  assert.match(doc?.outcome?.sha256 ?? '', /^[0-9a-f]{64}$/, 'but it is hashed');
  const image = pages.get(u('/photo.png'));
  assert.deepEqual([image?.type, image?.outcome?.sha256], ['BINARY', null], 'images are not downloaded');
  assert.equal(fetcher.requested(u('/photo.png')), 1);
});

test("main text: each stored HTML page is read once for links and main text, by the crawl's method", async () => {
  const asked: string[] = [];
  const reader: HtmlPageReader = {
    read: async (page, pageUrl, { method, robotsToken, words }) => {
      asked.push(method);
      // a page the reader could not read: the crawl parses it, the text job reads its stored body later
      if (page.includes('costly')) return null;
      return readPage(page, pageUrl, { normalizeUrl: canonicalizeUrl, robotsToken, words }, method);
    },
  };
  const article = `<p>${'Tennis rackets are strung by hand in the workshop. '.repeat(8)}</p>`;
  const homePage = `<html><body><nav><a href="/heavy">menu</a> <a href="/notes.txt">notes</a></nav>${article}</body></html>`;
  const routes = {
    [u('/')]: { body: homePage },
    [u('/heavy')]: html(['/deeper'], 'costly'),
    [u('/deeper')]: html([], 'deeper'),
    [u('/notes.txt')]: { contentType: 'text/plain', body: '  plain\n\n words  ' },
  };
  const stored = await crawl(
    routes,
    { storeHtml: true, mainText: 'auto' },
    new MemoryCrawlStore(),
    undefined,
    reader,
  );
  assert.equal(await stored.run(), 'finished');
  const pages = byUrl(stored.store, stored.settings.crawlId);
  const home = pages.get(u('/'))?.outcome;
  assert.equal(home?.text, extractMainText(homePage, { method: 'auto' }));
  assert.match(home?.text ?? '', /^Tennis rackets/, 'the menu is not main text');
  assert.equal(pages.get(u('/heavy'))?.outcome?.text, null);
  assert.equal(pages.get(u('/deeper'))?.type, 'HTML', 'the links of a page the reader could not read');
  assert.equal(pages.get(u('/notes.txt'))?.outcome?.text, 'plain words');
  assert.deepEqual(asked, ['auto', 'auto', 'auto'], 'a text page is not sent to the reader');

  // a crawl that reads no main text (extract disabled, or no bodies kept) never asks
  asked.length = 0;
  const plain = await crawl(
    routes,
    { storeHtml: true, mainText: null },
    new MemoryCrawlStore(),
    undefined,
    reader,
  );
  assert.equal(await plain.run(), 'finished');
  assert.deepEqual(asked, []);
  assert.equal(byUrl(plain.store, plain.settings.crawlId).get(u('/'))?.outcome?.text, null);
});

test('images shown are fetched when documents.types has image: hashed, a copy DUPLICATE, never links', async () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  const routes: Record<string, FakeResponse> = {
    [u('/')]: {
      body: '<!doctype html><title>t</title><p>a page</p><a href="/b">b</a><img src="/a.png"><img src="/copy.png">',
    },
    [u('/b')]: html([]),
    [u('/a.png')]: { contentType: 'image/png', body: png },
    [u('/copy.png')]: { contentType: 'image/png', body: Buffer.from(png) },
  };
  const images = { fetch: true, types: [...DEFAULT_DOCUMENT_TYPES, 'image' as const], maxBytes: 1024 };
  const { settings, store, fetcher, run } = await crawl(routes, { documents: images });
  assert.equal(await run(), 'finished');
  const pages = byUrl(store, settings.crawlId);
  const original = pages.get(u('/a.png'));
  assert.equal(original?.type, 'BINARY');
  assert.match(original?.outcome?.sha256 ?? '', /^[0-9a-f]{64}$/);
  assert.deepEqual(
    [pages.get(u('/copy.png'))?.type, pages.get(u('/copy.png'))?.duplicateOf],
    ['DUPLICATE', original?.id],
  );
  assert.equal(fetcher.requested(u('/a.png')), 1);
  const home = pages.get(u('/'))!;
  assert.deepEqual(
    [...store.links.keys()].filter((key) => key.startsWith(`${home.id} `)),
    [`${home.id} ${pages.get(u('/b'))?.id}`],
    'the images are not links of the page',
  );

  const recorded = await crawl(routes);
  assert.equal(await recorded.run(), 'finished');
  assert.equal(recorded.fetcher.requested(u('/a.png')), 0, 'without image: recorded, not fetched');
  assert.equal(byUrl(recorded.store, recorded.settings.crawlId).has(u('/a.png')), false);

  const capped = await crawl(routes, {
    documents: images,
    strategy: 'topic',
    topics: ['page'],
    maxDiscovered: 10,
  });
  assert.equal(await capped.run(), 'finished');
  assert.equal(
    capped.fetcher.requested(u('/a.png')),
    0,
    "a graph capped by pages discovered: not the images'",
  );
});

test('documents: fetch false records them by type and size only, and text/plain as before', async () => {
  const pdf = Buffer.from('%PDF-1.4 x');
  const { settings, store, run } = await crawl(
    {
      [u('/')]: html(['/a.pdf', '/b.pdf', '/notes.txt']),
      [u('/notes.txt')]: { contentType: 'text/plain', body: 'words' },
      [u('/a.pdf')]: { contentType: 'application/pdf', body: pdf },
      [u('/b.pdf')]: { contentType: 'application/pdf', body: pdf },
    },
    { documents: { fetch: false, types: [...DEFAULT_DOCUMENT_TYPES], maxBytes: 1024 } },
  );
  assert.equal(await run(), 'finished');
  const pages = byUrl(store, settings.crawlId);
  assert.deepEqual(
    [u('/a.pdf'), u('/b.pdf'), u('/notes.txt')].map((url) => [
      pages.get(url)?.type,
      pages.get(url)?.outcome?.sha256 ?? null,
    ]),
    [
      ['BINARY', null],
      ['BINARY', null],
      ['BINARY', pages.get(u('/notes.txt'))?.outcome?.sha256 ?? null],
    ],
  );
});

test('a recrawl asks conditionally, keeps a 304 bodiless, and classifies every page', async () => {
  // the 304 page's body is not read: its links are the earlier visit's, queued as a fetched page's are, so
  // discovery goes on through it (/linked is known only from the earlier visit of /)
  const same = html(['/new'], 'same as before');
  const { settings, store, fetcher, run } = await crawl(
    {
      [u('/')]: { ...html(['/same', '/gone']), etag: '"v1"' },
      [u('/same')]: same,
      [u('/gone')]: { status: 404 },
      [u('/new')]: html([], 'new'),
      [u('/linked')]: html([], 'linked'),
    },
    { recrawlOf: 'earlier', seeds: [u('/')] },
  );
  // the earlier crawl's pages, as recrawl_enqueue.sql queues them: the seed and two pages it fetched
  await store.enqueue(
    settings.crawlId,
    null,
    ['/same', '/gone'].map((path) => ({ url: u(path), origin: ORIGIN, depth: 1, priority: 2, anchor: '' })),
    { slots: 1, maxDiscovered: null },
  );
  const ids = byUrl(store, settings.crawlId);
  const earlier = (id: number, path: string, sha256: string | null, etag: string | null) =>
    store.previousVisits.set(id, {
      pageId: 1000 + id,
      type: 'HTML',
      url: u(path),
      finalUrl: u(path),
      sha256,
      contentType: 'text/html',
      title: path,
      etag,
      lastModified: null,
    });
  earlier(ids.get(u('/'))!.id, '/', 'old-hash', '"v1"');
  earlier(
    ids.get(u('/same'))!.id,
    '/same',
    createHash('sha256')
      .update((same as { body: string }).body)
      .digest('hex'),
    null,
  );
  earlier(ids.get(u('/gone'))!.id, '/gone', 'gone-hash', null);
  store.previousLinksOf.set(ids.get(u('/'))!.id, [
    { url: u('/same'), anchor: 'same' },
    { url: u('/linked'), anchor: 'linked' },
  ]);
  assert.equal(await run(), 'finished');
  const pages = byUrl(store, settings.crawlId);
  const changeOf = (path: string) => store.changes.get(pages.get(u(path))!.id);
  assert.deepEqual(changeOf('/'), { change: 'unchanged', notModified: true });
  assert.deepEqual(changeOf('/same'), { change: 'unchanged', notModified: false });
  assert.deepEqual(changeOf('/gone'), { change: 'gone', notModified: false });
  assert.deepEqual(changeOf('/new'), { change: 'new', notModified: false });
  assert.deepEqual(changeOf('/linked'), { change: 'new', notModified: false }, 'found through the 304');
  const home = pages.get(u('/'))!;
  const linkedFrom = (from: string) =>
    [...store.links.keys()]
      .filter((key) => key.startsWith(`${pages.get(u(from))!.id} `))
      .map((key) => Number(key.split(' ')[1]))
      .sort((a, b) => a - b);
  assert.deepEqual(
    linkedFrom('/'),
    [pages.get(u('/same'))!.id, pages.get(u('/linked'))!.id].sort((a, b) => a - b),
    "a 304 page's links are the earlier visit's",
  );
  assert.equal(home.status, 304);
  assert.equal(home.type, 'HTML');
  assert.equal(home.outcome?.body, null, 'a 304 stores no body');
  assert.equal(home.outcome?.sha256, 'old-hash');
  const sent = (path: string) => fetcher.requests.find((request) => request.url === u(path))?.headers;
  assert.equal(sent('/')?.['if-none-match'], '"v1"');
  assert.equal(sent('/same')?.['if-none-match'], undefined, 'no validator, no condition');
  assert.deepEqual(sent('/new'), {}, 'a new page is asked plainly');
});

test("a recrawl compares a changed page's main text with the earlier one as it records it", async () => {
  const reader: HtmlPageReader = {
    read: async (page, pageUrl, { method, robotsToken, words }) =>
      readPage(page, pageUrl, { normalizeUrl: canonicalizeUrl, robotsToken, words }, method),
  };
  const routes = {
    [u('/')]: html(['/edited', '/dated', '/unread'], 'harbour ferry times'),
    [u('/edited')]: html([], 'the ferry now leaves at noon from the new quay'),
    [u('/dated')]: html([], 'visitors today 1234 at the maritime museum'),
    [u('/unread')]: html([], 'a page whose earlier text is not stored'),
  };
  const { settings, store, run } = await crawl(
    routes,
    { recrawlOf: 'earlier', seeds: [u('/')], storeHtml: true, mainText: 'auto' },
    new MemoryCrawlStore(),
    undefined,
    reader,
  );
  const textOf = (path: string) =>
    extractMainText((routes[u(path)] as { body: string }).body, { method: 'auto' });
  await store.enqueue(
    settings.crawlId,
    null,
    ['/edited', '/dated', '/unread'].map((path) => ({
      url: u(path),
      origin: ORIGIN,
      depth: 1,
      priority: 2,
      anchor: '',
    })),
    { slots: 1, maxDiscovered: null },
  );
  const ids = byUrl(store, settings.crawlId);
  for (const path of ['/', '/edited', '/dated', '/unread']) {
    const id = ids.get(u(path))!.id;
    store.previousVisits.set(id, {
      pageId: 1000 + id,
      type: 'HTML',
      url: u(path),
      finalUrl: u(path),
      sha256: 'an earlier body',
      contentType: 'text/html',
      title: path,
      etag: null,
      lastModified: null,
    });
  }
  store.earlierTexts.set(ids.get(u('/'))!.id, textOf('/'));
  store.earlierTexts.set(ids.get(u('/edited'))!.id, 'the ferry leaves at nine from the old quay');
  const datedBefore = textOf('/dated').replace('1234', '1187');
  assert.notEqual(datedBefore, textOf('/dated'));
  store.earlierTexts.set(ids.get(u('/dated'))!.id, datedBefore);
  assert.equal(await run(), 'finished');
  const changeOf = (path: string) => store.changes.get(ids.get(u(path))!.id);
  // the same words under another body (its links changed): changed, with no text change
  assert.deepEqual(changeOf('/'), {
    change: 'changed',
    notModified: false,
    text: { textChanged: false, similarity: 1 },
  });
  const edited = changeOf('/edited')!;
  assert.equal(edited.text?.textChanged, true);
  assert.ok(edited.text.similarity < 1 && edited.text.similarity > 0, JSON.stringify(edited));
  assert.deepEqual(changeOf('/dated')?.text, { textChanged: false, similarity: 1 }, 'digits alone');
  assert.deepEqual(
    changeOf('/unread'),
    { change: 'changed', notModified: false },
    'no earlier text: left to the text job',
  );
});

test('a crawl that recrawls nothing asks plainly and records no change', async () => {
  const { store, fetcher, run } = await crawl({
    [u('/')]: { ...html(['/a']), etag: '"v1"' },
    [u('/a')]: html([]),
  });
  assert.equal(await run(), 'finished');
  assert.equal(store.changes.size, 0);
  const conditional = fetcher.requests.filter(
    (request) => 'if-none-match' in request.headers || 'if-modified-since' in request.headers,
  );
  assert.deepEqual(conditional, []);
});
