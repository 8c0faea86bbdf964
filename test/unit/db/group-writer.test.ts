// GroupWriter without a database: who waits, who goes together, and what one failure takes down.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupWriter } from '../../../src/db/group-writer.js';

function recordingWriter(options: {
  maxItems: number;
  maxInFlight: number;
  failing?: Set<number>;
  maxBytes?: number;
}) {
  const statements: number[][] = [];
  const release: (() => void)[] = [];
  const failing = options.failing ?? new Set<number>();
  // each statement stays in flight until the test lets it finish
  const run = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      statements.push(items);
      release.push(() =>
        items.some((item) => failing.has(item)) ? reject(new Error('bad row')) : resolve(),
      );
    });
  const writer = new GroupWriter<number>({
    writeMany: run,
    writeOne: (item) => run([item]),
    maxItems: options.maxItems,
    maxInFlight: options.maxInFlight,
    // an item's bytes are its value
    ...(options.maxBytes === undefined
      ? {}
      : { itemBytes: (item: number) => item, maxBytes: options.maxBytes }),
  });
  const finishAll = async () => {
    while (release.length > 0) {
      release.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { writer, statements, finishAll };
}

test('an idle writer writes at once; what arrives meanwhile waits and goes together, in order', async () => {
  const { writer, statements, finishAll } = recordingWriter({ maxItems: 3, maxInFlight: 1 });
  const written = [1, 2, 3, 4, 5, 6].map((item) => writer.write(item));
  assert.deepEqual(statements, [[1]], 'the first item finds the writer idle');
  await finishAll();
  await Promise.all(written);
  assert.deepEqual(statements, [[1], [2, 3, 4], [5, 6]], 'at most maxItems per statement');
});

test('a batch stops short of maxBytes, and an item larger than that goes alone', async () => {
  const { writer, statements, finishAll } = recordingWriter({ maxItems: 10, maxInFlight: 1, maxBytes: 10 });
  const written = [1, 4, 5, 2, 30, 3, 3].map((item) => writer.write(item));
  await finishAll();
  await Promise.all(written);
  assert.deepEqual(statements, [[1], [4, 5], [2], [30], [3, 3]]);
});

test('a failed batch is written again one item at a time: only the bad item fails', async () => {
  const { writer, statements, finishAll } = recordingWriter({
    maxItems: 10,
    maxInFlight: 1,
    failing: new Set([3]),
  });
  const settling = Promise.allSettled([1, 2, 3, 4].map((item) => writer.write(item)));
  await finishAll();
  const settled = await settling;
  assert.deepEqual(
    settled.map((result) => result.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  assert.deepEqual(statements, [[1], [2, 3, 4], [2], [3], [4]]);
});

test('up to maxInFlight statements run at once', async () => {
  const { writer, statements, finishAll } = recordingWriter({ maxItems: 10, maxInFlight: 2 });
  const written = [1, 2, 3, 4].map((item) => writer.write(item));
  assert.deepEqual(statements, [[1], [2]]);
  await finishAll();
  await Promise.all(written);
  assert.deepEqual(statements, [[1], [2], [3, 4]]);
});
