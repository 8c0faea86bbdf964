// An export of a crawl whose pages are larger than EXPORT_BODY_MAX_BYTES (lowered here to 1 MiB, so pages of
// a few MiB stand for the 40–110 MB pages of a hostile site): every include answers 200, every line parses,
// a large page's html, text and markdown are cut at the stated size and the record says `truncated: true`,
// a small page's are whole and `truncated: false`. Bodies that compress a thousandfold, multibyte text cut
// mid-character and a page of nothing but links are among them.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { build, crawlToEnd, eventually } from '../helper.js';

const BODY_MAX_BYTES = 1024 * 1024;
const PAGE_BYTES = 4 * BODY_MAX_BYTES;

function page(title: string, fill: string): string {
  const head = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><main><p>`;
  return `${head}${fill.repeat(Math.ceil(PAGE_BYTES / Buffer.byteLength(fill)))}</p></main></body></html>`;
}

const PAGES: Record<string, string> = {
  '/words': page('words', 'river stone water bank meadow field bridge tower harbour valley '),
  '/multibyte': page('multibyte', 'été 水の流れ «ünïcødé» 🌊 '),
  '/compressible': page('compressible', 'a'),
  '/links': page('links', '<a href="/nowhere">x</a> '),
  '/small':
    '<!doctype html><html><head><title>small</title></head><body><main><p>a small page of a few words</p></main></body></html>',
};

test('a crawl of huge pages exports with every include: cut, marked, parseable', {
  timeout: 300_000,
}, async (t) => {
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const body =
      path === '/'
        ? `<html><body>${Object.keys(PAGES)
            .map((p) => `<a href="${p}">${p}</a>`)
            .join(' ')}</body></html>`
        : PAGES[path];
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { app } = await build(t, {
    env: { EXPORT_BODY_MAX_BYTES: String(BODY_MAX_BYTES), CPU_POOL_THREADS: '1' },
  });
  const { id } = await crawlToEnd(
    app,
    {
      seeds: [`${origin}/`],
      maxPages: 10,
      maxDepth: 1,
      politeness: { delayMs: 0, respectRobots: false },
      fetch: { maxBytes: 2 * PAGE_BYTES },
    },
    { timeoutMs: 180_000 },
  );
  // the main texts are the text job's: wait until it stored them all
  await eventually(
    async () => (await app.inject({ method: 'GET', url: `/v1/crawls/${id}/stats/words` })).json().complete,
    { message: 'the text job to finish', timeoutMs: 180_000, intervalMs: 200 },
  );

  for (const include of ['html', 'text', 'markdown', 'html,text,markdown']) {
    const exported = await app.inject({
      method: 'GET',
      url: `/v1/crawls/${id}/export?fields=id,url&include=${include}&type=HTML`,
    });
    assert.equal(exported.statusCode, 200, `include=${include}: ${exported.body.slice(0, 300)}`);
    const records = exported.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(records.length, 1 + Object.keys(PAGES).length, `include=${include}: every page once`);
    for (const record of records) {
      const path = new URL(record.url).pathname;
      const large = path !== '/small' && path !== '/';
      // the links page's main text is its anchors' words, well within the size: alone, it is whole
      const cut = large && !(include === 'text' && path === '/links');
      assert.equal(record.truncated, cut, `include=${include} ${path}: truncated`);
      for (const part of include.split(',')) {
        const value = record[part];
        assert.equal(typeof value, 'string', `include=${include} ${path}: ${part} is there`);
        // html is cut at a byte count, the text at a count of characters (code points)
        const size = part === 'html' ? Buffer.byteLength(value.replace(/\uFFFD$/, '')) : [...value].length;
        assert.ok(size <= BODY_MAX_BYTES, `include=${include} ${path}: ${part} of ${size}`);
        if (part === 'html' && large) {
          // the body's first BODY_MAX_BYTES, decoded (a character cut in two ends the text)
          const served = PAGES[path]!;
          const kept = value.replace(/\uFFFD$/, '');
          assert.equal(kept, served.slice(0, kept.length), `${path}: html is the body's beginning`);
          assert.ok(Buffer.byteLength(kept) > BODY_MAX_BYTES - 4, `${path}: html is cut at the size`);
        }
        if (part === 'html' && path === '/small') assert.equal(value, PAGES['/small']);
        if (part !== 'html' && large && path !== '/links' && path !== '/compressible') {
          assert.ok(value.length > BODY_MAX_BYTES / 8, `${path}: ${part} holds the page's first text`);
        }
      }
    }
  }
});
