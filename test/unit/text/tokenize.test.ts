import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  contentWords,
  isStopWord,
  referenceTokens,
  tokenize,
  wordsAndReferenceTokens,
} from '../../../src/crawler/text/tokenize.js';

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

// The definitions the scanners implement, as the regular expressions that state them.
const WORD = /[\p{L}][\p{L}\p{M}]*/gu;
const specTokenize = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];
const specReferenceTokens = (text: string): string[] => {
  const tokens: string[] = [];
  for (const raw of text.toLowerCase().split(/\s+/u)) {
    const token = raw.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
    if (token && /^[\p{L}][\p{L}\p{M}]*$/u.test(token)) tokens.push(token);
  }
  return tokens;
};

test('the scanners agree with the regular expressions that define them, on any text', () => {
  // pieces that exercise every class: letters of several scripts, combining marks, digits, punctuation and
  // symbols, every kind of Unicode whitespace, astral letters and symbols, lone surrogates
  const piece = fc.constantFrom(
    'a',
    'Z',
    'é',
    'e\u0301',
    '\u0301',
    'ß',
    'İ',
    'Ω',
    'ж',
    '中',
    'ا',
    '\u{1D400}',
    '\u{1F600}',
    '2',
    '٣',
    '-',
    "'",
    '.',
    ',',
    '!',
    '©',
    '$',
    '+',
    '_',
    '«',
    '»',
    '—',
    ' ',
    '\t',
    '\n',
    '\u00a0',
    '\u2003',
    '\u2028',
    '\u3000',
    '\ufeff',
    '\u200b',
    '\ud800',
    '\udc00',
    '\u0000',
    'word',
    'e-mail',
    'dog,',
    '(x)',
  );
  const text = fc.oneof(
    fc.array(piece, { maxLength: 40 }).map((parts) => parts.join('')),
    fc.string({ unit: 'binary', maxLength: 60 }),
  );
  fc.assert(
    fc.property(text, (input) => {
      assert.deepEqual(tokenize(input), specTokenize(input));
      assert.deepEqual(referenceTokens(input), specReferenceTokens(input));
      // the one-pass reading of both gives what each gives alone
      assert.deepEqual(wordsAndReferenceTokens(input), {
        words: specTokenize(input),
        referenceTokens: specReferenceTokens(input),
      });
    }),
    { numRuns: 3000 },
  );
});
