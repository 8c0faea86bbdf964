// GET /v1/crawls/:id/events served by app A while a worker in another runtime (B, same schema) runs the
// crawl: progress arrives, the final status event closes the stream, and a reconnect with Last-Event-ID
// misses no page event.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { build, startCrawl, waitForCrawl } from '../helper.js';
import { BENCHMARK_FEATURES, scopeOf, startTestWeb } from '../support/testweb/index.js';

interface ServerSentEvent {
  id: string | null;
  event: string;
  data: { id: number; status?: string };
}

/**
 * Reads events until `stop` says so (then aborts) or the server ends the stream; says which happened. A stream
 * that does neither within `timeoutMs` fails the test, saying how many events it had sent.
 */
async function readEvents(
  url: string,
  headers: Record<string, string>,
  stop: (events: ServerSentEvent[]) => boolean,
  timeoutMs = 60_000,
): Promise<{ events: ServerSentEvent[]; closedByServer: boolean }> {
  const abort = new AbortController();
  const events: ServerSentEvent[] = [];
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, timeoutMs);
  try {
    return await readUntil(url, headers, stop, abort, events);
  } catch (error) {
    if (!timedOut) throw error;
    throw new Error(
      `the event stream ${url} neither ended nor met its stop within ${timeoutMs} ms; ` +
        `${events.length} events read, the last: ${JSON.stringify(events.at(-1))}`,
      { cause: error },
    );
  } finally {
    clearTimeout(deadline);
  }
}

async function readUntil(
  url: string,
  headers: Record<string, string>,
  stop: (events: ServerSentEvent[]) => boolean,
  abort: AbortController,
  events: ServerSentEvent[],
): Promise<{ events: ServerSentEvent[]; closedByServer: boolean }> {
  const response = await fetch(url, { headers, signal: abort.signal });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { events, closedByServer: true };
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
      }
      if (!fields.has('data')) continue;
      events.push({
        id: fields.get('id') ?? null,
        event: fields.get('event') ?? 'message',
        data: JSON.parse(fields.get('data')!),
      });
      if (stop(events)) {
        abort.abort();
        await reader.cancel().catch(() => {});
        return { events, closedByServer: false };
      }
    }
  }
}

test('live progress of a crawl run by another runtime, resumed with Last-Event-ID', {
  timeout: 90_000,
}, async (t) => {
  const web = await startTestWeb({ seed: 9, hosts: 3, pagesPerHost: 15, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const schema = `t_${randomBytes(5).toString('hex')}`;
  const a = await build(t, { worker: false, env: { DB_SCHEMA: schema } });
  const b = await build(t, { worker: true, env: { DB_SCHEMA: schema } });
  await a.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;

  const id = await startCrawl(a.app, {
    seeds: web.seeds,
    scope: scopeOf(web),
    // slow enough that the first connection ends mid-crawl
    politeness: { delayMs: 60, maxCrawlDelayMs: 60 },
    maxPages: 60,
  });
  const url = `${base}/v1/crawls/${id}/events?pages=true`;

  // first connection: leave after a few page events and a progress event
  const first = await readEvents(
    url,
    {},
    (events) =>
      events.filter((e) => e.event === 'page').length >= 8 && events.some((e) => e.event === 'progress'),
  );
  assert.equal(first.closedByServer, false, 'the crawl ended before the first connection left');
  assert.ok(
    first.events.every((e) => e.id !== null && /^\d+$/.test(e.id)),
    'every event has an id',
  );
  const progress = first.events.find((e) => e.event === 'progress')!;
  assert.equal(progress.data.id, id);
  const lastId = first.events[first.events.length - 1]!.id!;

  // second connection resumes and runs to the end
  const second = await readEvents(url, { 'last-event-id': lastId }, () => false);
  assert.equal(second.closedByServer, true);
  const last = second.events[second.events.length - 1]!;
  assert.equal(last.event, 'status');
  assert.equal(last.data.status, 'completed');
  assert.equal(second.events.filter((e) => e.event === 'status').length, 1);

  // no written page was missed across the two connections
  const seen = new Set(
    [...first.events, ...second.events].filter((e) => e.event === 'page').map((e) => e.data.id),
  );
  const written: number[] = [];
  for (let next: string | null = `/v1/crawls/${id}/pages?limit=1000`; next; ) {
    const page: { items: Array<{ id: number; type: string }>; next: string | null } = (
      await a.app.inject({ method: 'GET', url: next })
    ).json();
    for (const item of page.items) if (item.type !== 'FRONTIER') written.push(item.id);
    next = page.next;
  }
  assert.ok(written.length > 8);
  assert.deepEqual(
    written.filter((pageId) => !seen.has(pageId)),
    [],
    'page events missed',
  );
  await waitForCrawl(b.app, id);

  // tenancy: an unknown (or another key's) crawl is a 404 problem, not a stream
  const missing = await a.app.inject({
    method: 'GET',
    url: '/v1/crawls/00000000-0000-4000-8000-000000000000/events',
  });
  assert.equal(missing.statusCode, 404);
});
