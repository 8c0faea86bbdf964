// The runner with a renderer (docs/reference.md#rendering), against the in-memory CrawlStore, a fake Fetcher
// and a fake renderer: what is parsed is the rendered DOM, every request of the page is asked of robots.txt
// and made through the crawl's fetcher, and a worker that cannot render fails the crawl once, at its start.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeRender } from '../../../src/crawler/crawl-request.js';
import { CrawlRunner } from '../../../src/crawler/engine/crawl-runner.js';
import type { CrawlSettings } from '../../../src/crawler/engine/ports.js';
import type { PageRenderer } from '../../../src/crawler/render/port.js';
import { testCrawlSettings } from '../../support/crawl-settings.js';
import { FakeFetcher, type FakeResponse } from '../../support/fake-fetcher.js';
import { FakeRenderer } from '../../support/fake-renderer.js';
import { MemoryCrawlStore } from '../../support/memory-crawl-store.js';

const ORIGIN = 'http://site.test';
const u = (path: string) => `${ORIGIN}${path}`;
const silent = { info() {}, warn() {}, error() {}, debug() {} };

function settingsFor(render: CrawlSettings['render']): CrawlSettings {
  return testCrawlSettings({ concurrency: 2, render });
}

async function crawl(
  routes: Record<string, FakeResponse>,
  render: CrawlSettings['render'],
  renderer?: PageRenderer,
) {
  const settings = settingsFor(render);
  const store = new MemoryCrawlStore();
  await store.createCrawl({ id: settings.crawlId, seeds: settings.seeds, maxPages: 100, slotsPerHost: 1 });
  const fetcher = new FakeFetcher(routes);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 20_000);
  const exit = await new CrawlRunner(settings, {
    workerId: 'w1',
    leaseSecs: 30,
    fetcher,
    store,
    log: silent,
    concurrency: 2,
    signal: controller.signal,
    ...(renderer ? { renderer } : {}),
  }).run();
  clearTimeout(timer);
  const pages = new Map(store.pages(settings.crawlId).map((page) => [page.url, page]));
  return { exit, fetcher, store, settings, pages };
}

const ROOT_PAGE =
  '<!doctype html><html><head><title>app</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>';
const ROUTES: Record<string, FakeResponse> = {
  [u('/robots.txt')]: { contentType: 'text/plain', body: 'User-agent: *\nDisallow: /private/\n' },
  [u('/')]: { body: ROOT_PAGE },
  [u('/app.js')]: { contentType: 'text/javascript', body: 'links("/built")' },
  [u('/private/data.json')]: { contentType: 'application/json', body: '{"secret":1}' },
  [u('/built')]: {
    body: '<!doctype html><html><head><title>built</title></head><body><p>reached</p></body></html>',
  },
};

const renderer = () =>
  new FakeRenderer({
    [u('/')]: {
      requests: [u('/app.js'), u('/private/data.json')],
      build: (document, answers) => {
        const script = answers.get(u('/app.js'));
        const link =
          script && !('refused' in script) ? /links\("([^"]+)"\)/.exec(script.body.toString())?.[1] : null;
        return document.replace('<div id="root"></div>', `<div id="root"><a href="${link}">built</a></div>`);
      },
    },
  });

test('render always: the rendered DOM is parsed, and the page records how it was read', async () => {
  const { exit, pages, fetcher } = await crawl(ROUTES, normalizeRender('always'), renderer());
  assert.equal(exit, 'finished');
  const home = pages.get(u('/'))!;
  const render = home.outcome!.render!;
  assert.equal(render.rendered, true);
  assert.equal(render.reason, 'always');
  assert.equal(render.renderMs, 7);
  assert.equal(home.outcome!.loadMs, render.fetchMs + 7);
  // the link the script built was followed
  assert.equal(pages.get(u('/built'))?.type, 'HTML');
  // the page's requests went through robots.txt and the crawl's fetcher: the disallowed one was never made
  assert.equal(fetcher.requested(u('/app.js')), 1);
  assert.equal(fetcher.requested(u('/private/data.json')), 0);
  assert.match(
    render.note ?? '',
    /1 request refused: http:\/\/site\.test\/private\/data\.json \(disallowed by robots\.txt\)/,
  );
  // the main document was fetched once, never by the renderer
  assert.equal(fetcher.requested(u('/')), 1);
});

test('without rendering the same crawl finds no built link; auto renders only what looks script-built', async () => {
  const plain = await crawl(ROUTES, normalizeRender('never'));
  assert.equal(plain.pages.has(u('/built')), false);
  assert.equal(plain.pages.get(u('/'))!.outcome!.render, undefined);

  const fake = renderer();
  const auto = await crawl(ROUTES, normalizeRender('auto'), fake);
  assert.equal(auto.pages.get(u('/'))!.outcome!.render!.reason, 'auto:app-root');
  const built = auto.pages.get(u('/built'))!.outcome!.render!;
  assert.deepEqual([built.rendered, built.reason, built.renderMs], [false, 'auto:static', null]);
  assert.deepEqual(
    fake.jobs.map((job) => job.url),
    [u('/')],
  );
});

test('a page that navigated itself away is recorded where it ended', async () => {
  const fake = new FakeRenderer({
    [u('/')]: {
      navigateTo: u('/landing'),
      build: () => '<html><body><a href="/after">after</a></body></html>',
    },
  });
  const { pages } = await crawl(ROUTES, normalizeRender('always'), fake);
  const home = pages.get(u('/'))!.outcome!;
  assert.equal(home.finalUrl, u('/landing'));
  assert.equal(home.render!.navigatedFrom, u('/'));
  assert.ok(pages.has(u('/after')), 'links read relative to where the page ended');
});

test('a worker that cannot render fails the crawl once, at its start, and fetches nothing', async () => {
  for (const unavailable of [undefined, new FakeRenderer({}, 'Chromium not found at /nowhere')]) {
    const { exit, store, settings, fetcher } = await crawl(ROUTES, normalizeRender('auto'), unavailable);
    assert.equal(exit, 'stopped');
    const row = store.crawl(settings.crawlId)!;
    assert.equal(row.status, 'failed');
    assert.match(row.error ?? '', /^render: /);
    assert.match(row.error ?? '', unavailable ? /Chromium not found/ : /no renderer/);
    assert.equal(fetcher.requests.length, 0);
  }
});

test("a crawl's pages share its cache of scripts: a bundle every page loads is fetched once", async () => {
  const fake = new FakeRenderer({
    [u('/')]: {
      requests: [u('/app.js')],
      build: (document) => document.replace('<div id="root"></div>', '<a href="/built">built</a>'),
    },
    [u('/built')]: { requests: [u('/app.js')], build: (document) => document },
  });
  const { fetcher, pages } = await crawl(ROUTES, normalizeRender('always'), fake);
  assert.equal(pages.get(u('/built'))?.outcome?.render?.rendered, true);
  assert.equal(fake.jobs.length, 2);
  assert.equal(fetcher.requested(u('/app.js')), 1);
});
