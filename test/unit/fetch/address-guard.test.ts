import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type AddressVerdict,
  guardedLookup,
  isBlockedAddress,
} from '../../../src/crawler/fetch/address-guard.js';
import { Fetcher } from '../../../src/crawler/fetch/fetcher.js';
import { startServer } from './local-server.js';

// One blocked sample per range, with the name the guard reports for it.
const BLOCKED: Array<[ip: string, range: string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.254', 'cgnat'],
  ['224.0.0.251', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.10', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.99', 'documentation'],
  ['198.18.0.1', 'benchmarking'],
  ['192.0.0.8', 'ietf-protocol'],
  ['192.88.99.1', '6to4-relay'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['100::1', 'discard'],
  ['2001::1', 'ietf-protocol'],
  ['::ffff:127.0.0.1', 'ipv4-mapped:loopback'],
  ['::ffff:7f00:1', 'ipv4-mapped:loopback'],
  ['::ffff:169.254.169.254', 'ipv4-mapped:link-local'],
  ['::ffff:10.0.0.1', 'ipv4-mapped:private'],
  ['64:ff9b::10.0.0.1', 'nat64:private'],
  ['64:ff9b::a9fe:a9fe', 'nat64:link-local'],
  ['64:ff9b:1::1', 'nat64-local'],
  ['2002:c0a8:0101::1', '6to4:private'],
  ['2002:7f00:1::', '6to4:loopback'],
  ['::127.0.0.1', 'ipv4-compatible'],
  ['::ffff:0:7f00:201', 'ipv4-translated'],
  ['::ffff:0:127.0.0.1', 'ipv4-translated'],
  ['::ffff:0:808:808', 'ipv4-translated'],
  ['[::ffff:0:7f00:201]', 'ipv4-translated'],
  ['5f00::1', 'srv6-sid'],
  ['5f00:ffff:ffff::1', 'srv6-sid'],
  ['[::1]', 'loopback'],
  ['localhost', 'not-an-ip'],
  ['', 'not-an-ip'],
];

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '172.15.255.255',
  '172.32.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '169.253.255.255',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
  '2002:0808:0808::1',
  '5eff:ffff::1',
  '5f01::1',
  '::fffe:0:808:808',
];

describe('isBlockedAddress', () => {
  for (const [ip, range] of BLOCKED) {
    test(`blocks ${ip || '(empty)'} as ${range}`, () => {
      assert.deepEqual(isBlockedAddress(ip), { blocked: true, range });
    });
  }
  for (const ip of ALLOWED) {
    test(`allows ${ip}`, () => {
      assert.deepEqual(isBlockedAddress(ip), { blocked: false });
    });
  }
});

describe('guardedLookup', () => {
  test('refuses a name that resolves only to loopback', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup('localhost', { all: true }, (e) => resolve(e)),
    );
    assert.equal(err?.code, 'ETRAWLBLOCKED');
    assert.match(err?.message ?? '', /loopback/);
  });
});

describe('the Fetcher applies the guard', () => {
  test('a loopback server is refused by default and fetched when private networks are allowed', async (t) => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('inside');
    });
    t.after(() => server.close());
    const options = { userAgent: 'trawl-test', timeoutMs: 5_000, maxBytes: 10_000 };

    const guarded = new Fetcher({ allowPrivateNetworks: false });
    t.after(() => guarded.close());
    const literal = await guarded.fetch(`${server.origin}/a`, options);
    assert.equal(literal.error?.code, 'blocked-address');
    assert.equal(literal.status, null);
    // A host name goes through the socket's lookup, which drops the loopback answer.
    const named = await guarded.fetch(`http://localhost:${server.port}/b`, options);
    assert.equal(named.error?.code, 'blocked-address');
    const mapped = await guarded.fetch(`http://[::ffff:127.0.0.1]:${server.port}/c`, options);
    assert.equal(mapped.error?.code, 'blocked-address');
    const translated = await guarded.fetch(`http://[::ffff:0:7f00:201]:${server.port}/t`, options);
    assert.equal(translated.error?.code, 'blocked-address');
    assert.deepEqual(server.hits, []);

    const open = new Fetcher({ allowPrivateNetworks: true });
    t.after(() => open.close());
    const fetched = await open.fetch(`${server.origin}/d`, options);
    assert.equal(fetched.error, null);
    assert.equal(fetched.text, 'inside');
    assert.deepEqual(server.hits, ['/d']);
  });
});

describe('every redirect hop goes through the guard', () => {
  // Only 127.0.0.2 counts as public here, so the first hop is fetched and the next ones are judged.
  const onlyTwo = (ip: string): AddressVerdict =>
    ip === '127.0.0.2' ? { blocked: false } : isBlockedAddress(ip);

  test('a hop to a blocked IP literal or to a name resolving to one is refused before connecting', async (t) => {
    const server = await startServer((req, res) => {
      if (req.url === '/to-literal') res.writeHead(302, { location: `http://127.0.0.1:${port}/inside` });
      else if (req.url === '/to-name') res.writeHead(302, { location: `http://localhost:${port}/inside` });
      else res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    }, '127.0.0.2');
    const port = server.port;
    t.after(() => server.close());
    const fetcher = new Fetcher({ allowPrivateNetworks: false, addressGuard: onlyTwo });
    t.after(() => fetcher.close());
    const options = { userAgent: 'trawl-test', timeoutMs: 5_000, maxBytes: 10_000 };

    const direct = await fetcher.fetch(`http://127.0.0.2:${port}/page`, options);
    assert.equal(direct.error, null);
    assert.equal(direct.text, 'ok');

    const literal = await fetcher.fetch(`http://127.0.0.2:${port}/to-literal`, options);
    assert.equal(literal.error?.code, 'blocked-address');
    assert.equal(literal.redirects.length, 1);
    const named = await fetcher.fetch(`http://127.0.0.2:${port}/to-name`, options);
    assert.equal(named.error?.code, 'blocked-address');
    assert.deepEqual(server.hits, ['/page', '/to-literal', '/to-name']);
  });
});
