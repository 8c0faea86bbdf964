// WORKER_MEMORY_BUDGET_BYTES sizes the worker: the body budget's default is a twelfth of it, an explicit
// FETCH_MEMORY_BUDGET_BYTES wins, and a budget too small to run in is refused naming the variable.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const MIB = 1024 * 1024;

test('the body budget defaults to a twelfth of the worker memory budget', () => {
  const defaults = loadConfig({});
  assert.equal(defaults.workerMemoryBudgetBytes, 1536 * MIB);
  assert.equal(defaults.fetchMemoryBudgetBytes, 128 * MIB);
  const smaller = loadConfig({ WORKER_MEMORY_BUDGET_BYTES: String(768 * MIB) });
  assert.equal(smaller.fetchMemoryBudgetBytes, 64 * MIB);
  const explicit = loadConfig({
    WORKER_MEMORY_BUDGET_BYTES: String(768 * MIB),
    FETCH_MEMORY_BUDGET_BYTES: String(200 * MIB),
  });
  assert.equal(explicit.fetchMemoryBudgetBytes, 200 * MIB);
});

test('a worker memory budget below 256 MiB is refused, naming the variable', () => {
  assert.throws(
    () => loadConfig({ WORKER_MEMORY_BUDGET_BYTES: String(100 * MIB) }),
    (error: unknown) => error instanceof ConfigError && /^WORKER_MEMORY_BUDGET_BYTES: /.test(error.message),
  );
});
