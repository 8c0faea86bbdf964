// Webhooks against a loopback receiver: every event exactly once, in order, with a valid signature; a
// receiver that fails the first deliveries still gets the event; a receiver that does not answer does not
// hold up the crawl. WEBHOOK_RETRY_BASE_MS is small so the retries come within the test.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { pino } from 'pino';
import { CRAWL_QUEUE, WEBHOOK_QUEUE } from '../../src/jobs/queues.js';
import { openRuntime } from '../../src/runtime.js';
import { build, crawlToEnd, eventually, startCrawl, testConfig } from '../helper.js';
import { BENCHMARK_FEATURES, startTestWeb } from '../support/testweb/index.js';

interface Received {
  headers: IncomingMessage['headers'];
  raw: string;
  body: {
    id: number;
    event: string;
    attempt: number;
    occurredAt: string;
    sentAt: string;
    pages?: Array<{ id: number }>;
    crawl: { status: string; pagesFetched: number };
  };
}

async function receiver(
  t: { after(fn: () => unknown): void },
  answer: (index: number, response: ServerResponse) => void,
) {
  const received: Received[] = [];
  let requests = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const index = requests++;
      response.on('finish', () => {
        if (response.statusCode < 300)
          received.push({ headers: request.headers, raw, body: JSON.parse(raw) });
      });
      answer(index, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  await eventually(check, { message: what, timeoutMs });
}

/** A crawl of `seeds` that reports to the webhook at `url`. */
function hookedCrawl(seeds: string[], hosts: string[], url: string) {
  return {
    seeds,
    scope: { allowedDomains: hosts.map((origin) => new URL(origin).host) },
    politeness: { delayMs: 0, maxCrawlDelayMs: 0 },
    maxPages: 40,
    workers: 1,
    webhook: { url, headers: { 'x-team': 'search' }, secret: 's3cret-s3cret' },
  };
}

test('a receiver gets every event once, in order, signed; one failing twice still gets it', {
  timeout: 60_000,
}, async (t) => {
  const web = await startTestWeb({ seed: 7, hosts: 2, pagesPerHost: 12, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const { app } = await build(t, { env: { WEBHOOK_RETRY_BASE_MS: '50' } });
  // the first two requests fail: the started event is delivered on its third attempt
  const hook = await receiver(t, (index, response) => response.writeHead(index < 2 ? 503 : 204).end());
  const final = await crawlToEnd(app, hookedCrawl(web.seeds, web.hosts, hook.url));
  const { id } = final;
  await until(() => hook.received.some((r) => r.body.event === 'completed'), 'the completed event');

  const events = hook.received.map((r) => r.body.event);
  assert.equal(events[0], 'started');
  assert.equal(events[events.length - 1], 'completed');
  assert.ok(
    events.slice(1, -1).every((event) => event === 'page'),
    events.join(),
  );
  const ids = hook.received.map((r) => r.body.id);
  assert.equal(new Set(ids).size, ids.length, 'an event delivered twice');
  for (const r of hook.received) {
    const timestamp = r.headers['x-trawl-timestamp'] as string;
    const expected = `sha256=${createHmac('sha256', 's3cret-s3cret').update(`${timestamp}.${r.raw}`).digest('hex')}`;
    assert.equal(r.headers['x-trawl-signature'], expected);
    assert.equal(r.headers['x-team'], 'search');
    assert.equal(r.headers['x-trawl-delivery'], String(r.body.id));
  }
  // the page events carry each written page once
  const paged = hook.received.flatMap((r) => r.body.pages?.map((page) => page.id) ?? []);
  assert.equal(new Set(paged).size, paged.length);
  const counts = final.counts as Record<string, number>;
  const written = Object.entries(counts).reduce((sum, [type, n]) => (type === 'FRONTIER' ? sum : sum + n), 0);
  assert.equal(paged.length, written);

  const log = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}/webhooks` })).json();
  const started = log.items.filter((d: { event: string }) => d.event === 'started');
  assert.deepEqual(
    started.map((d: { attempt: number; status: number; outcome: string }) => [
      d.attempt,
      d.status,
      d.outcome,
    ]),
    [
      [1, 503, 'retrying'],
      [2, 503, 'retrying'],
      [3, 204, 'delivered'],
    ],
  );
  // the secret is never shown back
  assert.equal(final.request && (final.request as { webhook: { secret: string } }).webhook.secret, '(set)');

  // the log pages by the shared cursor: following `next` two at a time gives the whole log once, in order
  const paged2: Array<{ id: number }> = [];
  for (let url: string | null = `/v1/crawls/${id}/webhooks?limit=2`; url; ) {
    const page: { statusCode: number; body: string; json(): unknown } = await app.inject({
      method: 'GET',
      url,
    });
    assert.equal(page.statusCode, 200, page.body);
    const body = page.json() as { items: Array<{ id: number }>; next: string | null };
    assert.ok(body.items.length <= 2);
    paged2.push(...body.items);
    assert.ok(!body.next?.includes('after='), body.next ?? '');
    url = body.next;
  }
  assert.deepEqual(
    paged2.map((d) => d.id),
    log.items.map((d: { id: number }) => d.id),
  );
  // after= (a delivery id), the log's older cursor, is kept as an alias
  const afterFirst = await app.inject({
    method: 'GET',
    url: `/v1/crawls/${id}/webhooks?after=${log.items[0].id}`,
  });
  assert.deepEqual(
    afterFirst.json().items.map((d: { id: number }) => d.id),
    log.items.slice(1).map((d: { id: number }) => d.id),
  );
  const firstPage = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}/webhooks?limit=1` })).json();
  const both = await app.inject({ method: 'GET', url: `${firstPage.next}&after=0` });
  assert.equal(both.statusCode, 400, both.body);
  assert.match(both.headers['content-type'] as string, /^application\/problem\+json/);
  assert.equal(both.json().field, 'after');
});

test('a receiver that does not answer does not hold up the crawl', { timeout: 60_000 }, async (t) => {
  const web = await startTestWeb({ seed: 8, hosts: 2, pagesPerHost: 10, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const { app } = await build(t, { env: { WEBHOOK_RETRY_BASE_MS: '50' } });
  const held: ServerResponse[] = [];
  let release = false;
  const hook = await receiver(t, (_index, response) => {
    if (release) response.writeHead(204).end();
    else held.push(response);
  });
  await crawlToEnd(app, hookedCrawl(web.seeds, web.hosts, hook.url));
  // the crawl finished while the receiver still sat on the first delivery
  assert.equal(hook.received.length, 0);
  assert.ok(held.length >= 1);
  release = true;
  for (const response of held) response.writeHead(204).end();
  await until(() => hook.received.some((r) => r.body.event === 'completed'), 'the completed event');
  assert.equal(hook.received[0]?.body.event, 'started');
});

test('a retried event carries the crawl as it was when the event happened', {
  timeout: 60_000,
}, async (t) => {
  const web = await startTestWeb({ seed: 9, hosts: 1, pagesPerHost: 8, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const { app } = await build(t, { env: { WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_MAX_ATTEMPTS: '14' } });
  // every delivery fails until the crawl has completed: the started event is sent again after its end
  let crawlEnded = false;
  const hook = await receiver(t, (_index, response) => response.writeHead(crawlEnded ? 204 : 503).end());
  const final = await crawlToEnd(app, hookedCrawl(web.seeds, web.hosts, hook.url));
  crawlEnded = true;
  await until(() => hook.received.some((r) => r.body.event === 'completed'), 'the completed event');
  const started = hook.received.find((r) => r.body.event === 'started');
  assert.ok(started, 'the started event');
  assert.ok(started.body.attempt > 1, `delivered on attempt ${started.body.attempt}`);
  assert.equal(started.body.crawl.status, 'running', started.raw);
  assert.ok(Date.parse(started.body.sentAt) > Date.parse(final.finishedAt as string), started.raw);
  const completed = hook.received.find((r) => r.body.event === 'completed');
  assert.equal(completed?.body.crawl.status, 'completed');
  assert.equal(completed?.body.crawl.pagesFetched, final.pagesFetched);
});

test('a crawl cancelled while still queued sends its cancelled event', { timeout: 60_000 }, async (t) => {
  const hook = await receiver(t, (_index, response) => response.writeHead(204).end());
  const schema = `t_${randomBytes(5).toString('hex')}`;
  // no worker yet: the crawl stays queued, and the API records the cancel itself
  const { app, runtime } = await build(t, { worker: false, env: { DB_SCHEMA: schema } });
  const id = await startCrawl(app, hookedCrawl(['http://127.0.0.1:9/'], ['http://127.0.0.1:9'], hook.url));
  const cancelled = await app.inject({ method: 'DELETE', url: `/v1/crawls/${id}` });
  assert.equal(cancelled.statusCode, 200, cancelled.body);
  // a worker comes up later: it delivers the event and finds nothing to crawl
  await build(t, { worker: true, env: { DB_SCHEMA: schema, WEBHOOK_RETRY_BASE_MS: '50' } });
  await until(() => hook.received.length > 0, 'the cancelled event');
  // No other event may follow. The worker had its chance to send one once its runner job ran (and found the
  // crawl cancelled) and no webhook delivery is left queued or pending.
  await eventually(
    async () => {
      const queued = await Promise.all(
        [CRAWL_QUEUE, WEBHOOK_QUEUE].map((name) =>
          runtime.jobs.queue(name).getJobCounts('active', 'waiting', 'delayed'),
        ),
      );
      const pending = await runtime.db.pool.query(
        "SELECT 1 FROM webhook_events WHERE crawl_id = $1 AND state = 'pending'",
        [id],
      );
      const idle = queued.every((counts) => Object.values(counts).every((count) => count === 0));
      return idle && pending.rowCount === 0 ? true : undefined;
    },
    { message: 'the runner and webhook jobs to be done', timeoutMs: 60_000 },
  );
  assert.deepEqual(
    hook.received.map((delivery) => delivery.body.event),
    ['cancelled'],
  );
});

test('a worker stops within its grace while a receiver sits on a delivery; the event goes out later', {
  timeout: 120_000,
}, async (t) => {
  const held: ServerResponse[] = [];
  let answering = false;
  const hook = await receiver(t, (_index, response) => {
    if (answering) response.writeHead(204).end();
    else held.push(response);
  });
  const schema = `t_${randomBytes(5).toString('hex')}`;
  const { app, runtime } = await build(t, { worker: false, env: { DB_SCHEMA: schema } });
  const id = await startCrawl(app, hookedCrawl(['http://127.0.0.1:9/'], ['http://127.0.0.1:9'], hook.url));
  await app.inject({ method: 'DELETE', url: `/v1/crawls/${id}` });
  // a delivery's own deadline far past the shutdown grace: the grace must be what ends it
  const worker = await openRuntime(
    testConfig({ DB_SCHEMA: schema, WEBHOOK_TIMEOUT_MS: '90000', SHUTDOWN_GRACE_MS: '500' }),
    pino({ level: 'silent' }),
  );
  let closed = false;
  t.after(async () => {
    if (!closed) await worker.close();
  });
  worker.startWorker();
  await until(() => held.length === 1, 'the delivery to reach the receiver');

  const startedMs = performance.now();
  await worker.close();
  closed = true;
  const closeMs = performance.now() - startedMs;
  t.diagnostic(`closed in ${Math.round(closeMs)} ms`);
  // the grace and the close of queues and pools; without a bound, the 90 s delivery deadline
  assert.ok(closeMs < 45_000, `the worker took ${Math.round(closeMs)} ms to close`);
  // the cut attempt is no attempt: nothing logged, the event still pending and queued for the next worker
  const attempts = await runtime.db.pool.query('SELECT 1 FROM webhook_deliveries WHERE crawl_id = $1', [id]);
  assert.equal(attempts.rowCount, 0);

  answering = true;
  await build(t, { worker: true, env: { DB_SCHEMA: schema } });
  await until(() => hook.received.length > 0, 'the event from the next worker');
  assert.deepEqual(
    hook.received.map((delivery) => ({ event: delivery.body.event, attempt: delivery.body.attempt })),
    [{ event: 'cancelled', attempt: 1 }],
  );
});
