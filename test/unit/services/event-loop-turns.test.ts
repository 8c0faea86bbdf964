// chunksByTurn: a big output's chunks are produced one per event-loop turn, so other work runs between them.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { chunksByTurn } from '../../../src/services/presentation/event-loop-turns.js';

function* recorded(order: string[]): Generator<string> {
  for (const chunk of ['a', 'b', 'c']) {
    order.push(`made ${chunk}`);
    yield chunk;
  }
}

test('a stream over chunksByTurn lets a waiting callback run between two chunks', async () => {
  const order: string[] = [];
  const stream = Readable.from(chunksByTurn(recorded(order)));
  setImmediate(() => order.push('other work'));
  const read: string[] = [];
  for await (const chunk of stream) read.push(chunk as string);
  assert.deepEqual(read, ['a', 'b', 'c']);
  assert.deepEqual(order.slice(0, 3), ['made a', 'other work', 'made b']);
});

test('without it, the stream makes every chunk before the callback runs (what chunksByTurn is for)', async () => {
  const order: string[] = [];
  const stream = Readable.from(recorded(order));
  setImmediate(() => order.push('other work'));
  for await (const _chunk of stream);
  assert.deepEqual(order.slice(0, 3), ['made a', 'made b', 'made c']);
});
