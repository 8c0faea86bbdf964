import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exponentialBackoffMs } from '../../src/crawler/backoff.js';

test('exponentialBackoffMs doubles from baseDelayMs, attempt 1 first', () => {
  assert.deepEqual(
    [1, 2, 3, 4].map((attempt) => exponentialBackoffMs(attempt, { baseDelayMs: 100 })),
    [100, 200, 400, 800],
  );
});

test('exponentialBackoffMs stays within maxDelayMs and minDelayMs', () => {
  const bounded = { baseDelayMs: 500, maxDelayMs: 5000, minDelayMs: 700 };
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 60, 5000].map((attempt) => exponentialBackoffMs(attempt, bounded)),
    [700, 1000, 2000, 4000, 5000, 5000, 5000, 5000],
  );
});

test('Redis reconnects keep their schedule: 500 ms doubling to at most 5 s', async () => {
  const { redisClientOptions } = await import('../../src/outage.js');
  const { retryStrategy } = redisClientOptions({ failFast: false });
  assert.deepEqual([1, 2, 3, 4, 5, 6, 1000].map(retryStrategy), [500, 1000, 2000, 4000, 5000, 5000, 5000]);
});
