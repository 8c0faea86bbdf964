// WebhookEventSink's page.changed events: a recrawl's new, changed and gone pages (never its unchanged ones),
// each told once, in batches of at most MAX_CHANGES_PER_EVENT, after the page event that wrote them and
// before the crawl's end; a crawl that recrawls nothing sends none.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeWebhook } from '../../../src/crawler/crawl-request.js';
import type { ChangeClass } from '../../../src/crawler/vocabulary.js';
import type { WebhooksRepository } from '../../../src/db/webhooks-repo.js';
import type { JobBackend } from '../../../src/jobs/queues.js';
import { MAX_CHANGES_PER_EVENT, WebhookEventSink } from '../../../src/jobs/webhook-events.js';

function sinkRecording() {
  const events: Array<{ event: string; data: { pages?: Array<{ id: number; change?: string }> } }> = [];
  const repository = {
    config: async () => normalizeWebhook({ url: 'http://127.0.0.1:1/hook' }),
    insertEvent: async (_crawlId: string, event: string, data: object) => {
      events.push({ event, data: data as (typeof events)[number]['data'] });
      return events.length;
    },
  } as unknown as WebhooksRepository;
  const jobs = { queue: () => ({ add: async () => undefined }) } as unknown as JobBackend;
  const sink = new WebhookEventSink({
    repository,
    jobs,
    // a long interval: only the batch caps and the crawl's end flush
    pageBatchMs: 60_000,
    snapshot: async () => ({}),
    onError: (error) => {
      throw error;
    },
  });
  return { sink, events };
}

function recorded(pageId: number, change?: ChangeClass) {
  return {
    crawlId: 'c',
    pageId,
    url: `http://example.test/${pageId}`,
    type: 'HTML' as const,
    status: 200,
    loadMs: 1,
    bytes: 10,
    score: null,
    queueWaitMs: 0,
    fetchedAt: new Date(),
    ...(change ? { change } : {}),
  };
}

test('page.changed tells new, changed and gone pages once, at most 100 an event, before the end', async () => {
  const { sink, events } = sinkRecording();
  const classes: ChangeClass[] = ['new', 'changed', 'unchanged', 'gone'];
  const told = new Set<number>();
  for (let id = 1; id <= 400; id++) {
    const change = classes[id % 4]!;
    if (change !== 'unchanged') told.add(id);
    sink.pageRecorded(recorded(id, change));
  }
  sink.crawlEnded({ crawlId: 'c', status: 'completed', error: null });
  await sink.flush();
  const changed = events.filter((event) => event.event === 'page.changed');
  assert.ok(changed.length >= 3, `${changed.length} events`);
  for (const event of changed) assert.ok(event.data.pages!.length <= MAX_CHANGES_PER_EVENT);
  const ids = changed.flatMap((event) => event.data.pages!.map((page) => page.id));
  assert.deepEqual(ids, [...told], 'each told once, in the order recorded');
  assert.ok(changed.every((event) => event.data.pages!.every((page) => page.change !== 'unchanged')));
  assert.equal(events.at(-1)?.event, 'completed', 'the end comes after every page.changed event');
  const pages = events.filter((event) => event.event === 'page').flatMap((event) => event.data.pages!);
  assert.equal(pages.length, 400, 'page events still carry every page');
});

test('a crawl that recrawls nothing sends no page.changed event', async () => {
  const { sink, events } = sinkRecording();
  for (let id = 1; id <= 150; id++) sink.pageRecorded(recorded(id));
  sink.crawlEnded({ crawlId: 'c', status: 'completed', error: null });
  await sink.flush();
  assert.deepEqual([...new Set(events.map((event) => event.event))], ['started', 'page', 'completed']);
});
