import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.js';
import {
  guardAllowing,
  isBlockedAddress,
  parseAllowedTarget,
} from '../../../src/crawler/fetch/address-guard.js';
import { Fetcher, fetcherGuard } from '../../../src/crawler/fetch/fetcher.js';
import { startServer } from './local-server.js';

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
  for (const bad of [
    '127.0.0.2/33',
    'host/8',
    '127.0.0.2/32,yes',
    '::1/129',
    '127.0.0.1:0',
    '::1:8080x',
    '[127.0.0.1]:80',
    '127.0.0.1:99999',
  ]) {
    assert.throws(
      () => loadConfig({ ...base, ALLOW_PRIVATE_NETWORKS: bad }),
      (error: unknown) => error instanceof ConfigError && error.message.startsWith('ALLOW_PRIVATE_NETWORKS'),
      bad,
    );
  }
});

test('an allowed private target is an address or a network, on every port or on the one it names', () => {
  assert.deepEqual(parseAllowedTarget('127.0.0.1:8080'), {
    network: '127.0.0.1',
    bits: 32,
    family: 'ipv4',
    port: 8080,
  });
  assert.deepEqual(parseAllowedTarget('127.0.0.2'), {
    network: '127.0.0.2',
    bits: 32,
    family: 'ipv4',
    port: null,
  });
  assert.deepEqual(parseAllowedTarget(' 10.1.0.0/16:443 '), {
    network: '10.1.0.0',
    bits: 16,
    family: 'ipv4',
    port: 443,
  });
  assert.deepEqual(parseAllowedTarget('[::1]:8080'), {
    network: '::1',
    bits: 128,
    family: 'ipv6',
    port: 8080,
  });
  assert.deepEqual(parseAllowedTarget('[fd00::/64]:81'), {
    network: 'fd00::',
    bits: 64,
    family: 'ipv6',
    port: 81,
  });
  assert.deepEqual(parseAllowedTarget('[::1]'), { network: '::1', bits: 128, family: 'ipv6', port: null });
  // a bare IPv6 address's last group is never read as a port
  assert.deepEqual(parseAllowedTarget('::1'), { network: '::1', bits: 128, family: 'ipv6', port: null });
  assert.deepEqual(parseAllowedTarget('fd00::8080'), {
    network: 'fd00::8080',
    bits: 128,
    family: 'ipv6',
    port: null,
  });
  for (const bad of [
    '127.0.0.1:',
    '127.0.0.1:0',
    '127.0.0.1:65536',
    '[127.0.0.1]:80',
    '[::1]:',
    'localhost:80',
    '127.0.0.1/33:80',
    '',
  ]) {
    assert.equal(parseAllowedTarget(bad), null, bad);
  }

  const guard = guardAllowing(['127.0.0.1:8080', '[::1]:8081', '10.1.0.0/16:443', '127.0.0.2']);
  assert.equal(guard('127.0.0.1', 8080).blocked, false);
  assert.deepEqual(guard('127.0.0.1', 8081), isBlockedAddress('127.0.0.1'));
  assert.equal(guard('127.0.0.1').blocked, true, 'no port known: only an every-port entry lets it through');
  assert.equal(guard('::1', 8081).blocked, false);
  assert.equal(guard('[::1]', 8081).blocked, false);
  assert.equal(guard('::1', 8080).blocked, true);
  assert.equal(guard('10.1.9.9', 443).blocked, false);
  assert.equal(guard('10.1.9.9', 80).blocked, true);
  assert.equal(guard('127.0.0.2', 1).blocked, false);
  assert.equal(guard('127.0.0.2', 65_535).blocked, false);

  const base = { DATABASE_URL: 'postgres://x@127.0.0.1/db' };
  const config = loadConfig({ ...base, ALLOW_PRIVATE_NETWORKS: '127.0.0.1:8080, [::1]:8081,127.0.0.2' });
  assert.equal(config.allowPrivateNetworks, false);
  assert.deepEqual(config.allowedPrivateRanges, ['127.0.0.1:8080', '[::1]:8081', '127.0.0.2']);
});

test('the Fetcher reaches an address:port target on that port only, by IP literal and by name', async (t) => {
  const respond = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(body);
  };
  const allowed = await startServer(respond('allowed'));
  const other = await startServer(respond('other'));
  t.after(() => Promise.all([allowed.close(), other.close()]));
  const fetcher = new Fetcher(
    fetcherGuard({ allowPrivateNetworks: false, allowedPrivateRanges: [`127.0.0.1:${allowed.port}`] }),
  );
  t.after(() => fetcher.close());
  const options = { userAgent: 'trawl-test', timeoutMs: 10_000, maxBytes: 10_000 };

  const literal = await fetcher.fetch(`http://127.0.0.1:${allowed.port}/a`, options);
  assert.equal(literal.error, null);
  assert.equal(literal.text, 'allowed');
  const named = await fetcher.fetch(`http://localhost:${allowed.port}/b`, options);
  assert.equal(named.error, null, 'localhost resolves to 127.0.0.1 (or ::1, refused), on the allowed port');
  assert.equal(
    (await fetcher.fetch(`http://127.0.0.1:${other.port}/c`, options)).error?.code,
    'blocked-address',
  );
  assert.equal(
    (await fetcher.fetch(`http://localhost:${other.port}/d`, options)).error?.code,
    'blocked-address',
  );
  assert.deepEqual(allowed.hits, ['/a', '/b']);
  assert.deepEqual(other.hits, []);
});
