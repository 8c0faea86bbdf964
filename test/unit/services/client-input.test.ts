// The pure checks behind the API's 400s: unstorable text in a parsed request, and cursor fields.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findUnstorableText, unstorableText } from '../../../src/services/content/input-text.js';
import { isCreatedAtCursor, isIsoInstant, isRowId } from '../../../src/services/presentation/pagination.js';
import { MAX_JSON_DEPTH, nestsTooDeep } from '../../../src/validation.js';

test('unstorableText: NUL and lone surrogates are refused, surrogate pairs and other controls are not', () => {
  assert.equal(unstorableText('plain text, tab\t, newline\n, bell \u0007'), null);
  assert.equal(unstorableText('otter \ud83e\udda6'), null);
  assert.match(unstorableText('a\u0000b') ?? '', /NUL/);
  for (const text of ['\ud800', 'a\ud83e', '\udda6b', '\udda6\ud83e'])
    assert.match(unstorableText(text) ?? '', /surrogate/, JSON.stringify(text));
});

test('findUnstorableText: the path of the first bad string, property names included', () => {
  assert.equal(findUnstorableText({ a: [1, 'x', { b: null, c: true }] }), null);
  assert.deepEqual(findUnstorableText({ a: ['ok', { b: 'x\u0000' }] }), {
    path: ['a', 1, 'b'],
    message: 'must not contain a NUL character (\\u0000)',
  });
  assert.deepEqual(findUnstorableText({ h: { 'x-\ud800': 'v' } })?.path, ['h', 'x-\ud800']);
  assert.deepEqual(findUnstorableText('\u0000')?.path, []);
  // the path is not left holding the segments of the clean items walked before
  assert.deepEqual(
    findUnstorableText([
      ['a', 'b'],
      ['c', '\u0000'],
    ])?.path,
    [1, 1],
  );
});

test('findUnstorableText walks a value nested 200,000 deep without overflowing the stack', () => {
  const depth = 200_000;
  const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`);
  const found = findUnstorableText(deep);
  assert.equal(found?.path.length, depth);
  assert.ok(found?.path.every((segment) => segment === 0));
  let objects: unknown = 'clean';
  for (let i = 0; i < depth; i++) objects = { a: objects };
  assert.equal(findUnstorableText(objects), null);
});

test('nestsTooDeep: counts brackets outside strings, up to MAX_JSON_DEPTH', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  assert.equal(nestsTooDeep(nested(MAX_JSON_DEPTH)), false);
  assert.equal(nestsTooDeep(nested(MAX_JSON_DEPTH + 1)), true);
  assert.equal(nestsTooDeep(`{"a":${nested(MAX_JSON_DEPTH)}}`), true);
  // brackets in strings, escaped quotes and backslashes before a closing quote do not count
  assert.equal(nestsTooDeep(JSON.stringify({ a: '['.repeat(1000), b: '\\"[[[', c: '\\' })), false);
  assert.equal(nestsTooDeep(`["\\\\"${nested(MAX_JSON_DEPTH)}]`), true);
  assert.equal(nestsTooDeep('["unterminated'), false);
});

test('cursor fields: ISO instants as toISOString writes them, strict uuids, safe row ids', () => {
  assert.ok(isIsoInstant('2026-11-23T16:00:00.000Z'));
  assert.ok(isIsoInstant('0001-01-01T00:00:00.000Z'));
  for (const bad of [
    '2000',
    '1',
    '+275760-09-13T00:00:00.000Z',
    '0000-01-01T00:00:00.000Z',
    '2026-02-30T00:00:00.000Z',
    '2026-11-23T16:00:00Z',
    2000,
  ]) {
    assert.equal(isIsoInstant(bad), false, String(bad));
  }
  assert.ok(
    isCreatedAtCursor({ createdAt: '2026-11-23T16:00:00.000Z', id: '6f1c8a52-2d0e-4c4b-9d8e-0c5b0e4a7f11' }),
  );
  assert.equal(isCreatedAtCursor({ createdAt: '2026-11-23T16:00:00.000Z', id: '-'.repeat(36) }), false);
  assert.ok(isRowId(0) && isRowId(Number.MAX_SAFE_INTEGER));
  for (const bad of [-1, 1.5, 2 ** 53, '1', null]) assert.equal(isRowId(bad), false, String(bad));
});
