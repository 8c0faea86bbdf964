// GET /v1/crawls/:id/export on a real crawl of the test web: JSON lines equal the pages API item by item,
// fields and includes shape them, CSV is RFC 4180 with formula cells defused, filters and Accept work, mistakes
// are 400s naming the field, another key's crawl is a 404, and the per-process cap answers 503 + Retry-After.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CrawlsRepository } from '../../src/db/crawls-repo.js';
import { tenantScope } from '../../src/db/tenant-scope.js';
import { csvCell } from '../../src/services/use-cases/crawl-export.js';
import { build, crawlToEnd } from '../helper.js';

import { crawlRequestFor, startTestWeb } from '../support/testweb/index.js';

/** RFC 4180 rows back into cells (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  return rows;
}

test('csvCell quotes what needs quoting and defuses formulas', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a, "b"'), '"a, ""b"""');
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell('+1'), "'+1");
  assert.equal(csvCell('@cmd'), "'@cmd");
  assert.equal(csvCell(-3), '-3', 'numbers are numbers');
  assert.equal(csvCell(null), '');
});

test('a crawl exported as JSON lines and CSV', { timeout: 240_000 }, async (t) => {
  const web = await startTestWeb({
    seed: 31,
    hosts: 2,
    pagesPerHost: 20,
    crawlDelaySeconds: 0,
    features: { robots: true, errors: true, duplicates: true, binaries: true, hostile: true },
  });
  t.after(() => web.close());
  const { app, runtime } = await build(t, { env: { EXPORT_CONCURRENCY: '1' } });
  const { id } = await crawlToEnd(app, crawlRequestFor(web, { maxPages: 60 }), { timeoutMs: 180_000 });
  const pages = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages?limit=1000` })).json().items;

  const jsonl = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/export` });
  assert.equal(jsonl.statusCode, 200);
  assert.match(jsonl.headers['content-type'] as string, /^application\/x-ndjson/);
  assert.match(jsonl.headers['content-disposition'] as string, /attachment; filename="crawl-.*\.jsonl"/);
  const lines = jsonl.body
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.deepEqual(lines, pages, 'each line is the pages API item');

  // fields and includes
  const withParts = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${id}/export?fields=id,url,type&include=links,images,html,text&type=HTML`,
  });
  const rich = withParts.body
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(rich.length, pages.filter((page: { type: string }) => page.type === 'HTML').length);
  for (const line of rich) {
    assert.deepEqual(Object.keys(line), [
      'id',
      'url',
      'type',
      'links',
      'images',
      'html',
      'text',
      'truncated',
    ]);
    assert.equal(line.truncated, false);
    assert.equal(line.type, 'HTML');
    const detail = (
      await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages/${line.id}?include=html` })
    ).json();
    assert.deepEqual(
      line.links,
      detail.outlinks.map(({ url, anchor }: { url: string; anchor: string }) => ({ url, anchor })),
    );
    assert.equal(line.html, detail.html);
  }

  // lines that carry bodies are read 50 pages at a time, so an export holds 50 bodies at most; others 500
  assert.ok(pages.length > 50, `${pages.length} pages: more than one batch of bodies`);
  const batches = t.mock.method(CrawlsRepository.prototype, 'pages');
  const limits = async (query: string) => {
    batches.mock.resetCalls();
    const exported = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/export?fields=id${query}` });
    assert.deepEqual(
      exported.body
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).id),
      pages.map((page: { id: number }) => page.id),
      `every page once, in order (${query})`,
    );
    return batches.mock.calls.map((call) => call.arguments[1].limit);
  };
  for (const include of ['html', 'markdown', 'text']) {
    const sizes = await limits(`&include=links,${include}`);
    assert.ok(sizes.length >= 2 && sizes.every((size) => size === 50), `${include}: ${sizes}`);
  }
  assert.deepEqual(await limits('&include=links,images'), [500]);
  batches.mock.restore();

  // CSV: a header and one row per page; Accept picks it too
  const csv = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${id}/export`,
    headers: { accept: 'text/csv' },
  });
  assert.equal(csv.statusCode, 200);
  assert.match(csv.headers['content-type'] as string, /^text\/csv/);
  const rows = parseCsv(csv.body);
  assert.equal(rows[0]![0], 'id');
  assert.equal(rows.length - 1, pages.length);
  const titleAt = rows[0]!.indexOf('title');
  for (const [index, page] of pages.entries()) {
    const cell = rows[index + 1]![titleAt]!;
    const title = (page as { title: string | null }).title ?? '';
    assert.equal(/^[=+\-@\t\r]/.test(title) ? cell.slice(1) : cell, title);
  }

  // mistakes, tenancy, the cap
  const badField = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/export?fields=id,secret` });
  assert.equal(badField.statusCode, 400);
  assert.equal(badField.json().field, 'fields');
  const csvInclude = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${id}/export?format=csv&include=links`,
  });
  assert.equal(csvInclude.statusCode, 400);
  assert.equal(csvInclude.json().field, 'include');
  const missing = await app.inject({
    method: 'GET',
    url: '/v1/crawls/00000000-0000-4000-8000-000000000000/export',
  });
  assert.equal(missing.statusCode, 404);
  const held = await runtime.exports.open(
    id,
    { format: 'jsonl', fields: ['id'], include: [], type: null, status: null, host: null, minScore: null },
    tenantScope(null),
  );
  const iterator = held[Symbol.asyncIterator]();
  await iterator.next(); // one export running: the cap of 1 is reached
  const busy = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/export` });
  assert.equal(busy.statusCode, 503);
  assert.ok(busy.headers['retry-after']);
  await iterator.return?.();
  const free = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/export?fields=id` });
  assert.equal(free.statusCode, 200);
});
