// CpuPool on real worker threads: a fault comes back as the TrawlError it was, a task past its deadline is
// stopped (422 while it ran, 503 while the pool had no room for it), and the pool goes on working afterwards;
// a graph's PageRank crosses to a thread without its names and comes back the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GraphBuilder, pageRank } from '../../src/crawler/rank/index.js';
import { TrawlError } from '../../src/errors.js';
import { CpuPool } from '../../src/services/pools/cpu-pool.js';
import { type ExtractTask, graphArrays } from '../../src/services/pools/cpu-tasks.js';
import { Rng } from '../support/testweb/random.js';

const SMALL: ExtractTask = { html: '<p>river harbour signal lantern</p>', options: {} };

function largePage(chars: number): string {
  const rng = new Rng(99);
  const paragraphs: string[] = [];
  for (let length = 0; length < chars; length += 100)
    paragraphs.push(`<div><p>${rng.words(12).join(' ')}</p></div>`);
  return `<html><body>${paragraphs.join('')}</body></html>`;
}

/** The extract task's answer: a JSON body. */
const textOf = (body: Uint8Array): string => JSON.parse(new TextDecoder().decode(body)).text;

/**
 * Runs tiny tasks until one succeeds: a thread is up (it takes a while to start under tsx). A new thread's first
 * task can also overrun a short deadline on a loaded machine, even on a tiny page, which stops
 * that thread and starts another: that too only means "not warm yet".
 */
async function warmUp(pool: CpuPool): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      await pool.run('extract', SMALL, 'html');
      return;
    } catch (error) {
      const notWarm =
        error instanceof TrawlError && (error.code === 'unavailable' || error.code === 'unprocessable');
      assert.ok(notWarm, String(error));
    }
  }
  assert.fail('no thread came up');
}

test('a TrawlError thrown on a thread is thrown again here, as inline', async (t) => {
  const pools = [
    new CpuPool({ threads: 1, timeoutMs: 120_000, inlineMaxChars: 0 }),
    new CpuPool({ threads: 0, timeoutMs: 1 }),
  ];
  t.after(() => Promise.all(pools.map((pool) => pool.close())));
  for (const pool of pools) {
    await assert.rejects(
      pool.run(
        'score',
        {
          userAgent: 'trawl',
          scorer: { similarTo: [{ text: 'river' }], corpus: { documentCount: 0, frequencies: new Map() } },
          documents: [{ text: 'river harbour' }],
        },
        'documents',
      ),
      (error: unknown) => {
        assert.ok(error instanceof TrawlError);
        assert.deepEqual(
          { code: error.code, field: error.field, message: error.message },
          { code: 'validation', field: 'corpus', message: 'The corpus has no documents' },
        );
        return true;
      },
    );
    await assert.rejects(
      pool.run('extract', { html: '<p>x</p>', options: { baseUrl: 'not a url' } }, 'html'),
      {
        name: 'TrawlError',
        code: 'validation',
        field: 'baseUrl',
      },
    );
    // a stored corpus crosses to the thread as shared bytes and scores as it does inline
    const result = await pool.run(
      'score',
      {
        userAgent: 'trawl',
        scorer: {
          similarTo: [{ text: 'tennis court' }],
          corpus: { documentCount: 3, frequencies: new Map([['tennis', 1]]) },
        },
        documents: [
          { text: 'tennis racket' },
          // the title is in the text stream once and weighs ×5: tf(tennis) = 1 + 1 + 4, all on one term
          { html: '<title>Tennis</title><p>tennis</p>', url: 'https://ex.org/' },
        ],
      },
      'documents',
    );
    assert.deepEqual(result, { kind: 'tfidf', scores: [0.5, Math.SQRT1_2], titles: ['', 'Tennis'] });
  }
  assert.equal(pools[0]!.tasksOnThreads.total, 3);
});

test('past the deadline a running task is stopped: a 422 on its field; the pool then works on', async (t) => {
  const pool = new CpuPool({ threads: 1, timeoutMs: 1000, inlineMaxChars: 0 });
  t.after(() => pool.close());
  await warmUp(pool);
  // Four 5 MB pages take seconds to parse, several times the deadline; reaching the thread (the input cloned
  // there) takes a small part of it.
  const html = largePage(5_000_000);
  const documents = Array.from({ length: 4 }, (_, i) => ({ html, url: `https://ex.org/${i}` }));
  const task = { userAgent: 'trawl', scorer: { query: 'river' }, documents };
  await assert.rejects(pool.run('score', task, 'documents'), (error: unknown) => {
    assert.ok(error instanceof TrawlError);
    assert.equal(error.code, 'unprocessable', error.message);
    assert.equal(error.field, 'documents');
    assert.deepEqual(error.detail, { timeoutMs: 1000 });
    return true;
  });
  // the stopped thread is replaced
  await warmUp(pool);
});

test('a task the queue has no room for is a 503 at once; the others complete', async (t) => {
  const pool = new CpuPool({ threads: 1, timeoutMs: 120_000, inlineMaxChars: 0 });
  t.after(() => pool.close());
  const outcomes = await Promise.allSettled(
    Array.from({ length: 12 }, () => pool.run('extract', SMALL, 'html')),
  );
  const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
  assert.equal(refused.length, 3, 'one thread running and 8 waiting: the 10th to 12th are refused');
  for (const outcome of refused) {
    assert.ok(
      outcome.reason instanceof TrawlError && outcome.reason.code === 'unavailable',
      String(outcome.reason),
    );
  }
  for (const outcome of outcomes) {
    if (outcome.status === 'fulfilled') assert.equal(textOf(outcome.value), 'river harbour signal lantern');
  }
});

test("throughput tasks are never refused for the queue's bound, nor are others on their account", async (t) => {
  const pool = new CpuPool({ threads: 1, timeoutMs: 120_000 });
  t.after(() => pool.close());
  await warmUp(pool);
  const before = pool.tasksOnThreads.total;
  const page = '<html><body><nav>menu</nav><p>river harbour signal lantern beacon</p></body></html>';
  // a crawl's pages in flight: far more than the bound, none refused
  const texts = Promise.all(
    Array.from({ length: 40 }, () =>
      pool.run(
        'readPage',
        { html: page, url: 'http://site.test/', method: 'auto', robotsToken: 'trawl', words: false },
        'html',
        { throughput: true, inlineMaxChars: 0 },
      ),
    ),
  );
  // and a request's task behind them is not refused on their account
  const request = pool.run('extract', { html: largePage(100_000), options: {} }, 'html');
  assert.deepEqual(
    new Set((await texts).map((read) => read.mainText)),
    new Set(['river harbour signal lantern beacon']),
  );
  assert.ok(textOf(await request).length > 0);
  assert.equal(pool.tasksOnThreads.total - before, 41, 'every task ran on the thread');
});

test('after close a pooled task is a 503, an inline one still runs', async () => {
  const pool = new CpuPool({ threads: 1, timeoutMs: 120_000 });
  await pool.close();
  await assert.rejects(pool.run('extract', { html: largePage(100_000), options: {} }, 'html'), {
    code: 'unavailable',
  });
  assert.equal(textOf(await pool.run('extract', SMALL, 'html')), 'river harbour signal lantern');
});

test("a crawl graph's PageRank on a thread is the ranks pageRank gives inline, bit for bit", async (t) => {
  const pool = new CpuPool({ threads: 1, timeoutMs: 120_000, inlineMaxChars: 0 });
  t.after(() => pool.close());
  const builder = new GraphBuilder({ selfLoops: 'drop', duplicateEdges: 'drop' });
  const rng = new Rng(7);
  for (let v = 0; v < 500; v++) builder.addVertex(`https://example.org/${v}`);
  for (let e = 0; e < 3000; e++) builder.addEdgeById(rng.int(500), rng.int(500));
  const graph = builder.build();
  const options = { damping: 0.85, epsilon: 1e-10 };
  const inline = pageRank(graph, options);
  await warmUp(pool);
  const before = pool.tasksOnThreads.total;
  const onThread = await pool.run('pageRank', { graph: graphArrays(graph), options }, 'graph');
  assert.equal(pool.tasksOnThreads.total, before + 1, 'it ran on a thread');
  assert.deepEqual({ ...onThread, ranks: [...onThread.ranks] }, { ...inline, ranks: [...inline.ranks] });
});

test("a PageRank that never converges is stopped at the call's own deadline, and the pool goes on", async (t) => {
  // inlineMaxChars 0: the warm-up's tiny task runs on the thread too, so the thread is up when the deadline runs
  const pool = new CpuPool({ threads: 1, timeoutMs: 600_000, inlineMaxChars: 0 });
  t.after(() => pool.close());
  // damping 1 on a star (hub ⇄ leaves) is periodic: the ranks swing between hub and leaves forever
  const builder = new GraphBuilder();
  for (let leaf = 0; leaf < 25_000; leaf++) {
    builder.addEdge('hub', `leaf${leaf}`);
    builder.addEdge(`leaf${leaf}`, 'hub');
  }
  const task = { graph: graphArrays(builder.build()), options: { damping: 1, maxIterations: 100_000 } };
  await warmUp(pool);
  const started = performance.now();
  await assert.rejects(pool.run('pageRank', task, 'maxIterations', { timeoutMs: 1000 }), (error: unknown) => {
    assert.ok(error instanceof TrawlError);
    assert.equal(error.code, 'unprocessable');
    assert.equal(error.field, 'maxIterations');
    return true;
  });
  // a generous bound on a hang: the whole run takes about a minute
  assert.ok(performance.now() - started < 30_000, 'stopped near its 1 s deadline');
  const small = await pool.run(
    'pageRank',
    { ...task, options: { damping: 0.85, maxIterations: 100_000 } },
    'x',
  );
  assert.equal(small.converged, true);
});

test('a task past the thread’s heap limit is a 422 on its field; the thread is replaced', async (t) => {
  const pool = new CpuPool({ threads: 1, timeoutMs: 600_000, inlineMaxChars: 0, heapMb: 96 });
  t.after(() => pool.close());
  await warmUp(pool);
  await assert.rejects(pool.run('extract', { html: largePage(5_000_000), options: {} }, 'html'), (error) => {
    assert.ok(error instanceof TrawlError, String(error));
    assert.equal(error.code, 'unprocessable', error.message);
    assert.equal(error.field, 'html');
    assert.deepEqual(error.detail, { heapMb: 96 });
    return true;
  });
  await warmUp(pool);
});
