// gunzipPrefix: a stored body's first bytes without inflating the rest, whether the gzip is whole or itself
// cut (gzipPrefixBytes of it), however well the body compresses.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import {
  gunzipPrefix,
  gzipPrefixBytes,
  storedBodyPrefix,
} from '../../../src/services/content/stored-body.js';

const MIB = 1024 * 1024;

test('a body that compresses a thousandfold yields its first bytes only', () => {
  const body = Buffer.alloc(64 * MIB, 'a');
  const gzip = gzipSync(body);
  const { bytes, cut } = gunzipPrefix(gzip, MIB);
  assert.equal(bytes.length, MIB);
  assert.equal(cut, true);
  assert.ok(bytes.equals(body.subarray(0, MIB)));
});

test('a poorly compressible body, from a gzip cut at gzipPrefixBytes, gives its first bytes exactly', () => {
  const body = randomBytes(4 * MIB);
  const gzip = gzipSync(body);
  const { bytes, cut } = gunzipPrefix(gzip.subarray(0, gzipPrefixBytes(MIB)), MIB);
  assert.equal(cut, true);
  assert.ok(bytes.equals(body.subarray(0, MIB)));
});

test('a body within the cap comes back whole and not cut', () => {
  const body = Buffer.from('<p>short page</p>'.repeat(1000));
  const { bytes, cut } = gunzipPrefix(gzipSync(body), MIB);
  assert.equal(cut, false);
  assert.ok(bytes.equals(body));
  assert.equal(storedBodyPrefix(gzipSync(body), 'text/html; charset=utf-8', MIB).text, body.toString());
});
