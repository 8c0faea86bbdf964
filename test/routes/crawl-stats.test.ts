import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import type { FastifyInstance } from 'fastify';
import { extractMainContent } from '../../src/crawler/extract/index.js';
import { WordCounter } from '../../src/crawler/stats/index.js';
import { tokenize } from '../../src/crawler/text/tokenize.js';
import { queueCrawlText } from '../../src/jobs/producers.js';
import { CRAWL_TEXT_QUEUE } from '../../src/jobs/queues.js';
import type { Runtime } from '../../src/runtime.js';
import { build, crawlToEnd, eventually, startCrawl } from '../helper.js';
import { BENCHMARK_FEATURES, crawlRequestFor, startTestWeb, type TestWeb } from '../support/testweb/index.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 5, hosts: 2, pagesPerHost: 20, features: BENCHMARK_FEATURES });
});
after(() => web.close());

const crawlOf = (extra: Record<string, unknown> = {}) => crawlRequestFor(web, extra);

async function get(app: FastifyInstance, url: string) {
  const response = await app.inject({ method: 'GET', url });
  assert.equal(response.statusCode, 200, `${url} → ${response.body}`);
  return response;
}

/** Polls the word statistics until the text job has counted every page of the ended crawl. */
async function waitForWords(app: FastifyInstance, id: string, timeoutMs = 30_000) {
  return eventually(
    async () => {
      const stats = (await get(app, `/v1/crawls/${id}/stats/words?top=10000`)).json();
      if (!stats.complete) throw new Error(`still incomplete: ${JSON.stringify(stats)}`);
      return stats;
    },
    { message: `the word stats of ${id} to be complete`, timeoutMs, intervalMs: 100 },
  );
}

async function htmlPageIds(runtime: Runtime, id: string): Promise<number[]> {
  const result = await runtime.db.pool.query<{ id: number }>(
    "SELECT id FROM pages WHERE crawl_id = $1 AND type = 'HTML' ORDER BY id",
    [id],
  );
  return result.rows.map((row) => row.id);
}

function assertWellFormedSvg(svg: string): void {
  const verdict = XMLValidator.validate(svg);
  assert.equal(verdict, true, JSON.stringify(verdict));
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
}

test('a crawl’s main text is extracted by the text job and its words counted once, with Zipf ranks and plots', async (t) => {
  const { app, runtime } = await build(t);
  const status = await crawlToEnd(app, crawlOf({ maxPages: 20 }));
  const { id } = status;
  assert.deepEqual((status.request as { extract: unknown }).extract, { enabled: true, method: 'auto' });

  const stats = await waitForWords(app, id);
  const pageIds = await htmlPageIds(runtime, id);
  assert.ok(pageIds.length > 5, `only ${pageIds.length} HTML pages`);
  assert.equal(stats.htmlPages, pageIds.length);
  assert.equal(stats.pagesCounted, pageIds.length);
  assert.equal(stats.method, 'auto');

  // The stored main text is the extractor's output on the stored body; the totals are the sum over pages.
  const expected = new WordCounter();
  const texts = new Map<number, string>();
  for (const pageId of pageIds) {
    const page = (await get(app, `/v1/crawls/${id}/pages/${pageId}?include=html,text`)).json();
    assert.equal(typeof page.text, 'string');
    assert.equal(page.text, extractMainContent(page.html, { method: 'auto' }).text);
    texts.set(pageId, page.text);
    expected.add(tokenize(page.text));
  }
  assert.ok(expected.totalWords > 100, 'the test web pages have main text');
  assert.equal(stats.totalWords, expected.totalWords);
  assert.equal(stats.distinctWords, expected.distinctWords);
  assert.equal(stats.words.length, Math.min(10_000, expected.distinctWords));
  // Ranks by the definition: frequency descending, ties alphabetical, rank 1…n, zipf = r·f/N.
  stats.words.forEach(
    (entry: { word: string; rank: number; frequency: number; zipf: number }, index: number) => {
      assert.equal(entry.rank, index + 1);
      assert.equal(entry.frequency, expected.frequency(entry.word), entry.word);
      assert.equal(entry.zipf, (entry.rank * entry.frequency) / expected.totalWords);
      const previous = stats.words[index - 1];
      if (previous) {
        assert.ok(
          previous.frequency > entry.frequency ||
            (previous.frequency === entry.frequency && previous.word < entry.word),
          `${previous.word} before ${entry.word}`,
        );
      }
    },
  );
  const top3 = (await get(app, `/v1/crawls/${id}/stats/words?top=3`)).json();
  assert.deepEqual(top3.words, stats.words.slice(0, 3));

  const wordsSvg = await get(app, `/v1/crawls/${id}/stats/words.svg?top=50`);
  assert.match(wordsSvg.headers['content-type'] as string, /^image\/svg\+xml/);
  assertWellFormedSvg(wordsSvg.body);
  assert.match(wordsSvg.body, />rank r \(log scale\)</);
  assert.match(wordsSvg.body, />frequency f \(log scale\)</);
  assert.match(wordsSvg.body, />Zipf: f = 0\.1 · N \/ r</);
  assert.match(wordsSvg.body, />observed \(top 50 words\)</);
  const loadSvg = await get(app, `/v1/crawls/${id}/stats/load-times.svg`);
  assert.match(loadSvg.headers['content-type'] as string, /^image\/svg\+xml/);
  assertWellFormedSvg(loadSvg.body);
  assert.match(loadSvg.body, />time \(log scale\)</);
  // one median rule: the plot's medians are the status endpoint's
  const ms = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 1 });
  const timings = status as unknown as { loadMs: { p50: number }; queueWaitMs: { p50: number } };
  assert.match(
    loadSvg.body,
    new RegExp(`>load time: n = ${status.pagesFetched}, median ${ms(timings.loadMs.p50)} ms`),
  );
  assert.match(
    loadSvg.body,
    new RegExp(`>queue wait: n = ${status.pagesFetched}, median ${ms(timings.queueWaitMs.p50)} ms`),
  );
  assert.match(loadSvg.body, new RegExp(`\\(${status.pagesFetched} pages fetched\\)`));

  // The job again (by its own id, as the endpoint would queue it) and the job's work run directly: nothing
  // more is counted.
  const jobId = await queueCrawlText(runtime.jobs, id, 'refresh');
  assert.ok(jobId);
  const queue = runtime.jobs.queue(CRAWL_TEXT_QUEUE);
  // read again once completed: a job object fetched before its completion carries no return value yet
  const repeated = await eventually(
    async () => {
      const job = await queue.getJob(jobId);
      return job && (await job.isCompleted()) ? await queue.getJob(jobId) : undefined;
    },
    { message: `the repeated text job ${jobId} to finish`, timeoutMs: 60_000, intervalMs: 100 },
  );
  assert.equal(repeated?.returnvalue.pagesCounted, 0);
  assert.deepEqual(await runtime.crawlStats.countText(id), { pagesCounted: 0, pagesFailed: 0 });
  const unchanged = (await get(app, `/v1/crawls/${id}/stats/words?top=10000`)).json();
  assert.deepEqual(unchanged, stats);

  // Forget the extraction: include=text extracts on the fly without storing, then two runs at once count each
  // page once between them.
  await runtime.db.pool.query('UPDATE page_contents SET main_text = NULL, text_extracted_at = NULL');
  await runtime.db.pool.query('DELETE FROM crawl_word_stats');
  const [firstId] = pageIds;
  const onTheFly = (await get(app, `/v1/crawls/${id}/pages/${firstId}?include=text`)).json();
  assert.equal(onTheFly.text, texts.get(firstId!));
  assert.equal(onTheFly.html, undefined, 'html only when asked for');
  const stored = await runtime.db.pool.query(
    'SELECT main_text, text_extracted_at FROM page_contents WHERE page_id = $1',
    [firstId],
  );
  assert.deepEqual(stored.rows[0], { main_text: null, text_extracted_at: null });
  const runs = await Promise.all([runtime.crawlStats.countText(id), runtime.crawlStats.countText(id)]);
  assert.equal(runs[0].pagesCounted + runs[1].pagesCounted, pageIds.length);
  const recounted = (await get(app, `/v1/crawls/${id}/stats/words?top=10000`)).json();
  assert.deepEqual(recounted, stats);

  // Stale statistics of an ended crawl: the endpoint answers with what is stored and queues the job.
  await runtime.db.pool.query('UPDATE page_contents SET main_text = NULL, text_extracted_at = NULL');
  await runtime.db.pool.query('DELETE FROM crawl_word_stats');
  const stale = (await get(app, `/v1/crawls/${id}/stats/words`)).json();
  assert.equal(stale.complete, false);
  assert.ok(stale.pagesCounted < pageIds.length);
  assert.deepEqual(await waitForWords(app, id), stats);

  // A text stored before it was counted (as the crawl stores each page's) is counted as stored: the job
  // reads no body for it, so bodies that say something else change nothing.
  await runtime.db.pool.query(
    "UPDATE page_contents SET text_extracted_at = NULL, html = convert_to('<p>another page</p>', 'UTF8')",
  );
  await runtime.db.pool.query('DELETE FROM crawl_word_stats');
  assert.deepEqual(await runtime.crawlStats.countText(id), { pagesCounted: pageIds.length, pagesFailed: 0 });
  assert.deepEqual((await get(app, `/v1/crawls/${id}/stats/words?top=10000`)).json(), stats);
});

test('extract options: validated on POST, disabled extraction answers 409, unknown crawls 404', async (t) => {
  const { app } = await build(t, { worker: false });
  const bad = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: crawlOf({ extract: { method: 'magic' } }),
  });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().field, 'extract.method');
  const id = await startCrawl(app, crawlOf({ extract: { enabled: false, method: 'cetd' } }));
  const status = (await get(app, `/v1/crawls/${id}`)).json();
  assert.deepEqual(status.request.extract, { enabled: false, method: 'cetd' });
  const disabled = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/stats/words` });
  assert.equal(disabled.statusCode, 409);
  assert.equal(disabled.json().field, 'extract.enabled');
  const missing = '00000000-0000-4000-8000-000000000000';
  for (const path of ['stats/words', 'stats/words.svg', 'stats/load-times.svg']) {
    const response = await app.inject({ method: 'GET', url: `/v1/crawls/${missing}/${path}` });
    assert.equal(response.statusCode, 404, path);
  }
  const badInclude = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages/1?include=html,pdf` });
  assert.equal(badInclude.statusCode, 400);
  assert.equal(badInclude.json().field, 'include');
});
