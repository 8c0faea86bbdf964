// Nothing a page contains may lose the page or stall the crawl's statistics: NUL characters and lone
// surrogates in titles, anchors and main text, a 12 KB link and an 8 KB image URL (the test web's `hostile`
// pages), a page the database refuses while the crawl writes it, and one the crawl-text job cannot store.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../src/runtime.js';
import { build, crawlToEnd, eventually } from '../helper.js';
import {
  BENCHMARK_FEATURES,
  crawlRequestFor,
  loggedPageUrls,
  startTestWeb,
  type TestWeb,
} from '../support/testweb/index.js';

/** Raised by the triggers below: a fault no page or statistic may show. */
const FAULT = 'fault injected by the test';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({
    seed: 11,
    hosts: 1,
    pagesPerHost: 4,
    features: { ...BENCHMARK_FEATURES, robots: false, hostile: true, redirects: true },
  });
});
after(() => web.close());

interface PageItem {
  id: number;
  canonicalUrl: string;
  type: string;
  status: number | null;
  title: string | null;
  error: string | null;
}

async function get(app: FastifyInstance, url: string) {
  const response = await app.inject({ method: 'GET', url });
  assert.equal(response.statusCode, 200, `${url} → ${response.body}`);
  return response;
}

async function crawl(app: FastifyInstance): Promise<{ id: string; pages: Map<string, PageItem> }> {
  const { id } = await crawlToEnd(app, crawlRequestFor(web, { maxPages: 100, maxDepth: 3 }));
  const list = (await get(app, `/v1/crawls/${id}/pages?limit=200`)).json() as { items: PageItem[] };
  return { id, pages: new Map(list.items.map((page) => [new URL(page.canonicalUrl).pathname, page])) };
}

/** Polls the word statistics until they say complete (the text job is queued by asking). */
async function waitForWords(app: FastifyInstance, id: string) {
  return eventually(
    async () => {
      const response = await get(app, `/v1/crawls/${id}/stats/words?top=50`);
      const stats = response.json();
      if (!stats.complete) throw new Error(`still incomplete: ${response.body}`);
      return { stats, body: response.body };
    },
    { message: `the word stats of ${id} to be complete`, timeoutMs: 60_000, intervalMs: 100 },
  );
}

async function trigger(runtime: Runtime, name: string, on: string, when: string): Promise<void> {
  await runtime.db.pool.query(`
    CREATE OR REPLACE FUNCTION injected_fault() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION '${FAULT}'; END $$`);
  await runtime.db.pool.query(
    `CREATE TRIGGER ${name} BEFORE ${on} FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION injected_fault()`,
  );
}

test('pages with NUL, lone surrogates or over-long URLs are stored as HTML with their other links, and counted', async (t) => {
  const { app } = await build(t);
  web.resetLog();
  const { id, pages } = await crawl(app);

  const detail = async (path: string) => {
    const page = pages.get(path);
    assert.ok(page, `no page ${path} in ${[...pages.keys()].join(' ')}`);
    assert.equal(page.type, 'HTML', `${path}: ${page.type} ${page.error}`);
    assert.equal(page.error, null);
    return (await get(app, `/v1/crawls/${id}/pages/${page.id}?include=html,text`)).json();
  };
  const outlink = (page: { outlinks: Array<{ url: string; anchor: string }> }, path: string) =>
    page.outlinks.find((link) => new URL(link.url).pathname === path);

  // NUL: dropped from the title, the anchor and the main text; the body is stored as served
  const nul = await detail('/hostile/nul.html');
  assert.equal(nul.title, 'Null title');
  assert.equal(outlink(nul, '/hostile/after-nul.html')?.anchor, 'anchor with a  null');
  assert.match(nul.html, /\u0000/);
  assert.doesNotMatch(nul.text, /\u0000/);
  assert.match(nul.text, /Main text with nulls\./);
  assert.equal(pages.get('/hostile/after-nul.html')?.type, 'HTML');

  // lone surrogates (a UTF-16 page decoded as is) become U+FFFD
  const lone = await detail('/hostile/surrogates.html');
  assert.equal(lone.title, 'Lone \ufffd surrogate');
  assert.equal(outlink(lone, '/hostile/after-surrogates.html')?.anchor, 'anchor \ufffd lone');
  assert.match(lone.text, /Main \ufffd text\./);
  assert.equal(pages.get('/hostile/after-surrogates.html')?.type, 'HTML');

  // the 12 KB link and the 8 KB image are listed as skipped with the reason; the rest of the page is kept
  const long = await detail('/hostile/long-urls.html');
  assert.ok(outlink(long, '/hostile/after-long.html'), JSON.stringify(long.outlinks));
  assert.ok(outlink(long, '/'));
  assert.deepEqual(
    long.images.map((image: { url: string; alt: string }) => [new URL(image.url).pathname, image.alt]),
    [['/hostile/small.png', 'small']],
  );
  assert.deepEqual(
    long.skipped.map((entry: { kind: string; reason: string }) => [entry.kind, entry.reason]),
    [
      ['link', `URL of ${web.hosts[0]!.length + 12_021} bytes, over the 2048-byte limit`],
      ['image', `URL of ${web.hosts[0]!.length + 8_020} bytes, over the 2048-byte limit`],
    ],
  );
  assert.ok(long.skipped[0].url.startsWith(`${web.hosts[0]}/hostile/long.html?q=xxx`));
  assert.ok(long.skipped[0].url.length < 400);
  assert.equal(pages.get('/hostile/after-long.html')?.type, 'HTML');
  const redirect = pages.get('/hostile/long-redirect');
  assert.equal(redirect?.type, 'INVALID');
  assert.equal(redirect?.status, 301);
  assert.match(
    redirect?.error ?? '',
    /^redirect to a URL too long to crawl: URL of \d+ bytes, over the 2048-byte limit$/,
  );
  assert.ok(
    ![...loggedPageUrls(web)].some((url) => /\/hostile\/long\.(html|png)/.test(url)),
    'a long URL was requested',
  );

  // every HTML page's words are counted, the NUL page's included
  const { stats } = await waitForWords(app, id);
  const htmlPages = [...pages.values()].filter((page) => page.type === 'HTML').length;
  assert.equal(stats.htmlPages, htmlPages);
  assert.equal(stats.pagesCounted, htmlPages);
  assert.equal(stats.pagesFailed, 0);
  assert.deepEqual(stats.failedPages, []);
  const stored = (
    await get(app, `/v1/crawls/${id}/pages/${pages.get('/hostile/nul.html')!.id}?include=text`)
  ).json();
  assert.equal(stored.text, nul.text, 'the text the job stored is the one shown before');
});

test('a page the crawl-text job cannot read or store is recorded as not counted, and the rest are counted', async (t) => {
  const { app, runtime } = await build(t);
  const { id, pages } = await crawl(app);
  await waitForWords(app, id);
  const refused = pages.get('/hostile/nul.html')!.id;
  const unreadable = pages.get('/hostile/after-long.html')!.id;
  // counted again from scratch, now with a page the database refuses and a body stored as gzip (as rows written
  // before raw bodies are) that is not gzip. The faults go in before the reset: a crawl-text job queued by an
  // earlier read may already be on its way.
  await runtime.db.pool.query(
    `UPDATE page_contents SET html = NULL, html_gzip = '\\x00ff'::bytea WHERE page_id = $1`,
    [unreadable],
  );
  await trigger(
    runtime,
    'refuse_text',
    'UPDATE ON page_contents',
    `NEW.main_text IS NOT NULL AND NEW.page_id = ${refused}`,
  );
  await runtime.db.pool.query('UPDATE page_contents SET main_text = NULL, text_extracted_at = NULL');
  await runtime.db.pool.query('DELETE FROM crawl_word_stats');

  const { stats, body } = await waitForWords(app, id);
  const htmlPages = [...pages.values()].filter((page) => page.type === 'HTML').length;
  assert.equal(stats.htmlPages, htmlPages);
  assert.equal(stats.pagesCounted, htmlPages - 2);
  assert.equal(stats.pagesFailed, 2);
  assert.deepEqual(
    stats.failedPages,
    [
      { pageId: refused, error: 'internal' },
      { pageId: unreadable, error: 'unreadable body' },
    ].sort((a, b) => a.pageId - b.pageId),
  );
  assert.ok(!body.includes(FAULT), 'the database message is not shown');
  assert.ok(stats.totalWords > 0);
});

test('a page whose write or redirect keeps failing inside trawl is recorded with error "internal", and the crawl goes on', async (t) => {
  const { app, runtime } = await build(t);
  await trigger(
    runtime,
    'refuse_write',
    'UPDATE ON pages',
    `NEW.type = 'HTML' AND NEW.url LIKE '%/hostile/after-nul.html'`,
  );
  // the redirect target's reservation, asked for while the fetch is under way
  await trigger(
    runtime,
    'refuse_hop',
    'INSERT ON pages',
    `NEW.type = 'DUPLICATE' AND NEW.url LIKE '%/redirects/r301-target.html'`,
  );
  const { id, pages } = await crawl(app);
  const faulty = pages.get('/hostile/after-nul.html');
  assert.equal(faulty?.type, 'INVALID');
  assert.equal(faulty?.error, 'internal');
  const detail = (
    await get(
      app,
      `/v1/crawls/${faulty.id}/pages/${faulty.id}`.replace(`/crawls/${faulty.id}`, `/crawls/${id}`),
    )
  ).body;
  assert.ok(!detail.includes(FAULT), 'the database message is not shown');
  const hop = pages.get('/redirects/r301');
  assert.equal(hop?.type, 'INVALID');
  assert.equal(hop?.error, 'internal');
  assert.equal(pages.get('/hostile/nul.html')?.type, 'HTML');
  assert.equal(pages.get('/hostile/after-long.html')?.type, 'HTML');
  assert.equal(pages.get('/redirects/r302')?.type, 'HTML', 'the other redirects are followed');
});

test('a seed over the URL length limit once canonical is a 400 naming it, not a failed crawl', async (t) => {
  const { app } = await build(t, { worker: false });
  // 1,020 characters as given (the schema allows 2,048), over 3,000 bytes once ' is percent-encoded
  const seed = `https://example.org/?q=${"'".repeat(1000)}`;
  const response = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { seeds: ['https://example.org/', seed] },
  });
  assert.equal(response.statusCode, 400, response.body);
  const problem = response.json();
  assert.equal(problem.field, 'seeds[1]');
  assert.match(problem.detail, /over the 2048-byte limit/);
});
