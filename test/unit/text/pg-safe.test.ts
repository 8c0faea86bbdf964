import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findUnsafeText, pgSafeJson, pgSafeText } from '../../../src/crawler/text/pg-safe.js';

test('pgSafeText drops NUL and turns lone surrogates into U+FFFD, keeping pairs', () => {
  assert.equal(pgSafeText('a\u0000b\u0000'), 'ab');
  assert.equal(pgSafeText('x\ud800y'), 'x\ufffdy');
  assert.equal(pgSafeText('\udc00 tail'), '\ufffd tail');
  assert.equal(pgSafeText('lead \ud83d'), 'lead \ufffd');
  assert.equal(pgSafeText('😀 \ude00\ud83d'), '😀 \ufffd\ufffd');
  const clean = 'plain text, emoji 😀 and Zürich';
  assert.equal(pgSafeText(clean), clean);
});

test('pgSafeJson cleans every string of a JSON value, keys included', () => {
  const value = { 't\u0000': ['a\ud800', { deep: 'b\u0000c', n: 1, ok: true, none: null }] };
  assert.deepEqual(pgSafeJson(value), { t: ['a\ufffd', { deep: 'bc', n: 1, ok: true, none: null }] });
  assert.doesNotMatch(JSON.stringify(pgSafeJson(value)), /\\u0000|\\ud8/);
  const at = new Date('2026-11-23T10:00:00Z');
  assert.equal(JSON.stringify(pgSafeJson({ at })), JSON.stringify({ at }));
});

test('findUnsafeText says where the first unstorable character is and which', () => {
  assert.deepEqual(findUnsafeText('ab\u0000'), { index: 2, character: 'NUL' });
  assert.deepEqual(findUnsafeText('😀\udc00'), { index: 2, character: 'lone surrogate' });
  assert.equal(findUnsafeText('😀 fine'), null);
});
