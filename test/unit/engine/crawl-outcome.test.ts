// How a crawl that ran out of work ends, judged on its seeds' pages alone (no network, no database).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crawlEnding, SEEDS_UNREACHABLE } from '../../../src/crawler/engine/crawl-outcome.js';

const BLOCKED = 'blocked-address: 127.0.0.1 is in a refused range (loopback)';
const ROBOTS_DOWN =
  'robots.txt unreachable, so nothing may be fetched (RFC 9309): dns: getaddrinfo ENOTFOUND';

test('a crawl that got any response completes without warnings', () => {
  const ending = crawlEnding({
    seeds: [{ url: 'http://a.test/', type: 'INVALID', status: null, error: 'connect: refused' }],
    anyResponse: true,
  });
  assert.deepEqual(ending, { status: 'completed', error: null, problem: null, warnings: [] });
});

test('no seed reachable: failed, with the reason for each seed', () => {
  const ending = crawlEnding({
    seeds: [
      { url: 'http://127.0.0.1/', type: 'INVALID', status: null, error: BLOCKED },
      { url: 'http://offline.test/', type: 'DISALLOWED', status: null, error: ROBOTS_DOWN },
    ],
    anyResponse: false,
  });
  assert.equal(ending.status, 'failed');
  assert.equal(ending.problem?.type, SEEDS_UNREACHABLE);
  assert.deepEqual(ending.problem?.seeds, [
    { url: 'http://127.0.0.1/', reason: BLOCKED },
    { url: 'http://offline.test/', reason: ROBOTS_DOWN },
  ]);
  assert.equal(ending.error, ending.problem?.detail);
  assert.ok(ending.error?.includes(`http://127.0.0.1/ (${BLOCKED})`), ending.error ?? '');
  assert.deepEqual(ending.warnings, []);
});

test('seeds reached but yielding nothing: completed, with a warning per seed', () => {
  const ending = crawlEnding({
    seeds: [
      { url: 'http://a.test/', type: 'DISALLOWED', status: null, error: 'disallowed by robots.txt' },
      { url: 'http://b.test/', type: 'INVALID', status: null, error: BLOCKED },
    ],
    anyResponse: false,
  });
  assert.equal(ending.status, 'completed');
  assert.equal(ending.problem, null);
  assert.deepEqual(ending.warnings, [
    'nothing fetched from seed http://a.test/: disallowed by robots.txt',
    `nothing fetched from seed http://b.test/: ${BLOCKED}`,
  ]);
});

test('faults of our own are not the seed host being unreachable', () => {
  const ending = crawlEnding({
    seeds: [{ url: 'http://a.test/', type: 'INVALID', status: null, error: 'internal' }],
    anyResponse: false,
  });
  assert.equal(ending.status, 'completed');
  assert.deepEqual(ending.warnings, ['nothing fetched from seed http://a.test/: internal']);
});
