// One suite of CrawlStore behaviours, run against every store: test/unit/engine/memory-store.test.ts runs it
// on the memory double, test/integration/crawl-store-contract.test.ts on PostgreSQL. The runner's unit
// tests lean on the double, so whatever the claim, lease, politeness and cap rules become in SQL, this
// suite fails until the double follows. (Not a *.test.ts file: it only runs through those two.)
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CrawlStore, DiscoveredUrl } from '../../src/crawler/engine/ports.js';
import { htmlPageOutcome } from '../support/page-outcome.js';

export interface StoreHarness {
  store: CrawlStore;
  /** A queued crawl (as POST /v1/crawls makes it) with its seeds in the frontier; returns its id. */
  createCrawl(crawl: {
    seeds: string[];
    maxPages: number;
    maxResults?: number | null;
    slotsPerHost?: number;
  }): Promise<string>;
  /** Cancels the crawl as the API does. */
  cancel(crawlId: string): Promise<void>;
  /** The crawl's pages in id order, with the text read from a document (null: none). */
  pages(
    crawlId: string,
  ): Promise<Array<{ id: number; url: string; type: string; result: boolean; text: string | null }>>;
  /** The crawl's links as [from URL, to URL], sorted. */
  links(crawlId: string): Promise<Array<[string, string]>>;
}

const ORIGIN = 'http://site.test';
const W1 = 'worker-1';
const W2 = 'worker-2';

function link(path: string, fields: Partial<DiscoveredUrl> = {}): DiscoveredUrl {
  return { url: `${ORIGIN}${path}`, origin: ORIGIN, depth: 1, priority: 0, anchor: '', ...fields };
}

const outcome = htmlPageOutcome;

/** A running crawl on one host whose robots.txt is known (every politeness slot usable). */
async function runningCrawl(
  h: StoreHarness,
  crawl: { seeds?: string[]; maxPages?: number; maxResults?: number | null; slotsPerHost?: number } = {},
) {
  const slots = crawl.slotsPerHost ?? 1;
  const crawlId = await h.createCrawl({
    seeds: crawl.seeds ?? [`${ORIGIN}/`],
    maxPages: crawl.maxPages ?? 100,
    maxResults: crawl.maxResults ?? null,
    slotsPerHost: slots,
  });
  await h.store.markRunning(crawlId);
  const siteId = (await h.store.ensureSites(crawlId, [ORIGIN], slots)).get(ORIGIN)!;
  await h.store.saveRobots(siteId, { status: 404, body: null, error: null, fetchedAt: new Date() }, null, []);
  return { crawlId, siteId };
}

const frontier = (slots: number, maxDiscovered: number | null = null, raiseOnRediscovery = false) => ({
  slots,
  maxDiscovered,
  raiseOnRediscovery,
});

export function crawlStoreContract(open: (t: TestContext) => Promise<StoreHarness>): void {
  test('claim: best priority first, then first queued, one page per free politeness slot', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h, { seeds: [], slotsPerHost: 4 });
    // one batch goes in in URL order, so queue order is a, b, c, d, e
    await h.store.enqueue(
      crawlId,
      null,
      [
        link('/e', { priority: 1 }),
        link('/d', { priority: 0.2 }),
        link('/c', { priority: 0.5 }),
        link('/b', { priority: 1 }),
        link('/a', { priority: 0.5 }),
      ],
      frontier(4),
    );
    const claim = await h.store.claim(crawlId, W1, 10, 30);
    assert.equal(claim.crawlStatus, 'running');
    assert.deepEqual(
      claim.pages.map((p) => p.url),
      ['/b', '/e', '/a', '/c'].map((p) => `${ORIGIN}${p}`),
    );
    assert.deepEqual(claim.pages.map((p) => p.slot).sort(), [0, 1, 2, 3]);
    assert.ok(claim.pages.every((p) => p.attempts === 1 && !p.suspect && p.leaseExpiries === 0));
    const next = await h.store.claim(crawlId, W2, 10, 30);
    assert.deepEqual(next.pages, [], 'every slot is leased');
    assert.equal(next.finished, false, 'pages in flight: not finished');
  });

  test('claim: until robots.txt of a host is known, only its slot 0 is used', async (t) => {
    const h = await open(t);
    const crawlId = await h.createCrawl({ seeds: [`${ORIGIN}/`], maxPages: 10, slotsPerHost: 3 });
    await h.store.markRunning(crawlId);
    await h.store.enqueue(crawlId, null, [link('/x'), link('/y')], frontier(3));
    const claim = await h.store.claim(crawlId, W1, 10, 30);
    assert.equal(claim.pages.length, 1);
    assert.equal(claim.pages[0]!.slot, 0);
  });

  test('claim: a crawl not running leases nothing and reports its status', async (t) => {
    const h = await open(t);
    const crawlId = await h.createCrawl({ seeds: [`${ORIGIN}/`], maxPages: 10 });
    const queued = await h.store.claim(crawlId, W1, 5, 30);
    assert.equal(queued.crawlStatus, 'queued');
    assert.deepEqual(queued.pages, []);
    await h.store.markRunning(crawlId);
    await h.cancel(crawlId);
    const cancelled = await h.store.claim(crawlId, W1, 5, 30);
    assert.equal(cancelled.crawlStatus, 'cancelled');
    assert.deepEqual(cancelled.pages, []);
    await h.store.markRunning(crawlId);
    assert.equal((await h.store.claim(crawlId, W1, 5, 30)).crawlStatus, 'cancelled', 'stays cancelled');
  });

  test('politeness: a freed slot waits its delay; the claim says how long', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h, { seeds: [`${ORIGIN}/1`, `${ORIGIN}/2`] });
    const [first] = (await h.store.claim(crawlId, W1, 5, 30)).pages;
    assert.ok(first);
    await h.store.requestDone(crawlId, first, 400, null);
    await h.store.completePage(crawlId, first, outcome(), frontier(1));
    const early = await h.store.claim(crawlId, W1, 5, 30);
    assert.deepEqual(early.pages, []);
    assert.equal(early.finished, false);
    assert.ok(
      early.retryInMs !== null && early.retryInMs > 0 && early.retryInMs <= 400,
      `${early.retryInMs}`,
    );
    await sleep(early.retryInMs + 50);
    const later = await h.store.claim(crawlId, W1, 5, 30);
    assert.deepEqual(
      later.pages.map((p) => p.url),
      [`${ORIGIN}/2`],
    );
  });

  test('host slots: a redirect hop leases a free slot, or learns when one frees up', async (t) => {
    const h = await open(t);
    const { crawlId, siteId } = await runningCrawl(h, { seeds: [`${ORIGIN}/`], slotsPerHost: 1 });
    const [page] = (await h.store.claim(crawlId, W1, 5, 30)).pages;
    assert.ok(page);
    const busy = await h.store.leaseHostSlot(siteId, W2, 30);
    assert.deepEqual(busy, { slot: null, retryInMs: null }, 'the only slot is leased');
    await h.store.releaseHostSlot(siteId, page.slot, 300);
    const waiting = await h.store.leaseHostSlot(siteId, W2, 30);
    assert.equal(waiting.slot, null);
    assert.ok('retryInMs' in waiting && waiting.retryInMs !== null && waiting.retryInMs > 0);
    await sleep(350);
    assert.deepEqual(await h.store.leaseHostSlot(siteId, W2, 30), { slot: 0 });
  });

  test('page budget: maxPages pages are claimed; a page never requested gives its share back', async (t) => {
    const h = await open(t);
    const seeds = ['/1', '/2', '/3'].map((p) => `${ORIGIN}${p}`);
    const { crawlId } = await runningCrawl(h, { seeds, maxPages: 2, slotsPerHost: 3 });
    const claim = await h.store.claim(crawlId, W1, 10, 30);
    assert.equal(claim.pages.length, 2);
    const [a, b] = claim.pages;
    await h.store.requestDone(crawlId, a!, 0, null);
    await h.store.completePage(crawlId, a!, outcome(), frontier(3));
    assert.deepEqual((await h.store.claim(crawlId, W1, 10, 30)).pages, [], 'budget spent');
    await h.store.requestDone(crawlId, b!, 0, null);
    await h.store.completePage(
      crawlId,
      b!,
      outcome({ type: 'DISALLOWED', status: null, requested: false }),
      frontier(3),
    );
    const third = await h.store.claim(crawlId, W1, 10, 30);
    assert.deepEqual(
      third.pages.map((p) => p.url),
      [`${ORIGIN}/3`],
    );
    await h.store.requestDone(crawlId, third.pages[0]!, 0, null);
    await h.store.completePage(crawlId, third.pages[0]!, outcome(), frontier(3));
    const done = await h.store.claim(crawlId, W1, 10, 30, true);
    assert.equal(done.finished, true);
  });

  test('finished: the budget spent and nothing in flight ends a crawl with pages still waiting', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h, { seeds: [`${ORIGIN}/1`, `${ORIGIN}/2`], maxPages: 1 });
    const [page] = (await h.store.claim(crawlId, W1, 10, 30)).pages;
    assert.equal((await h.store.claim(crawlId, W2, 10, 30, true)).finished, false, 'one page in flight');
    await h.store.requestDone(crawlId, page!, 0, null);
    await h.store.completePage(crawlId, page!, outcome(), frontier(1));
    assert.equal((await h.store.claim(crawlId, W2, 10, 30, false)).finished, false, 'not asked');
    assert.equal((await h.store.claim(crawlId, W2, 10, 30, true)).finished, true);
  });

  test('leases: one that runs out makes its page a suspect, retaken alone and outside the budget', async (t) => {
    const h = await open(t);
    const seeds = ['/1', '/2'].map((p) => `${ORIGIN}${p}`);
    const { crawlId } = await runningCrawl(h, { seeds, maxPages: 1, slotsPerHost: 2 });
    const [page] = (await h.store.claim(crawlId, W1, 10, 0.2)).pages;
    assert.ok(page);
    await sleep(300);
    const retaken = await h.store.claim(crawlId, W2, 10, 30);
    assert.equal(retaken.pages.length, 1, 'a suspect comes alone');
    const [suspect] = retaken.pages;
    assert.equal(suspect!.id, page.id);
    assert.equal(suspect!.suspect, true);
    assert.equal(suspect!.leaseExpiries, 1);
    assert.equal(suspect!.attempts, 2);
    await h.store.requestDone(crawlId, suspect!, 0, null);
    await h.store.completePage(crawlId, suspect!, outcome(), frontier(2));
    assert.deepEqual((await h.store.claim(crawlId, W2, 10, 30)).pages, [], 'it was counted once');
  });

  test('leases: renewed ones are not retaken; released ones come back unsuspected', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h, { seeds: [`${ORIGIN}/`] });
    const [page] = (await h.store.claim(crawlId, W1, 10, 0.4)).pages;
    assert.ok(page);
    await h.store.renewLeases(crawlId, W2, [page.id], 30);
    await h.store.renewLeases(crawlId, W1, [page.id], 30);
    await sleep(500);
    const held = await h.store.claim(crawlId, W2, 10, 30, true);
    assert.deepEqual(held.pages, [], 'its lease (and its slot) were renewed by the worker holding it');
    assert.equal(held.finished, false);
    await h.store.releasePage(crawlId, W2, page);
    assert.deepEqual((await h.store.claim(crawlId, W2, 10, 30)).pages, [], 'only its holder gives it back');
    await h.store.releaseLeases(crawlId, W1);
    const again = await h.store.claim(crawlId, W2, 10, 30);
    assert.deepEqual(
      again.pages.map((p) => [p.id, p.suspect, p.attempts]),
      [[page.id, false, 2]],
    );
  });

  test('frontier: a URL enters once (the closed set); a disallowed one is recorded, never queued', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h, { seeds: [`${ORIGIN}/`] });
    const refused = await h.store.enqueue(
      crawlId,
      null,
      [link('/a'), link('/no', { disallowed: 'disallowed by robots.txt' })],
      frontier(1),
    );
    assert.deepEqual(
      refused.map((r) => [r.url, r.error]),
      [[`${ORIGIN}/no`, 'disallowed by robots.txt']],
    );
    assert.deepEqual(
      await h.store.enqueue(crawlId, null, [link('/a', { priority: 9 }), link('/')], frontier(1)),
      [],
    );
    const pages = await h.pages(crawlId);
    assert.deepEqual(
      pages.map((p) => [p.url, p.type]),
      [
        [`${ORIGIN}/`, 'FRONTIER'],
        [`${ORIGIN}/a`, 'FRONTIER'],
        [`${ORIGIN}/no`, 'DISALLOWED'],
      ],
    );
    const [first] = (await h.store.claim(crawlId, W1, 1, 30)).pages;
    assert.equal(first!.url, `${ORIGIN}/`, '/a kept its first priority');
  });

  /**
   * A crawl whose seed / was fetched and linked /p (1), /a (0.2), /b and /c (0.5); /p is leased next. Five
   * slots: the two pages fetched keep theirs, three are left for the rest.
   */
  async function seedFetched(h: StoreHarness, limits: ReturnType<typeof frontier>) {
    const { crawlId } = await runningCrawl(h, { seeds: [`${ORIGIN}/`], slotsPerHost: 5 });
    const [seed] = (await h.store.claim(crawlId, W1, 1, 30)).pages;
    assert.equal(seed!.url, `${ORIGIN}/`);
    const found = [
      link('/p', { priority: 1 }),
      link('/a', { priority: 0.2 }),
      link('/b', { priority: 0.5 }),
      link('/c', { priority: 0.5 }),
    ];
    await h.store.completePage(crawlId, seed!, outcome({ links: found }), limits);
    const [p] = (await h.store.claim(crawlId, W1, 1, 30)).pages;
    assert.equal(p!.url, `${ORIGIN}/p`);
    return { crawlId, p: p! };
  }

  /** /p links the fetched seed (1), /a (0.5: higher), /b (0.3: lower) and /c (0.5: equal), all known already. */
  const rediscovered = [
    link('/', { priority: 1, known: true }),
    link('/a', { priority: 0.5, known: true }),
    link('/b', { priority: 0.3, known: true }),
    link('/c', { priority: 0.5, known: true }),
  ];

  test('frontier: raiseOnRediscovery gives a waiting URL a higher weight, keeping its place; nothing else', async (t) => {
    const h = await open(t);
    const raising = frontier(5, null, true);
    const { crawlId, p } = await seedFetched(h, raising);
    await h.store.completePage(crawlId, p, outcome({ links: rediscovered }), raising);
    assert.deepEqual(
      (await h.pages(crawlId)).map((page) => [page.url, page.type]),
      [
        [`${ORIGIN}/`, 'HTML'],
        [`${ORIGIN}/a`, 'FRONTIER'],
        [`${ORIGIN}/b`, 'FRONTIER'],
        [`${ORIGIN}/c`, 'FRONTIER'],
        [`${ORIGIN}/p`, 'HTML'],
      ],
      'nothing is queued twice, and the fetched seed stays fetched',
    );
    // /a rose to 0.5 and was queued before /b and /c; /b keeps 0.5 (not lowered to 0.3)
    assert.deepEqual(
      (await h.store.claim(crawlId, W1, 10, 30)).pages.map((page) => page.url),
      ['/a', '/b', '/c'].map((path) => `${ORIGIN}${path}`),
    );
  });

  test('frontier: without raiseOnRediscovery a waiting URL keeps its first weight', async (t) => {
    const h = await open(t);
    const { crawlId, p } = await seedFetched(h, frontier(5));
    await h.store.completePage(crawlId, p, outcome({ links: rediscovered }), frontier(5));
    await h.store.enqueue(crawlId, null, [link('/a', { priority: 1 })], frontier(5));
    assert.deepEqual(
      (await h.store.claim(crawlId, W1, 10, 30)).pages.map((page) => page.url),
      ['/b', '/c', '/a'].map((path) => `${ORIGIN}${path}`),
      '/a kept 0.2',
    );
  });

  test('frontier: maxDiscovered caps the pages a crawl holds, in document order; refusals do not count', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h, { seeds: [`${ORIGIN}/`] });
    await h.store.enqueue(
      crawlId,
      null,
      [link('/z'), link('/no', { disallowed: 'disallowed by robots.txt' }), link('/y'), link('/x')],
      frontier(1, 3),
    );
    assert.deepEqual(
      (await h.pages(crawlId)).map((p) => p.url),
      ['/', '/z', '/no', '/y'].map((p) => `${ORIGIN}${p}`),
    );
    await h.store.enqueue(crawlId, null, [link('/w')], frontier(1, 3));
    assert.equal((await h.pages(crawlId)).length, 4, 'full');
  });

  test('images to fetch are queued with the links (known ones skipped) but never recorded as links', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h, {
      seeds: [`${ORIGIN}/`, `${ORIGIN}/old.png`],
      slotsPerHost: 2,
    });
    const [home] = (await h.store.claim(crawlId, W1, 1, 30)).pages;
    await h.store.completePage(
      crawlId,
      home!,
      outcome({
        links: [link('/a')],
        images: [{ url: `${ORIGIN}/i.png`, alt: '' }],
        queuedImages: [link('/i.png'), link('/old.png', { known: true })],
      }),
      frontier(2),
    );
    assert.deepEqual(
      (await h.pages(crawlId)).map((p) => [p.url, p.type]),
      [
        [`${ORIGIN}/`, 'HTML'],
        [`${ORIGIN}/old.png`, 'FRONTIER'],
        [`${ORIGIN}/a`, 'FRONTIER'],
        [`${ORIGIN}/i.png`, 'FRONTIER'],
      ],
    );
    assert.deepEqual(await h.links(crawlId), [[`${ORIGIN}/`, `${ORIGIN}/a`]]);
  });

  test('duplicates: the first page with a body holds its hash; later ones are told its id', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h, { seeds: [`${ORIGIN}/1`, `${ORIGIN}/2`], slotsPerHost: 2 });
    const [a, b] = (await h.store.claim(crawlId, W1, 10, 30)).pages;
    const sha = 'a'.repeat(64);
    assert.equal(await h.store.requestDone(crawlId, a!, 0, sha), null);
    assert.equal(await h.store.requestDone(crawlId, b!, 0, sha), a!.id);
    assert.equal(await h.store.requestDone(crawlId, a!, 0, sha), null, 'its own hash');
  });

  test('documents: a read document keeps its text and score, and counts as a result when relevant', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h, {
      seeds: [`${ORIGIN}/a.pdf`, `${ORIGIN}/b.doc`],
      slotsPerHost: 2,
    });
    const [a, b] = (await h.store.claim(crawlId, W1, 10, 30)).pages;
    const document = { dataType: 'PDF', contentType: 'application/pdf', bytes: 10 };
    await h.store.requestDone(crawlId, a!, 0, 'b'.repeat(64));
    await h.store.completePage(
      crawlId,
      a!,
      outcome({ type: 'BINARY', document, text: 'tennis\u0000 rackets', score: 0.8, relevant: true }),
      frontier(2),
    );
    await h.store.requestDone(crawlId, b!, 0, 'c'.repeat(64));
    await h.store.completePage(crawlId, b!, outcome({ type: 'BINARY', document: null }), frontier(2));
    const pages = await h.pages(crawlId);
    assert.deepEqual(
      pages.map((p) => [p.type, p.result, p.text === null ? null : p.text.replace('\u0000', '')]),
      [
        ['BINARY', true, 'tennis rackets'],
        ['BINARY', false, null],
      ],
    );
  });

  test('maxResults: results count in recording order; reaching it leaves no budget', async (t) => {
    const h = await open(t);
    const seeds = ['/1', '/2', '/3'].map((p) => `${ORIGIN}${p}`);
    const { crawlId } = await runningCrawl(h, { seeds, maxResults: 1, slotsPerHost: 2 });
    const [a, b] = (await h.store.claim(crawlId, W1, 2, 30)).pages;
    for (const page of [b!, a!]) {
      await h.store.requestDone(crawlId, page, 0, null);
      await h.store.completePage(crawlId, page, outcome({ score: 0.9, relevant: true }), frontier(2));
    }
    const pages = await h.pages(crawlId);
    assert.deepEqual(
      pages.filter((p) => p.result).map((p) => p.id),
      [b!.id],
    );
    const after = await h.store.claim(crawlId, W1, 2, 30, true);
    assert.deepEqual(after.pages, []);
    assert.equal(after.finished, true);
  });

  test('redirects: a target is reserved once; a waiting page is taken over; a fetched one is named', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h, { seeds: [`${ORIGIN}/`], slotsPerHost: 2 });
    await h.store.enqueue(crawlId, null, [link('/waiting')], frontier(2));
    const [page] = (await h.store.claim(crawlId, W1, 1, 30)).pages;
    assert.equal(page!.url, `${ORIGIN}/`);
    const hop = (path: string, origin = ORIGIN) =>
      h.store.reserveRedirectTarget(crawlId, page!.id, { url: `${origin}${path}`, origin, depth: 0 }, 2);
    assert.deepEqual(await hop('/new'), { reserved: true });
    assert.deepEqual(await hop('/waiting'), { reserved: true });
    assert.deepEqual(await hop('/', ORIGIN), { reserved: false, existingPageId: page!.id });
    assert.deepEqual(await hop('/other', 'http://other.test'), { reserved: true });
    const newPage = (await h.pages(crawlId)).find((p) => p.url === `${ORIGIN}/new`)!;
    assert.deepEqual(await hop('/new'), { reserved: false, existingPageId: newPage.id });
    const types = new Map((await h.pages(crawlId)).map((p) => [p.url, p.type]));
    assert.equal(types.get(`${ORIGIN}/waiting`), 'DUPLICATE');
    assert.equal(types.get(`${ORIGIN}/new`), 'DUPLICATE');
    assert.deepEqual(
      (await h.store.claim(crawlId, W1, 5, 30, true)).pages,
      [],
      'a taken-over page is never claimed',
    );
  });

  test('seedReport: the seeds’ pages as they stand, and whether any page got a response', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h, { seeds: [`${ORIGIN}/`, `${ORIGIN}/b`], slotsPerHost: 2 });
    const seeds = [`${ORIGIN}/`, `${ORIGIN}/b`];
    const before = await h.store.seedReport(crawlId, seeds);
    assert.equal(before.anyResponse, false);
    assert.deepEqual(before.seeds.map((seed) => [seed.url, seed.type, seed.status]).sort(), [
      [`${ORIGIN}/`, 'FRONTIER', null],
      [`${ORIGIN}/b`, 'FRONTIER', null],
    ]);
    const { pages } = await h.store.claim(crawlId, W1, 2, 30);
    const home = pages.find((page) => page.url === `${ORIGIN}/`)!;
    const other = pages.find((page) => page.url === `${ORIGIN}/b`)!;
    const refused = 'blocked-address: site.test is in a refused range (loopback)';
    await h.store.completePage(
      crawlId,
      home,
      outcome({ type: 'INVALID', status: null, error: refused, requested: false, links: [link('/c')] }),
      frontier(2),
    );
    const refusedOnly = await h.store.seedReport(crawlId, seeds);
    assert.equal(refusedOnly.anyResponse, false);
    assert.deepEqual(
      refusedOnly.seeds.find((seed) => seed.url === `${ORIGIN}/`),
      { url: `${ORIGIN}/`, type: 'INVALID', status: null, error: refused },
    );
    await h.store.completePage(crawlId, other, outcome(), frontier(2));
    const answered = await h.store.seedReport(crawlId, seeds);
    assert.equal(answered.anyResponse, true);
    assert.equal(answered.seeds.length, 2, 'discovered pages are not seeds');
  });

  test('finishCrawl ends a running crawl once', async (t) => {
    const h = await open(t);
    const { crawlId } = await runningCrawl(h);
    await h.store.finishCrawl(crawlId, 'completed', null);
    await h.store.finishCrawl(crawlId, 'failed', 'late');
    await h.store.markRunning(crawlId);
    assert.equal((await h.store.claim(crawlId, W1, 1, 30)).crawlStatus, 'completed');
  });
}
