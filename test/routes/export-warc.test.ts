// GET /v1/crawls/:id/export?format=warc on real crawls of the test web, read back with warcio's WARCParser:
// warcinfo first, then per fetched page a request and a response (or, for a copy of an earlier body, a revisit)
// whose ids, target URIs, status, payload digest and bytes match the page table and the stored bodies; the
// filters apply, the same crawl exports the same bytes, a running and a cancelled crawl export what they have,
// and a crawl that kept no responses is a 409 naming why. Also include=markdown in the JSON lines export.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { WARC_1_1, WARCParser, WARCRecord, WARCSerializer } from 'warcio';
import { CRAWL_QUEUE } from '../../src/jobs/queues.js';
import type { Runtime } from '../../src/runtime.js';
import {
  redirectHops,
  serialized,
  storedHeaderBlock,
  warcRecordId,
} from '../../src/services/presentation/warc-records.js';
import { build, crawlToEnd, startCrawl, waitForCrawl } from '../helper.js';

import { eventually } from '../support/eventually.js';
import { crawlRequestFor, startTestWeb } from '../support/testweb/index.js';

interface ReadRecord {
  type: string;
  id: string;
  target: string | null;
  warc: Map<string, string>;
  status: number | null;
  http: Map<string, string>;
  payload: Buffer;
}

async function readWarc(body: Buffer): Promise<ReadRecord[]> {
  const records: ReadRecord[] = [];
  for await (const record of WARCParser.iterRecords([body], { keepHeadersCase: true })) {
    const payload = Buffer.from(await record.readFully(false));
    const http = new Map<string, string>();
    for (const [name, value] of record.httpHeaders?.headers ?? []) http.set(name.toLowerCase(), value);
    const warc = new Map<string, string>();
    for (const [name, value] of record.warcHeaders.headers) warc.set(name, value);
    records.push({
      type: record.warcType,
      id: record.warcHeader('WARC-Record-ID') ?? '',
      target: record.warcTargetURI ?? null,
      warc,
      status: record.httpHeaders?.statusCode !== undefined ? Number(record.httpHeaders.statusCode) : null,
      http,
      payload,
    });
  }
  return records;
}

interface PageTableRow {
  id: string;
  url: string;
  final_url: string | null;
  type: string;
  status: number | null;
  sha256: string | null;
  bytes: number | null;
  truncated: boolean;
  duplicate_of: string | null;
  fetched_at: Date | null;
  redirects: Array<{ url: string; status: number }> | null;
  body: Buffer | null;
}

async function pageTable(runtime: Runtime, crawlId: string): Promise<PageTableRow[]> {
  const { rows } = await runtime.db.pool.query<PageTableRow>(
    `SELECT p.id, p.url, p.final_url, p.type, p.status, p.sha256, p.bytes, p.truncated, p.duplicate_of,
            p.fetched_at, p.redirects, coalesce(c.html, r.body) AS body
     FROM pages p LEFT JOIN page_contents c ON c.page_id = p.id LEFT JOIN page_responses r ON r.page_id = p.id
     WHERE p.crawl_id = $1 ORDER BY p.id`,
    [crawlId],
  );
  return rows;
}

/**
 * Every record against the page table: warcinfo first, then for each fetched page (in id order) its request
 * and response or revisit, nothing else. Returns how many responses carried a stored body.
 */
function checkWarc(crawlId: string, records: ReadRecord[], pages: PageTableRow[]): { bodies: number } {
  assert.equal(records[0]?.type, 'warcinfo', 'warcinfo first');
  assert.equal(records[0]!.id, warcRecordId(crawlId, null, 'warcinfo'));
  assert.equal(records[0]!.warc.get('WARC/1.1') ?? 'WARC/1.1', 'WARC/1.1');
  const byId = new Map(pages.map((page) => [page.id, page]));
  const fetched = pages.filter((page) => page.status !== null);
  let bodies = 0;
  let at = 1;
  for (const page of fetched) {
    const pageId = Number(page.id);
    const target = page.final_url ?? page.url;
    // each redirect hop first: a request and a 3xx response at the hop's URL, Location the next URL
    const hops = redirectHops(page.redirects, target);
    if (page.redirects?.length)
      assert.equal(page.redirects[0]!.url, page.url, 'the hops start at the page URL');
    for (const [index, hop] of hops.entries()) {
      const [hopRequest, hopResponse] = [records[at++]!, records[at++]!];
      assert.equal(hopRequest.type, 'request');
      assert.equal(hopRequest.id, warcRecordId(crawlId, pageId, `request@${index}`));
      assert.equal(hopRequest.target, hop.url);
      assert.equal(hopResponse.type, 'response');
      assert.equal(hopResponse.id, warcRecordId(crawlId, pageId, `response@${index}`));
      assert.equal(hopResponse.target, hop.url);
      assert.equal(hopResponse.status, hop.status);
      assert.equal(hopResponse.http.get('location'), hops[index + 1]?.url ?? target);
    }
    const request = records[at++]!;
    const response = records[at++]!;
    assert.equal(request.type, 'request');
    assert.equal(request.id, warcRecordId(crawlId, pageId, 'request'));
    assert.equal(request.target, target);
    assert.equal(request.warc.get('WARC-Concurrent-To'), warcRecordId(crawlId, pageId, 'response'));
    assert.equal(request.http.get('host'), new URL(target).host);
    assert.equal(response.id, warcRecordId(crawlId, pageId, 'response'));
    assert.equal(response.target, target);
    assert.equal(response.status, page.status, `status of ${target}`);
    assert.equal(response.warc.get('WARC-Date'), page.fetched_at!.toISOString());
    const original = page.duplicate_of !== null ? byId.get(page.duplicate_of) : undefined;
    if (page.type === 'DUPLICATE' && page.sha256 !== null && original?.sha256 === page.sha256) {
      assert.equal(response.type, 'revisit', `${target} repeats page ${original.id}`);
      assert.equal(
        response.warc.get('WARC-Refers-To'),
        warcRecordId(crawlId, Number(original.id), 'response'),
      );
      assert.equal(response.warc.get('WARC-Refers-To-Target-URI'), original.final_url ?? original.url);
      assert.equal(response.warc.get('WARC-Payload-Digest'), `sha256:${page.sha256}`);
      assert.equal(response.payload.length, 0);
      continue;
    }
    assert.equal(response.type, 'response', `${target} is a response`);
    const digest = `sha256:${createHash('sha256').update(response.payload).digest('hex')}`;
    assert.equal(response.warc.get('WARC-Payload-Digest'), digest, 'the digest of the payload written');
    assert.equal(response.http.get('content-length'), String(response.payload.length));
    assert.equal(response.http.has('content-encoding'), false);
    if (page.body) {
      bodies++;
      assert.deepEqual(response.payload, page.body, `the stored body of ${target}`);
      // pages read as pages (HTML, BINARY) have their body hashed at fetch
      if (page.sha256 !== null) assert.equal(digest, `sha256:${page.sha256}`, 'the body hashed at fetch');
      assert.equal(response.warc.get('WARC-Truncated'), page.truncated ? 'length' : undefined);
    } else {
      assert.equal(response.payload.length, 0);
      assert.equal(response.warc.get('WARC-Truncated'), (page.bytes ?? 0) > 0 ? 'unspecified' : undefined);
    }
  }
  assert.equal(at, records.length, 'no other records');
  return { bodies };
}

async function exportWarc(app: FastifyInstance, id: string, query = 'format=warc') {
  const response = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/export?${query}` });
  assert.equal(response.statusCode, 200, response.body.slice(0, 300));
  return response;
}

test('storedHeaderBlock describes the stored payload and keeps the wire headers apart', () => {
  assert.deepEqual(
    storedHeaderBlock(
      [
        ['content-type', 'text/html'],
        ['content-encoding', 'gzip'],
        ['content-length', '120'],
        ['transfer-encoding', 'chunked'],
        ['set-cookie', 'a=1'],
      ],
      'text/html',
      400,
    ),
    [
      ['content-type', 'text/html'],
      ['x-archive-orig-content-encoding', 'gzip'],
      ['x-archive-orig-content-length', '120'],
      ['x-archive-orig-transfer-encoding', 'chunked'],
      ['set-cookie', 'a=1'],
      ['content-length', '400'],
    ],
  );
  assert.deepEqual(
    storedHeaderBlock(
      [
        ['content-length', '400'],
        ['content-type', 'text/plain'],
      ],
      null,
      400,
    ),
    [
      ['content-type', 'text/plain'],
      ['content-length', '400'],
    ],
    'a Content-Length that still holds stays as is',
  );
  assert.deepEqual(storedHeaderBlock(null, 'text/html', 5), [
    ['content-type', 'text/html'],
    ['content-length', '5'],
  ]);
});

test('records are the bytes warcio writes with its own digests, gzipped member by member', async () => {
  const payload = Buffer.from('<html><body>héllo</body></html>');
  const make = (type: 'response' | 'request' | 'revisit') =>
    WARCRecord.create(
      {
        url: 'http://127.0.0.1:1/a?b=c',
        date: '2026-11-26T12:00:00.123Z',
        type,
        warcVersion: WARC_1_1,
        warcHeaders: {
          'WARC-Record-ID': warcRecordId('c', 1, 'response'),
          ...(type === 'revisit' ? { 'WARC-Payload-Digest': 'sha256:00' } : {}),
        },
        statusline: type === 'request' ? 'GET /a?b=c HTTP/1.1' : 'HTTP/1.1 200 OK',
        httpHeaders: [
          ['content-type', 'text/html'],
          ['x-archive-orig-content-encoding', 'gzip'],
        ],
        ...(type === 'revisit'
          ? { refersToUrl: 'http://127.0.0.1:1/', refersToDate: '2026-11-26T11:00:00Z' }
          : {}),
      },
      type === 'response' ? [payload] : [],
    );
  for (const type of ['response', 'request', 'revisit'] as const) {
    const ours = gunzipSync(await serialized(make(type), type === 'response' ? payload : undefined));
    const theirs = Buffer.from(await WARCSerializer.serialize(make(type), { gzip: false }));
    assert.deepEqual(ours.toString('latin1'), theirs.toString('latin1'), type);
  }
});

test('record ids are UUIDs derived from crawl, page and kind', () => {
  const id = warcRecordId('00000000-0000-4000-8000-000000000001', 7, 'response');
  assert.match(id, /^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$/);
  assert.equal(id, warcRecordId('00000000-0000-4000-8000-000000000001', 7, 'response'));
  assert.notEqual(id, warcRecordId('00000000-0000-4000-8000-000000000001', 7, 'request'));
  assert.notEqual(id, warcRecordId('00000000-0000-4000-8000-000000000001', 8, 'response'));
});

test('a crawl exported as WARC, read back record by record', { timeout: 240_000 }, async (t) => {
  const web = await startTestWeb({
    seed: 32,
    hosts: 2,
    pagesPerHost: 15,
    crawlDelaySeconds: 0,
    features: {
      robots: true,
      errors: true,
      duplicates: true,
      binaries: true,
      redirects: true,
      charsets: true,
      oversize: true,
    },
  });
  t.after(() => web.close());
  const { app, runtime } = await build(t);
  const { id } = await crawlToEnd(
    app,
    crawlRequestFor(web, {
      maxPages: 400,
      store: { warc: true },
      fetch: { maxBytes: 200_000 },
    }),
    { timeoutMs: 180_000 },
  );
  const shown = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json();
  assert.deepEqual(shown.request.store, { html: true, warc: true }, 'warc implies html');

  const warc = await exportWarc(app, id);
  assert.equal(warc.headers['content-type'], 'application/warc');
  assert.match(warc.headers['content-disposition'] as string, /filename="crawl-.*\.warc\.gz"/);
  assert.equal(warc.rawPayload[0], 0x1f, 'gzip');
  const pages = await pageTable(runtime, id);
  const records = await readWarc(warc.rawPayload);
  const { bodies } = checkWarc(id, records, pages);
  assert.ok(bodies > 10, `bodies written: ${bodies}`);
  const types = new Set(pages.map((page) => page.type));
  for (const type of ['HTML', 'DUPLICATE', 'INVALID', 'BINARY'])
    assert.ok(types.has(type), `the crawl has ${type}`);
  assert.ok(
    records.some((record) => record.type === 'revisit'),
    'duplicates are revisits',
  );
  assert.ok(
    pages.some(
      (page) => page.status === 200 && redirectHops(page.redirects, page.final_url ?? page.url).length > 0,
    ),
    'the crawl followed redirects',
  );
  assert.ok(
    pages.some((page) => page.type === 'INVALID' && page.status === 404 && page.body !== null),
    'store.warc keeps the bodies of error pages',
  );
  assert.ok(
    records.some((record) => record.warc.get('WARC-Truncated') === 'length'),
    'the oversize page is cut at fetch.maxBytes, and says so',
  );
  const info = records[0]!.payload.toString('utf8');
  assert.match(info, /^software: trawl\r\n/m);
  assert.match(info, /http-header-user-agent: /);
  // an HTML body is the bytes the pages API decodes
  const html = pages.find((page) => page.type === 'HTML' && page.body !== null && !page.truncated)!;
  const detail = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages/${html.id}?include=html` })
  ).json();
  const response = records.find((record) => record.id === warcRecordId(id, Number(html.id), 'response'))!;
  assert.equal(response.payload.toString('utf8'), detail.html);

  // the same crawl is the same bytes; Accept picks the format
  const again = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${id}/export`,
    headers: { accept: 'application/warc' },
  });
  assert.equal(again.headers['content-type'], 'application/warc');
  assert.deepEqual(again.rawPayload, warc.rawPayload);

  // filters as on /pages
  const onlyHtml = await readWarc((await exportWarc(app, id, 'format=warc&type=HTML')).rawPayload);
  checkWarc(
    id,
    onlyHtml,
    pages.filter((page) => page.type === 'HTML'),
  );
  const only404 = await readWarc((await exportWarc(app, id, 'format=warc&status=404')).rawPayload);
  assert.ok(only404.length > 1);
  checkWarc(
    id,
    only404,
    pages.filter((page) => page.status === 404),
  );

  // mistakes name the field
  for (const [query, field] of [
    ['format=warc&include=links', 'include'],
    ['format=warc&fields=id', 'fields'],
  ] as const) {
    const refused = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/export?${query}` });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().field, field);
  }
});

test('a crawl that kept no responses is a 409; store.html alone keeps HTML bodies and headers', {
  timeout: 240_000,
}, async (t) => {
  const web = await startTestWeb({
    seed: 33,
    hosts: 1,
    pagesPerHost: 10,
    crawlDelaySeconds: 0,
    features: { robots: true, errors: true, binaries: true, duplicates: true },
  });
  t.after(() => web.close());
  const { app, runtime } = await build(t);
  const bare = await startCrawl(app, crawlRequestFor(web, { maxPages: 5, store: { html: false } }));
  const plain = await startCrawl(app, crawlRequestFor(web, { maxPages: 30 }));
  await waitForCrawl(app, bare, 180_000);
  await waitForCrawl(app, plain, 180_000);

  const refused = await app.inject({ method: 'GET', url: `/v1/crawls/${bare}/export?format=warc` });
  assert.equal(refused.statusCode, 409);
  assert.match(refused.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(refused.json().field, 'format');
  assert.match(refused.json().detail, /store\.warc/);

  const pages = await pageTable(runtime, plain);
  const records = await readWarc((await exportWarc(app, plain)).rawPayload);
  checkWarc(plain, records, pages);
  const other = pages.find(
    (page) => page.type !== 'HTML' && page.type !== 'DUPLICATE' && page.status !== null,
  );
  assert.ok(other, `the crawl has a response that is not an HTML page: ${pages.map((page) => page.type)}`);
  const otherResponse = records.find(
    (record) => record.id === warcRecordId(plain, Number(other.id), 'response'),
  )!;
  assert.ok(otherResponse.http.get('content-type'), 'its headers as received');
  assert.equal(
    pages.filter((page) => page.type !== 'HTML' && page.body !== null).length,
    0,
    'without store.warc only HTML bodies are kept',
  );
});

test('a running crawl and a cancelled crawl export what they have', { timeout: 240_000 }, async (t) => {
  const web = await startTestWeb({
    seed: 34,
    hosts: 2,
    pagesPerHost: 40,
    crawlDelaySeconds: 0,
    latencyMs: 20,
    features: { robots: true, duplicates: true, errors: true },
  });
  t.after(() => web.close());
  const { app, runtime } = await build(t);
  const id = await startCrawl(
    app,
    crawlRequestFor(web, {
      maxPages: 1000,
      store: { warc: true },
      politeness: { delayMs: 150, maxCrawlDelayMs: 0 },
    }),
  );
  await eventually(
    async () => (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json().pagesFetched >= 5,
    { message: `crawl ${id} to fetch 5 pages`, timeoutMs: 120_000 },
  );
  // running: each record matches its page; pages written while the export ran may be in it or not
  const running = await readWarc((await exportWarc(app, id)).rawPayload);
  const during = await pageTable(runtime, id);
  const inExport = new Set(running.filter((record) => record.type === 'request').map((record) => record.id));
  checkWarc(
    id,
    running,
    during.filter(
      (page) => page.status !== null && inExport.has(warcRecordId(id, Number(page.id), 'request')),
    ),
  );
  assert.ok(inExport.size >= 5);

  const cancelled = await app.inject({ method: 'DELETE', url: `/v1/crawls/${id}` });
  assert.equal(cancelled.json().status, 'cancelled');
  assert.equal((await waitForCrawl(app, id, 60_000)).status, 'cancelled');
  // the runner drains the fetches in flight after the cancel (they may still land): export once its job ended
  const crawlQueue = runtime.jobs.queue(CRAWL_QUEUE);
  await eventually(
    async () => {
      const counts = await crawlQueue.getJobCounts('active', 'waiting', 'delayed');
      return Object.values(counts).every((count) => count === 0) ? counts : undefined;
    },
    { message: `the runner jobs of crawl ${id} to end after the cancel`, timeoutMs: 60_000 },
  );
  const after = await readWarc((await exportWarc(app, id)).rawPayload);
  const pages = await pageTable(runtime, id);
  checkWarc(id, after, pages);
  assert.ok(after.length >= running.length);
});

test('include=markdown in the JSON lines export is the page route’s Markdown', {
  timeout: 240_000,
}, async (t) => {
  const web = await startTestWeb({
    seed: 35,
    hosts: 1,
    pagesPerHost: 12,
    crawlDelaySeconds: 0,
    features: { robots: true, errors: true, binaries: true },
  });
  t.after(() => web.close());
  const { app } = await build(t);
  const { id } = await crawlToEnd(app, crawlRequestFor(web, { maxPages: 20 }), { timeoutMs: 180_000 });
  const exported = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${id}/export?fields=id,type&include=markdown`,
  });
  assert.equal(exported.statusCode, 200);
  const lines = exported.body
    .trimEnd()
    .split('\n')
    .map(
      (line) => JSON.parse(line) as { id: number; type: string; markdown: string | null; truncated: boolean },
    );
  assert.ok(lines.filter((line) => line.markdown !== null).length >= 5);
  for (const line of lines) {
    assert.deepEqual(Object.keys(line), ['id', 'type', 'markdown', 'truncated']);
    assert.equal(line.truncated, false, `page ${line.id}: within EXPORT_BODY_MAX_BYTES`);
    const detail = (
      await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages/${line.id}?include=markdown` })
    ).json();
    assert.equal(line.markdown, detail.markdown, `page ${line.id}`);
    if (line.type !== 'HTML') assert.equal(line.markdown, null);
  }
  assert.match(lines.find((line) => line.markdown !== null)!.markdown!, /\S/);
});
