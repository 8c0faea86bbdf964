import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  adminScope,
  INTERNAL_SCOPE,
  listScope,
  scopeOwner,
  scopeParams,
  scopeSees,
  tenantScope,
} from '../../../src/db/tenant-scope.js';

const KEY = '9b7e4c1a-0000-4000-8000-000000000001';
const OTHER = '9b7e4c1a-0000-4000-8000-000000000002';

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

test('an admin key makes rows as its own and sees every tenant’s', () => {
  const admin = adminScope(KEY);
  assert.equal(scopeOwner(admin), KEY);
  assert.deepEqual(scopeParams(admin), [false, null]);
  for (const owner of [KEY, OTHER, null]) assert.ok(scopeSees(admin, owner));
  assert.ok(!scopeSees(tenantScope(KEY), OTHER));
  assert.ok(!scopeSees(tenantScope(KEY), null));
});

test('listScope: ?owner= narrows an admin’s list to one tenant; another key may name only itself', () => {
  assert.deepEqual(listScope(adminScope(KEY), undefined), adminScope(KEY));
  assert.deepEqual(listScope(adminScope(KEY), 'open'), tenantScope(null));
  assert.deepEqual(listScope(adminScope(KEY), OTHER), tenantScope(OTHER));
  assert.deepEqual(listScope(tenantScope(KEY), KEY), tenantScope(KEY));
  assert.deepEqual(listScope(tenantScope(null), 'open'), tenantScope(null));
  assert.throws(() => listScope(tenantScope(KEY), OTHER), { code: 'forbidden', field: 'owner' });
  assert.throws(() => listScope(tenantScope(KEY), 'open'), { code: 'forbidden', field: 'owner' });
  assert.throws(() => listScope(tenantScope(null), KEY), { code: 'forbidden', field: 'owner' });
});
