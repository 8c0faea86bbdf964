import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INTERNAL_SCOPE, scopeOwner, scopeParams, tenantScope } from '../../../src/db/tenant-scope.js';

// The tenant-filtered statements (crawl_get.sql and kin) take ($scoped, $owner): unscoped, or that owner only.
test('scopeParams: a key sees its own rows, open mode the rows of no key, internal callers every row', () => {
  assert.deepEqual(scopeParams(tenantScope('9b7e4c1a-0000-4000-8000-000000000001')), [
    true,
    '9b7e4c1a-0000-4000-8000-000000000001',
  ]);
  assert.deepEqual(scopeParams(tenantScope(null)), [true, null]);
  assert.deepEqual(scopeParams(INTERNAL_SCOPE), [false, null]);
});

test('scopeOwner: rows made by a request belong to its key; rows made internally or open to no key', () => {
  assert.equal(
    scopeOwner(tenantScope('9b7e4c1a-0000-4000-8000-000000000001')),
    '9b7e4c1a-0000-4000-8000-000000000001',
  );
  assert.equal(scopeOwner(tenantScope(null)), null);
  assert.equal(scopeOwner(INTERNAL_SCOPE), null);
});
