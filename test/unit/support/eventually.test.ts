import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventuallyTimeout, eventually } from '../../support/eventually.js';

test('eventually returns the first truthy value, retrying falsy values and throwing checks', async () => {
  let calls = 0;
  const value = await eventually(
    () => {
      calls++;
      if (calls === 1) throw new Error('not yet');
      return calls >= 3 ? { calls } : null;
    },
    { message: 'three calls', intervalMs: 1 },
  );
  assert.deepEqual(value, { calls: 3 });
  assert.equal(await eventually(async () => 'async', { message: 'an async check' }), 'async');
});

test('at the deadline eventually fails naming what it waited for and the last value seen', async () => {
  let calls = 0;
  await assert.rejects(
    eventually(() => ({ calls: ++calls, done: false }).done, {
      message: 'never',
      timeoutMs: 50,
      intervalMs: 5,
    }),
    (error: unknown) => {
      assert.ok(error instanceof EventuallyTimeout);
      assert.match(error.message, /waiting for never; last value: false$/);
      assert.equal(error.lastValue, false);
      return true;
    },
  );
  assert.ok(calls > 1, 'it tried more than once');
});

test('at the deadline eventually fails with the last error the check threw as its cause', async () => {
  await assert.rejects(
    eventually(
      () => {
        assert.equal(1, 2, 'one is not two');
      },
      { message: 'an impossible assertion', timeoutMs: 30, intervalMs: 5 },
    ),
    (error: unknown) => {
      assert.ok(error instanceof EventuallyTimeout);
      assert.match(error.message, /waiting for an impossible assertion; last error: one is not two/);
      assert.ok(error.cause instanceof assert.AssertionError);
      return true;
    },
  );
});

test('a check that hangs is cut off at the deadline', async () => {
  const started = Date.now();
  await assert.rejects(
    eventually(() => new Promise<boolean>(() => {}), { message: 'a hung check', timeoutMs: 50 }),
    /waiting for a hung check; last error: the check was still running at the deadline/,
  );
  assert.ok(Date.now() - started < 10_000, 'the hung check did not hold the test');
});
