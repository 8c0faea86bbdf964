// The crawl-text job on a page larger than the crawl parses: its main text and words come from the body's
// first PARSE_MAX_BYTES only (the words past them are never counted, the stored text is bounded), and the
// extraction runs on the CPU pool's thread, not on the event loop. bench/memory.ts measures the same at
// 100 MiB a page.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { PARSE_MAX_BYTES } from '../../src/crawler/engine/crawl-runner.js';
import { build, crawlToEnd, eventually } from '../helper.js';

/** A page of 1.5 × PARSE_MAX_BYTES: one word before the cap, another only after it. */
function hugePage(): Buffer {
  const head = '<!doctype html><html><head><title>huge</title></head><body><main><p>openingword ';
  const paragraph = 'river stone water bank meadow field bridge tower harbour valley ';
  const fill = paragraph.repeat(Math.ceil((1.5 * PARSE_MAX_BYTES) / paragraph.length));
  return Buffer.from(`${head}${fill}closingword</p></main></body></html>`);
}

test('the text job reads a huge page’s first PARSE_MAX_BYTES, on the CPU pool', {
  timeout: 300_000,
}, async (t) => {
  const body = hugePage();
  const server = createServer((request, response) => {
    if (request.url !== '/') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;

  const { app, runtime } = await build(t, { env: { CPU_POOL_THREADS: '1' } });
  const { id } = await crawlToEnd(
    app,
    {
      seeds: [`http://127.0.0.1:${port}/`],
      maxPages: 1,
      politeness: { delayMs: 0, respectRobots: false },
      fetch: { maxBytes: 2 * PARSE_MAX_BYTES },
    },
    { timeoutMs: 120_000 },
  );

  const stats = await eventually(
    async () => {
      const words = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}/stats/words?top=100` })).json();
      return words.complete && words.pagesCounted === 1 ? words : null;
    },
    { message: 'the huge page to be counted', timeoutMs: 180_000, intervalMs: 200 },
  );
  const counted = new Map<string, number>(
    stats.words.map((word: { word: string; frequency: number }) => [word.word, word.frequency]),
  );
  assert.equal(counted.get('openingword'), 1, 'the words before the cap are counted');
  assert.equal(counted.has('closingword'), false, 'the words after the cap are not');
  assert.ok(stats.totalWords > 0 && stats.totalWords * 5 < PARSE_MAX_BYTES, `${stats.totalWords} words`);

  const stored = await runtime.db.pool.query<{ chars: number; bytes: number }>(
    `SELECT length(c.main_text) AS chars, p.bytes
       FROM pages p JOIN page_contents c ON c.page_id = p.id WHERE p.crawl_id = $1`,
    [id],
  );
  assert.equal(stored.rows[0]?.bytes, body.length, 'the body is stored whole');
  assert.ok((stored.rows[0]?.chars ?? 0) <= PARSE_MAX_BYTES, `main text of ${stored.rows[0]?.chars} chars`);
  assert.ok(runtime.cpu.tasksOnThreads.total >= 1, 'the extraction ran on the pool’s thread');
});
