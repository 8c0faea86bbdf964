import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { guardAllowing, isBlockedAddress } from '../../../src/crawler/fetch/address-guard.js';

test('guardAllowing lets through only the listed private ranges', () => {
  const guard = guardAllowing(['127.0.0.2/32', '10.1.0.0/16', 'fd00::/64']);
  assert.equal(guard('127.0.0.2').blocked, false);
  assert.deepEqual(guard('127.0.0.3'), isBlockedAddress('127.0.0.3'));
  assert.equal(guard('127.0.0.3').blocked, true);
  assert.equal(guard('10.1.200.4').blocked, false);
  assert.equal(guard('10.2.0.1').blocked, true);
  assert.equal(guard('[fd00::5]').blocked, false);
  assert.equal(guard('fd01::5').blocked, true);
  assert.equal(guard('93.184.216.34').blocked, false);
  assert.equal(guard('not-an-ip').blocked, true);
});

test('ALLOW_PRIVATE_NETWORKS takes true, false or CIDRs, and names itself when wrong', () => {
  const base = { DATABASE_URL: 'postgres://x@127.0.0.1/db' };
  assert.equal(loadConfig({ ...base, ALLOW_PRIVATE_NETWORKS: 'true' }).allowPrivateNetworks, true);
  const ranges = loadConfig({ ...base, ALLOW_PRIVATE_NETWORKS: '127.0.0.2/32, 10.0.0.0/8' });
  assert.equal(ranges.allowPrivateNetworks, false);
  assert.deepEqual(ranges.allowedPrivateRanges, ['127.0.0.2/32', '10.0.0.0/8']);
  for (const bad of ['127.0.0.2/33', 'host/8', '127.0.0.2/32,yes', '::1/129']) {
    assert.throws(
      () => loadConfig({ ...base, ALLOW_PRIVATE_NETWORKS: bad }),
      (error: unknown) => error instanceof ConfigError && error.message.startsWith('ALLOW_PRIVATE_NETWORKS'),
      bad,
    );
  }
});
