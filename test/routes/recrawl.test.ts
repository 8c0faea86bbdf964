// Recrawls (docs/guide.md#recrawls-what-changed): POST /v1/crawls with recrawl.of revisits the earlier crawl's pages with
// conditional requests, and every page gets a change class. A small site of its own, changed between the two
// crawls, holds one page for each case: a 304 by ETag and by Last-Modified, a server that ignores conditional
// headers (200, the same body: unchanged by hash), an edited article, a page whose only edit is a number,
// pages now 404, 410 and redirected away, and a page added.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { WARCParser } from 'warcio';
import { allPages, build, crawlToEnd, startCrawl, textJobDone } from '../helper.js';
import { eventually } from '../support/eventually.js';

type Answer =
  | { status: 200; body: string; etag?: string; lastModified?: string; ignoresConditions?: boolean }
  | { status: 301; location: string }
  | { status: 404 | 410 };

const LAST_MODIFIED = 'Tue, 03 Nov 2026 10:00:00 GMT';

function article(title: string, text: string, links: string[] = []): string {
  const anchors = links.map((href) => `<a href="${href}">${href}</a>`).join(' ');
  return `<!doctype html><html><head><title>${title}</title></head><body><nav>${anchors}</nav><article><h1>${title}</h1><p>${text}</p></article></body></html>`;
}

const HOME_LINKS = ['/etag', '/dated', '/ignores', '/edited', '/counter', '/removed', '/deleted', '/moved'];

/** The site as the first crawl sees it. */
function firstSite(): Map<string, Answer> {
  return new Map<string, Answer>([
    [
      '/',
      {
        status: 200,
        body: article('Harbour news', 'All the news of the harbour.', HOME_LINKS),
        etag: '"home-1"',
      },
    ],
    [
      '/etag',
      {
        status: 200,
        body: article('Tides', 'The tide turns twice a day at the harbour mouth.'),
        etag: '"tides-1"',
      },
    ],
    [
      '/dated',
      {
        status: 200,
        body: article('Lighthouse', 'The lighthouse keeper trims the lamp every evening.'),
        lastModified: LAST_MODIFIED,
      },
    ],
    [
      '/ignores',
      {
        status: 200,
        body: article('Pilots', 'Harbour pilots guide the ships past the sandbanks.'),
        etag: '"pilots-1"',
        ignoresConditions: true,
      },
    ],
    [
      '/edited',
      {
        status: 200,
        body: article('Ferry', 'The ferry leaves the quay at dawn for the island. Tickets are sold aboard.'),
      },
    ],
    [
      '/counter',
      { status: 200, body: article('Weather', 'Visitors so far: 1041. Fair winds expected over the bay.') },
    ],
    ['/removed', { status: 200, body: article('Regatta', 'The regatta starts at noon.') }],
    ['/deleted', { status: 200, body: article('Market', 'The fish market opens early.') }],
    ['/moved', { status: 200, body: article('Museum', 'The maritime museum shows old charts.') }],
  ]);
}

/** The site changed before the recrawl. */
function secondSite(): Map<string, Answer> {
  const site = firstSite();
  site.set('/edited', {
    status: 200,
    body: article(
      'Ferry',
      'The ferry leaves the quay at noon for the island. Tickets are sold at the kiosk.',
      ['/added'],
    ),
  });
  site.set('/counter', {
    status: 200,
    body: article('Weather', 'Visitors so far: 2213. Fair winds expected over the bay.'),
  });
  site.set('/removed', { status: 404 });
  site.set('/deleted', { status: 410 });
  site.set('/moved', { status: 301, location: '/museum' });
  site.set('/museum', {
    status: 200,
    body: article('Museum', 'The maritime museum shows old charts and new ones.'),
  });
  site.set('/added', { status: 200, body: article('Boats', 'Boats for hire by the hour.') });
  return site;
}

let site = firstSite();
const requests: Array<{ path: string; headers: IncomingHttpHeaders; status: number }> = [];
/** Webhook deliveries POSTed to /hook. */
const delivered: Array<{
  event: string;
  pages?: Array<{ url: string; change: string; textChanged?: boolean | null; similarity?: number | null }>;
  crawl: { changes?: Record<string, number> };
}> = [];
let server: Server;
let origin: string;

before(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (request.method === 'POST' && path === '/hook') {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        delivered.push(JSON.parse(body));
        response.writeHead(204).end();
      });
      return;
    }
    const answer = site.get(path);
    const reply = (status: number, headers: Record<string, string> = {}, body = '') => {
      requests.push({ path, headers: request.headers, status });
      response.writeHead(status, headers).end(body);
    };
    if (!answer) return reply(404);
    if (answer.status === 301) return reply(301, { location: answer.location });
    if (answer.status !== 200) return reply(answer.status);
    const validators: Record<string, string> = {
      ...(answer.etag ? { etag: answer.etag } : {}),
      ...(answer.lastModified ? { 'last-modified': answer.lastModified } : {}),
    };
    const notModified =
      !answer.ignoresConditions &&
      ((answer.etag !== undefined && request.headers['if-none-match'] === answer.etag) ||
        (answer.lastModified !== undefined && request.headers['if-modified-since'] === answer.lastModified));
    if (notModified) return reply(304, validators);
    reply(200, { 'content-type': 'text/html; charset=utf-8', ...validators }, answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface ListedPage {
  id: number;
  url: string;
  type: string;
  status: number | null;
  change: string | null;
  previousPage: number | null;
  bodyOf: number | null;
  textChanged: boolean | null;
  similarity: number | null;
}

test('a recrawl revisits conditionally and classifies every page', { timeout: 240_000 }, async (t) => {
  const { app, runtime } = await build(t);
  site = firstSite();
  const first = await crawlToEnd(app, {
    seeds: [`${origin}/`],
    politeness: { delayMs: 0, respectRobots: false },
    store: { warc: true },
  });
  // The earlier texts were stored as the pages were fetched: a recrawl takes (a 304's) and compares (a changed
  // page's) them whether or not the earlier crawl's text job has counted them yet, so none is marked counted.
  await textJobDone(app, first.id);
  await runtime.db.pool.query(
    'UPDATE page_contents SET text_extracted_at = NULL FROM pages WHERE pages.id = page_id AND crawl_id = $1',
    [first.id],
  );
  const firstPages = (await allPages(app, first.id)) as unknown as ListedPage[];
  assert.equal(firstPages.filter((page) => page.type === 'HTML').length, 9);
  assert.ok(
    firstPages.every((page) => page.change === null),
    'a crawl that recrawls none classifies nothing',
  );

  site = secondSite();
  requests.length = 0;
  // no seeds: the earlier crawl's, with its settings; a field given overrides (here politeness, merged)
  const second = await crawlToEnd(app, {
    recrawl: { of: first.id },
    politeness: { delayMs: 0 },
    webhook: { url: `${origin}/hook`, events: ['page.changed', 'completed'] },
  });
  assert.equal(second.recrawlOf, first.id);
  assert.deepEqual((second.request as { seeds: string[] }).seeds, [`${origin}/`]);
  assert.equal(
    (second.request as { politeness: { respectRobots: boolean } }).politeness.respectRobots,
    false,
  );

  const pages = (await allPages(app, second.id)) as unknown as ListedPage[];
  const byPath = new Map(pages.map((page) => [new URL(page.url).pathname, page]));
  const changeOf = (path: string) => byPath.get(path)?.change;
  assert.equal(changeOf('/'), 'unchanged', 'a 304 by ETag');
  assert.equal(changeOf('/etag'), 'unchanged', 'a 304 by ETag');
  assert.equal(changeOf('/dated'), 'unchanged', 'a 304 by Last-Modified');
  assert.equal(changeOf('/ignores'), 'unchanged', 'a 200 with the same body');
  assert.equal(changeOf('/edited'), 'changed');
  assert.equal(changeOf('/counter'), 'changed');
  assert.equal(changeOf('/removed'), 'gone', '404');
  assert.equal(changeOf('/deleted'), 'gone', '410');
  assert.equal(changeOf('/moved'), 'gone', 'a redirect elsewhere');
  assert.equal(changeOf('/added'), 'new');
  assert.deepEqual(second.changes, { new: 1, unchanged: 4, changed: 2, gone: 3 });

  // told by webhook: page.changed for new, changed and gone pages, then completed with the counts
  const completed = await eventually(() => delivered.find((event) => event.event === 'completed'), {
    message: 'the completed event',
    timeoutMs: 60_000,
  });
  assert.deepEqual(completed.crawl.changes, { new: 1, changed: 2, unchanged: 4, gone: 3 });
  const told = delivered
    .filter((event) => event.event === 'page.changed')
    .flatMap((event) => event.pages ?? [])
    .map((page) => `${new URL(page.url).pathname} ${page.change}`)
    .sort();
  assert.deepEqual(told, [
    '/added new',
    '/counter changed',
    '/deleted gone',
    '/edited changed',
    '/moved gone',
    '/removed gone',
  ]);
  // a changed page's texts are compared as it is recorded, so its event says whether its words changed
  const toldText = new Map(
    delivered
      .filter((event) => event.event === 'page.changed')
      .flatMap((event) => event.pages ?? [])
      .filter((page) => page.change === 'changed')
      .map((page) => [new URL(page.url).pathname, page]),
  );
  assert.equal(toldText.get('/edited')?.textChanged, true);
  assert.ok((toldText.get('/edited')?.similarity ?? 1) < 1);
  assert.equal(toldText.get('/counter')?.textChanged, false, 'a number alone is no text change');
  assert.equal(toldText.get('/counter')?.similarity, 1);
  assert.equal(delivered.at(-1)?.event, 'completed', 'completed comes last');

  // the requests: conditional where the earlier answer gave a validator, a 304 storing no body
  const sent = (path: string) => requests.find((request) => request.path === path);
  assert.equal(sent('/etag')?.headers['if-none-match'], '"tides-1"');
  assert.equal(sent('/dated')?.headers['if-modified-since'], LAST_MODIFIED);
  assert.equal(sent('/ignores')?.headers['if-none-match'], '"pilots-1"');
  assert.equal(sent('/ignores')?.status, 200);
  assert.equal(sent('/edited')?.headers['if-none-match'], undefined);
  assert.equal(sent('/etag')?.status, 304);
  const tides = byPath.get('/etag')!;
  const earlierTides = firstPages.find((page) => new URL(page.url).pathname === '/etag')!;
  assert.equal(tides.status, 304);
  assert.equal(tides.type, 'HTML');
  assert.equal(tides.previousPage, earlierTides.id);
  assert.equal(tides.bodyOf, earlierTides.id, 'a 304 points at the earlier body');
  assert.equal(byPath.get('/ignores')!.bodyOf, null, 'a 200 keeps a body of its own');

  // a 304 page's links are the earlier visit's, pointing at this crawl's pages (the recrawl's link graph)
  const home = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${second.id}/pages/${byPath.get('/')!.id}`,
  });
  assert.equal(home.statusCode, 200, home.body);
  const homeLinks = (home.json().outlinks as Array<{ pageId: number; url: string }>)
    .map((link) => [new URL(link.url).pathname, link.pageId] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  assert.deepEqual(
    homeLinks,
    [...HOME_LINKS].sort().map((path) => [path, byPath.get(path)?.id] as const),
  );

  // readers of bodies follow it: the page's HTML, text and Markdown, and the WARC export
  const detail = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${second.id}/pages/${tides.id}?include=html,text,markdown`,
  });
  assert.equal(detail.statusCode, 200, detail.body);
  assert.match(detail.json().html, /The tide turns twice a day/);
  assert.match(detail.json().markdown, /The tide turns twice a day/);
  assert.match(detail.json().text, /The tide turns twice a day/);
  const warc = await app.inject({ method: 'GET', url: `/v1/crawls/${second.id}/export?format=warc` });
  assert.equal(warc.statusCode, 200, warc.body);
  const revisits: Array<{
    target: string | null | undefined;
    profile: string | null | undefined;
    refersTo: string | null | undefined;
  }> = [];
  for await (const record of WARCParser.iterRecords([gunzipSync(warc.rawPayload)])) {
    if (record.warcType === 'revisit')
      revisits.push({
        target: record.warcTargetURI,
        profile: record.warcHeader('WARC-Profile'),
        refersTo: record.warcHeader('WARC-Refers-To-Target-URI'),
      });
  }
  const tidesRevisit = revisits.find((revisit) => revisit.target === `${origin}/etag`);
  assert.ok(tidesRevisit, `a revisit record for the 304: ${JSON.stringify(revisits)}`);
  assert.equal(tidesRevisit.profile, 'http://netpreserve.org/warc/1.1/revisit/server-not-modified');
  assert.equal(tidesRevisit.refersTo, `${origin}/etag`);

  // the filter, served by an index
  const changed = await app.inject({ method: 'GET', url: `/v1/crawls/${second.id}/pages?change=changed` });
  assert.equal(changed.statusCode, 200, changed.body);
  assert.deepEqual((changed.json().items as ListedPage[]).map((page) => new URL(page.url).pathname).sort(), [
    '/counter',
    '/edited',
  ]);
  const exported = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${second.id}/export?change=gone&fields=url,change`,
  });
  assert.equal(exported.statusCode, 200, exported.body);
  assert.deepEqual(
    exported.body
      .trim()
      .split('\n')
      .map((line) => new URL(JSON.parse(line).url).pathname)
      .sort(),
    ['/deleted', '/moved', '/removed'],
    'the export filters as the list does',
  );
  const badFilter = await app.inject({ method: 'GET', url: `/v1/crawls/${second.id}/pages?change=moved` });
  assert.equal(badFilter.statusCode, 400);
  assert.match(badFilter.body, /change/);

  // textChanged and similarity: set by the text job once both texts exist; a number alone is no text change
  await textJobDone(app, second.id);
  // the 304 pages' words count too: they took the earlier text
  const words = (await app.inject({ method: 'GET', url: `/v1/crawls/${second.id}/stats/words` })).json();
  assert.equal(words.pagesCounted, words.htmlPages, JSON.stringify(words));
  assert.equal(words.htmlPages, 8);
  const compared = await eventually(
    async () => {
      const listed = (await allPages(app, second.id, '&change=changed')) as unknown as ListedPage[];
      if (listed.some((page) => page.textChanged === null)) throw new Error('not compared yet');
      return new Map(listed.map((page) => [new URL(page.url).pathname, page]));
    },
    { message: 'the text job to compare the changed pages', timeoutMs: 60_000 },
  );
  assert.equal(compared.get('/edited')!.textChanged, true);
  assert.ok(compared.get('/edited')!.similarity! < 1);
  assert.equal(compared.get('/counter')!.textChanged, false);
  assert.equal(compared.get('/counter')!.similarity, 1);
  // a changed page whose texts were not compared as its text was stored (its class came after, or the earlier
  // text did): the text job's next run compares it
  const edited0 = compared.get('/edited')!;
  await runtime.db.pool.query('UPDATE pages SET text_changed = NULL, similarity = NULL WHERE id = $1', [
    edited0.id,
  ]);
  await runtime.crawlStats.countText(second.id);
  const swept = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${second.id}/pages/${edited0.id}` })
  ).json();
  assert.equal(swept.textChanged, true);
  assert.equal(swept.similarity, edited0.similarity);

  // the diff of an edited page
  const edited = byPath.get('/edited')!;
  const diff = await app.inject({ method: 'GET', url: `/v1/crawls/${second.id}/pages/${edited.id}/diff` });
  assert.equal(diff.statusCode, 200, diff.body);
  const body = diff.json();
  assert.equal(body.textChanged, true);
  assert.match(body.unified, /^-.*at dawn/m);
  assert.match(body.unified, /^\+.*at noon/m);
  assert.ok(body.summary.added.includes('noon'), JSON.stringify(body.summary));
  assert.ok(body.summary.removed.includes('dawn'), JSON.stringify(body.summary));
  const newPage = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${second.id}/pages/${byPath.get('/added')!.id}/diff`,
  });
  assert.equal(newPage.statusCode, 409, 'a new page has no earlier version');
  const notRecrawl = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${first.id}/pages/${earlierTides.id}/diff`,
  });
  assert.equal(notRecrawl.statusCode, 404);

  // a recrawl of the recrawl: a page unchanged twice points at the first crawl's body, and still reads it
  const third = await crawlToEnd(app, { recrawl: { of: second.id } });
  const thirdTides = ((await allPages(app, third.id)) as unknown as ListedPage[]).find(
    (page) => new URL(page.url).pathname === '/etag',
  )!;
  assert.equal(thirdTides.change, 'unchanged');
  assert.equal(thirdTides.previousPage, tides.id);
  assert.equal(thirdTides.bodyOf, earlierTides.id);
  const again = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${third.id}/pages/${thirdTides.id}?include=html`,
  });
  assert.match(again.json().html, /The tide turns twice a day/);

  // everything was reached: nothing missing
  const missing = await app.inject({ method: 'GET', url: `/v1/crawls/${second.id}/changes/missing` });
  assert.equal(missing.statusCode, 200, missing.body);
  assert.deepEqual(missing.json().items, []);

  // purging the first crawl hands the bodies the recrawls read to them: the first reader holds it, the
  // other reads it there
  const purge = await app.inject({ method: 'DELETE', url: `/v1/crawls/${first.id}?purge=true` });
  assert.equal(purge.statusCode, 202, purge.body);
  await eventually(
    async () => {
      const gone = await app.inject({ method: 'GET', url: `/v1/crawls/${first.id}` });
      if (gone.statusCode !== 404) throw new Error(`the first crawl is ${gone.statusCode}`);
      return true;
    },
    { message: 'the first crawl purged', timeoutMs: 60_000 },
  );
  const heirs = new Map([second, third].map((crawl) => [crawl.id, tidesOf(crawl.id)] as const));
  const secondTides = await heirs.get(second.id)!;
  const thirdTidesAfter = await heirs.get(third.id)!;
  assert.equal(secondTides.bodyOf, null, 'the first reader holds the body');
  assert.equal(thirdTidesAfter.bodyOf, secondTides.id, 'the other reads it from there');
  for (const [crawlId, page] of [
    [second.id, secondTides],
    [third.id, thirdTidesAfter],
  ] as const) {
    const read = await app.inject({
      method: 'GET',
      url: `/v1/crawls/${crawlId}/pages/${page.id}?include=html,text`,
    });
    assert.equal(read.statusCode, 200, read.body);
    assert.match(read.json().html, /The tide turns twice a day/);
    assert.match(read.json().text, /The tide turns twice a day/);
  }

  async function tidesOf(crawlId: string): Promise<ListedPage> {
    return ((await allPages(app, crawlId)) as unknown as ListedPage[]).find(
      (page) => new URL(page.url).pathname === '/etag',
    )!;
  }
});

test('pages a recrawl never reached are listed as missing, not guessed gone', {
  timeout: 240_000,
}, async (t) => {
  const { app } = await build(t);
  site = firstSite();
  const first = await crawlToEnd(app, {
    seeds: [`${origin}/`],
    politeness: { delayMs: 0, respectRobots: false },
  });
  site = secondSite();
  // room for the seed and two more: the other six earlier pages are never reached
  const second = await crawlToEnd(app, { recrawl: { of: first.id }, maxPages: 3 });
  const changes = second.changes as { new: number; changed: number; unchanged: number; gone: number };
  assert.equal(changes.new + changes.changed + changes.unchanged + changes.gone, 3);
  const missing: Array<{ url: string; previousCrawl: string; type: string }> = [];
  let next: string | null = `/v1/crawls/${second.id}/changes/missing?limit=4`;
  while (next) {
    const response: { statusCode: number; body: string; json(): unknown } = await app.inject({
      method: 'GET',
      url: next,
    });
    assert.equal(response.statusCode, 200, response.body);
    const listed = response.json() as { items: typeof missing; next: string | null };
    missing.push(...listed.items);
    next = listed.next;
  }
  assert.equal(missing.length, 6, JSON.stringify(missing));
  assert.ok(missing.every((page) => page.previousCrawl === first.id && page.type === 'FRONTIER'));
  // the earlier crawl's order: its seed, then its pages as it fetched them
  const earlier = (await allPages(app, first.id))
    .filter((page) => page.type === 'HTML')
    .map((page) => page.url);
  const reached = (await allPages(app, second.id))
    .filter((page) => page.type !== 'FRONTIER')
    .map((page) => page.url);
  assert.deepEqual(reached, earlier.slice(0, 3));
});

test('a recrawl request: the earlier crawl must exist for the caller and be finished', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const noSeeds = await app.inject({ method: 'POST', url: '/v1/crawls', payload: {} });
  assert.equal(noSeeds.statusCode, 400, noSeeds.body);
  assert.match(String(noSeeds.headers['content-type']), /problem\+json/);
  assert.match(noSeeds.body, /seeds/);
  const notUuid = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { recrawl: { of: 'last' } },
  });
  assert.equal(notUuid.statusCode, 400, notUuid.body);
  assert.match(notUuid.body, /recrawl/);
  const unknown = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { recrawl: { of: '00000000-0000-4000-8000-000000000000' } },
  });
  assert.equal(unknown.statusCode, 404, unknown.body);
  assert.equal(unknown.json().field, 'recrawl.of');
  // no worker runs here: the earlier crawl stays queued
  const queued = await startCrawl(app, { seeds: [`${origin}/`] });
  const running = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { recrawl: { of: queued } },
  });
  assert.equal(running.statusCode, 409, running.body);
  assert.equal(running.json().field, 'recrawl.of');
  // another tenant's crawl is not found, as on every route: neither read nor confirmed to exist
  const a = await runtime.keys.create({ name: 'a' });
  const b = await runtime.keys.create({ name: 'b' });
  const ofA = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    headers: { authorization: `Bearer ${a.key}` },
    payload: { seeds: [`${origin}/`] },
  });
  assert.equal(ofA.statusCode, 202, ofA.body);
  const byB = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    headers: { authorization: `Bearer ${b.key}` },
    payload: { recrawl: { of: ofA.json().id } },
  });
  assert.equal(byB.statusCode, 404, byB.body);
  assert.equal(byB.json().field, 'recrawl.of');
  const byA = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    headers: { authorization: `Bearer ${a.key}` },
    payload: { recrawl: { of: ofA.json().id } },
  });
  assert.equal(byA.statusCode, 409, 'its owner sees it: still queued');
});
