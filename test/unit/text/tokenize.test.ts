import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentWords, isStopWord, tokenize } from '../../../src/crawler/text/tokenize.js';

test('tokenize keeps only alphabetic runs, lower-cased', () => {
  assert.deepEqual(tokenize("Don't panic: 42 Zürich-bound CATS!"), [
    'don',
    't',
    'panic',
    'zürich',
    'bound',
    'cats',
  ]);
});

test('contentWords drops English stop words', () => {
  assert.ok(isStopWord('the'));
  assert.deepEqual(contentWords('The cat and the dog were in the garden'), ['cat', 'dog', 'garden']);
});
