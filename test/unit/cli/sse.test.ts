// The CLI's event-stream reader against the cases of the HTML standard's parsing rules: events split across
// chunks anywhere (inside a CRLF too), multi-line data, comments, a field without a colon, the last id kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readServerSentEvents, type ServerSentEvent } from '../../../src/cli/sse.js';

async function read(chunks: string[]): Promise<ServerSentEvent[]> {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(body)) events.push(event);
  return events;
}

test('events, data lines, ids and comments', async () => {
  const stream =
    ': keep-alive\n\nid: 1\nevent: progress\ndata: {"a":1}\n\ndata: one\ndata: two\n\nevent: status\ndata\n\n';
  assert.deepEqual(await read([stream]), [
    { event: 'progress', data: '{"a":1}', lastEventId: '1' },
    { event: 'message', data: 'one\ntwo', lastEventId: '1' },
    { event: 'status', data: '', lastEventId: '1' },
  ]);
});

test('the same events whatever the chunking, CRLF and CR line ends included', async () => {
  const stream = 'id: 7\r\nevent: progress\r\ndata: x\r\n\r\nevent: status\rdata:y\r\r';
  const whole = await read([stream]);
  assert.deepEqual(whole, [
    { event: 'progress', data: 'x', lastEventId: '7' },
    { event: 'status', data: 'y', lastEventId: '7' },
  ]);
  for (let cut = 1; cut < stream.length; cut++) {
    assert.deepEqual(await read([stream.slice(0, cut), stream.slice(cut)]), whole, `cut at ${cut}`);
  }
});

test('an event not ended by a blank line is not dispatched', async () => {
  assert.deepEqual(await read(['event: status\ndata: half']), []);
});
