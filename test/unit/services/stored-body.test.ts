// A stored body's first bytes, raw or gzip (rows written before raw bodies): gunzipPrefix reads a gzip's first
// bytes without inflating the rest, whether the gzip is whole or itself cut (storedPrefixBytes of it), however
// well the body compresses; a raw body, whole or cut, reads the same.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import {
  gunzipPrefix,
  storedBody,
  storedBodyBytes,
  storedBodyPrefix,
  storedPrefixBytes,
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

test('a poorly compressible body, from a gzip cut at storedPrefixBytes, gives its first bytes exactly', () => {
  const body = randomBytes(4 * MIB);
  const gzip = gzipSync(body);
  const { bytes, cut } = gunzipPrefix(gzip.subarray(0, storedPrefixBytes(MIB)), MIB);
  assert.equal(cut, true);
  assert.ok(bytes.equals(body.subarray(0, MIB)));
});

test('a body within the cap comes back whole and not cut', () => {
  const body = Buffer.from('<p>short page</p>'.repeat(1000));
  const { bytes, cut } = gunzipPrefix(gzipSync(body), MIB);
  assert.equal(cut, false);
  assert.ok(bytes.equals(body));
  const gzip = storedBody(null, gzipSync(body))!;
  assert.deepEqual(storedBodyPrefix(gzip, 'text/html; charset=utf-8', MIB), {
    text: body.toString(),
    cut: false,
  });
});

test('a raw body reads as its gzip does, whole or from a prefix cut at storedPrefixBytes', async () => {
  const page = Buffer.from('<p>caf\u00e9</p>'.repeat(200_000), 'latin1');
  const contentType = 'text/html; charset=iso-8859-1';
  const raw = storedBody(page, null)!;
  const gzip = storedBody(null, gzipSync(page))!;
  assert.deepEqual(storedBodyPrefix(raw, contentType, MIB), storedBodyPrefix(gzip, contentType, MIB));
  const head = storedBody(page.subarray(0, storedPrefixBytes(MIB)), null)!;
  const { text, cut } = storedBodyPrefix(head, contentType, MIB);
  assert.equal(cut, true);
  assert.equal(text, page.subarray(0, MIB).toString('latin1'));
  assert.ok((await storedBodyBytes(raw)).equals(await storedBodyBytes(gzip)));
});

test('a row names its raw body first, its gzip one else, and none when it has neither', () => {
  const raw = Buffer.from('raw');
  const gzip = gzipSync('old');
  assert.deepEqual(storedBody(raw, null), { bytes: raw, gzip: false });
  assert.deepEqual(storedBody(null, gzip), { bytes: gzip, gzip: true });
  assert.deepEqual(storedBody(Buffer.alloc(0), null), { bytes: Buffer.alloc(0), gzip: false });
  assert.equal(storedBody(null, null), null);
});
