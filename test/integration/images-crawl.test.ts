// Images shown with <img src>, through the HTTP API: a crawl whose documents.types has `image` fetches those
// in scope once each, hashes them and records the copy of one image's bytes under another URL DUPLICATE (the
// report's duplicates.images), without making them links or graph vertices; a crawl without `image` records
// them and requests none of them (the test web's log).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { build, crawlToEnd } from '../helper.js';
import { GALLERY_IMAGES, GALLERY_PAGES, IMAGE_COPIES } from '../support/testweb/features/images.js';
import { crawlRequestFor, startTestWeb, type TestWeb } from '../support/testweb/index.js';
import { ALL_FEATURES } from '../support/testweb/types.js';

interface PageItem {
  id: number;
  canonicalUrl: string;
  type: string;
  contentType: string | null;
  depth: number;
  duplicateOf: number | null;
  sha256: string | null;
}

let web: TestWeb;
let origin: string;
before(async () => {
  const onlyImages = Object.fromEntries(ALL_FEATURES.map((feature) => [feature, feature === 'images']));
  web = await startTestWeb({ seed: 5, hosts: 1, pagesPerHost: 3, features: onlyImages });
  origin = new URL(web.seeds[0]!).origin;
});
after(async () => {
  await web.close();
});

const get = (app: FastifyInstance, url: string) => app.inject({ method: 'GET', url });
/** GET requests the test web answered for `path`. */
const requestsOf = (path: string) =>
  web.log.filter((entry) => entry.method === 'GET' && entry.url === `${origin}${path}`).length;

async function crawl(app: FastifyInstance, extra: Record<string, unknown>) {
  const status = await crawlToEnd(app, crawlRequestFor(web, extra), { timeoutMs: 120_000 });
  const { id } = status;
  const listed = (await get(app, `/v1/crawls/${id}/pages?limit=200`)).json() as { items: PageItem[] };
  const report = (await get(app, `/v1/crawls/${id}/report`)).json() as {
    duplicates: { pages: number; documents: number; images: number | null; note: string };
    pages: { byType: Record<string, number> };
  };
  return { id, status, pages: listed.items, report };
}

test('with image among documents.types, shown images are fetched once, hashed, and a copy is a DUPLICATE', async (t) => {
  const { app } = await build(t);
  web.resetLog();
  const { id, status, pages, report } = await crawl(app, { documents: { types: ['pdf', 'image'] } });
  const page = (path: string) => {
    const found = pages.find((item) => item.canonicalUrl === `${origin}${path}`);
    assert.ok(found, `a page for ${path}`);
    return found;
  };

  for (const path of GALLERY_IMAGES) {
    assert.equal(requestsOf(path), 1, `${path} is requested once`);
    assert.match(page(path).sha256 ?? '', /^[0-9a-f]{64}$/, `${path} is hashed`);
    assert.equal(page(path).depth, page(GALLERY_PAGES[0].target).depth + 1, 'one step below its page');
  }
  assert.equal(page('/gallery/img/gull.jpg').type, 'BINARY', 'shown twice, one URL: fetched once, no copy');
  const [first, second] = IMAGE_COPIES.map(page);
  const copies = [first!, second!].sort((a, b) => a.type.localeCompare(b.type));
  assert.deepEqual(
    copies.map((item) => [item.type, item.duplicateOf]),
    [
      ['BINARY', null],
      ['DUPLICATE', copies[0]!.id],
    ],
    'whichever of the two URLs is fetched second is a copy of the first',
  );
  assert.equal(first!.sha256, second!.sha256);

  assert.equal(report.duplicates.images, 1);
  assert.match(report.duplicates.note, /image\/\*/);
  assert.equal(report.duplicates.documents, 0, 'images are not documents');
  assert.equal(report.duplicates.pages, report.pages.byType.DUPLICATE ?? 0);
  assert.ok(report.duplicates.pages >= 1, 'the copy is among the duplicate pages');
  assert.equal(status.documents, 0, 'the status counts no image as a document either');

  // an image is not a link: no outlink of the page showing it, no vertex of the link graph
  const shown = (await get(app, `/v1/crawls/${id}/pages/${page(GALLERY_PAGES[1].target).id}`)).json() as {
    outlinks: Array<{ url: string }>;
    images: Array<{ url: string }>;
  };
  assert.deepEqual(
    shown.images.map((image) => image.url).sort(),
    GALLERY_PAGES[1].images.map((path) => `${origin}${path}`).sort(),
  );
  assert.ok(
    !shown.outlinks.some((link) => link.url.includes('/gallery/img/')),
    JSON.stringify(shown.outlinks),
  );
  const graph = (await get(app, `/v1/crawls/${id}/graph?format=json`)).json() as {
    vertices: Array<{ url: string }>;
  };
  assert.ok(graph.vertices.length > 0);
  assert.ok(!graph.vertices.some((vertex) => vertex.url.includes('/gallery/img/')), 'no image vertex');
});

test('without image among documents.types, images are recorded and never requested', async (t) => {
  const { app } = await build(t);
  web.resetLog();
  const { status, pages, report } = await crawl(app, {});
  assert.ok((status.images as number) >= GALLERY_IMAGES.length, 'the images shown are recorded');
  for (const path of GALLERY_IMAGES) {
    assert.equal(requestsOf(path), 0, `${path} is not requested`);
    assert.ok(!pages.some((item) => item.canonicalUrl === `${origin}${path}`), `${path} is no page`);
  }
  assert.ok(
    pages.some((item) => item.canonicalUrl === `${origin}${GALLERY_PAGES[1].target}`),
    'the gallery was crawled',
  );
  assert.equal(report.duplicates.images, null);
  assert.match(report.duplicates.note, /without downloading them/);
});
