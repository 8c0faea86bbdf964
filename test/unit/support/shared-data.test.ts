import assert from 'node:assert/strict';
import { test } from 'node:test';
import { skipWithoutSharedData } from '../../support/shared-data.js';

function withCi<T>(value: string | undefined, run: () => T): T {
  const before = process.env.CI;
  if (value === undefined) delete process.env.CI;
  else process.env.CI = value;
  try {
    return run();
  } finally {
    if (before === undefined) delete process.env.CI;
    else process.env.CI = before;
  }
}

test('missing shared data skips with the reason on a developer machine and fails under CI=true', () => {
  const absent = ['no-such-data-set/file.tsv'];
  assert.equal(
    withCi(undefined, () => skipWithoutSharedData(absent)),
    'shared/data/no-such-data-set/file.tsv not present',
  );
  assert.throws(
    () => withCi('true', () => skipWithoutSharedData(absent)),
    /CI=true and shared\/data\/no-such/,
  );
  assert.throws(
    () => withCi('true', () => skipWithoutSharedData([], 'links.tsv missing')),
    /links\.tsv missing/,
  );
  assert.equal(
    withCi('true', () => skipWithoutSharedData([], null)),
    false,
  );
});
