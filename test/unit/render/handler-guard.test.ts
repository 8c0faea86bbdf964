// Handlers given to Playwright (handler-guard.ts): whatever they throw or reject with goes to their sink, never
// out of the handler; a render keeps its first fault, in words, and is told when it happened.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guarded, HandlerFaults } from '../../../src/crawler/render/handler-guard.js';

test('a guarded handler hands its throw or rejection to the sink, and itself resolves', async () => {
  const seen: Array<[string, unknown]> = [];
  const sink = (where: string, error: unknown) => seen.push([where, error]);
  const thrown = new Error('thrown');
  const rejected = new Error('rejected');
  await guarded('sync', sink, () => {
    throw thrown;
  })();
  await guarded('async', sink, async () => {
    await Promise.resolve();
    throw rejected;
  })();
  assert.deepEqual(seen, [
    ['sync', thrown],
    ['async', rejected],
  ]);
});

test('a guarded handler gets its arguments and reports nothing when it does not fail', async () => {
  const seen: unknown[] = [];
  const got: number[] = [];
  await guarded(
    'add',
    (_, error) => seen.push(error),
    (a: number, b: number) => got.push(a + b),
  )(2, 3);
  assert.deepEqual(got, [5]);
  assert.deepEqual(seen, []);
});

test('a sink that throws does not make the handler reject', async () => {
  const handler = guarded(
    'any',
    () => {
      throw new Error('the sink itself');
    },
    () => {
      throw new Error('the handler');
    },
  );
  await assert.doesNotReject(handler());
});

test("a render's faults: the first is kept in words, and announced", async () => {
  const faults = new HandlerFaults();
  assert.equal(faults.problem, null);
  faults.sink('route', new Error('Frame for this navigation request is not available, because\nmore'));
  faults.sink('popup', 'a later one');
  const expected =
    'render failed: the route handler threw: Frame for this navigation request is not available, because';
  assert.equal(faults.problem, expected);
  assert.deepEqual(await faults.faulted, { problem: expected });
});
