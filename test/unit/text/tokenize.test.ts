import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentWords, isStopWord, referenceTokens, tokenize } from '../../../src/crawler/text/tokenize.js';

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

test('contentWords drops the Snowball English stop words, and only function words', () => {
  assert.ok(isStopWord('the'));
  assert.deepEqual(contentWords('The cat and the dog were in the garden'), ['cat', 'dog', 'garden']);
  // content words a long list (stopwords-iso's 1,298) removed
  for (const word of [
    'computer',
    'system',
    'research',
    'information',
    'problem',
    'world',
    'state',
    'open',
    'home',
    'page',
    'facts',
  ]) {
    assert.equal(isStopWord(word), false, word);
  }
});

test('referenceTokens: whitespace tokens, edge punctuation stripped, kept only when wholly alphabetic', () => {
  assert.deepEqual(referenceTokens('Zebra2 e-mail, (cats) dog. 2016 "Zürich" don\'t U.S. naïve'), [
    'cats',
    'dog',
    'zürich',
    'naïve',
  ]);
  assert.deepEqual(contentWords('The zebra2 and the e-mail'), []);
});
