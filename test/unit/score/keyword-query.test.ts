import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHtml } from '../../../src/crawler/parse/parse-html.js';
import { parseKeywordQuery, scoreKeywordQuery } from '../../../src/crawler/score/keyword-query.js';
import { InputError } from '../../../src/errors.js';

const score = (query: string, doc: { words: string[]; textWords?: string[] }) =>
  scoreKeywordQuery(parseKeywordQuery(query), doc);

test('docs/reference.md#keyword-query worked example scores exactly 4/6', () => {
  const words = ['cat', 'cat', 'bunny', 'snake', 'horse', 'fish'];
  assert.equal(score('cat dog bird (bunny snake) fish (horse lion)', { words }), 4 / 6);
});

test('the parse: ANDed terms, OR groups, phrases, each with its position', () => {
  const query = parseKeywordQuery(' Cat (bunny "Grand  Slam")  e-mail');
  assert.deepEqual(query, {
    all: [
      { source: 'Cat', position: 1, words: ['cat'] },
      { source: 'e-mail', position: 28, words: ['e', 'mail'] },
    ],
    anyOf: [
      [
        { source: 'bunny', position: 6, words: ['bunny'] },
        { source: 'Grand  Slam', position: 12, words: ['grand', 'slam'] },
      ],
    ],
  });
  // parentheses and quotes delimit terms without spaces
  const tight = parseKeywordQuery('a(b c)"d e"f');
  assert.deepEqual(
    tight.all.map((term) => term.source),
    ['a', 'd e', 'f'],
  );
  assert.deepEqual(
    tight.anyOf.map((group) => group.map((term) => term.source)),
    [['b', 'c']],
  );
});

function assertFault(query: string, position: number, message: RegExp): void {
  assert.throws(
    () => parseKeywordQuery(query),
    (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.equal(error.field, 'query');
      assert.deepEqual(error.detail, { position });
      assert.match(error.message, message);
      assert.equal(error.code, 'validation');
      return true;
    },
    query,
  );
}

test('malformed queries are InputErrors on "query" with the 0-based fault position', () => {
  assertFault('', 0, /Empty query/);
  assertFault('   \t ', 0, /Empty query/);
  assertFault('cat (dog', 4, /Unbalanced "\("/);
  assertFault('cat dog) bird', 7, /Unbalanced "\)"/);
  assertFault('a (b (c) d)', 5, /Nested parentheses/);
  assertFault('a () b', 2, /Empty group/);
  assertFault('a (  ) b', 2, /Empty group/);
  assertFault('a "grand slam', 2, /Unterminated quote/);
  assertFault('a (b "c) d', 5, /Unterminated quote/);
  assertFault('a "" b', 2, /Empty phrase/);
  assertFault('"   "', 0, /Empty phrase/);
  assertFault('cat (dog 42)', 9, /no letters/);
  assertFault('"12 34"', 0, /no letters/);
});

test('a group is satisfied by any one of its terms; a document with nothing scores 0', () => {
  assert.equal(score('(bunny snake)', { words: ['snake'] }), 1);
  assert.equal(score('cat (bunny snake)', { words: ['cat'] }), 1 / 2);
  assert.equal(score('cat (bunny snake)', { words: [] }), 0);
});

test('terms are normalised like document words; repeated terms count once', () => {
  assert.equal(score('CAT Dog', { words: ['cat', 'dog'] }), 1);
  assert.equal(score('cat cat dog', { words: ['dog'] }), 1 / 2);
  assert.equal(score('(cat CAT) dog', { words: ['cat'] }), 1 / 2);
});

test('phrases match consecutive textWords, stop words included', () => {
  const doc = {
    words: ['won', 'grand', 'slam', 'bank', 'america'],
    textWords: ['won', 'the', 'grand', 'slam', 'bank', 'of', 'america'],
  };
  assert.equal(score('"grand slam"', doc), 1);
  assert.equal(score('"slam grand"', doc), 0);
  assert.equal(score('"the grand slam"', doc), 1);
  assert.equal(score('"won grand"', doc), 0); // "the" sits between them
  assert.equal(score('"bank of america" tennis', doc), 1 / 2);
  assert.equal(score('(tennis "grand slam")', doc), 1);
  // without textWords a phrase falls back to its non-stop words, consecutive in `words`
  assert.equal(score('"bank of america"', { words: doc.words }), 1);
  assert.equal(score('"won grand"', { words: doc.words }), 1);
});

test('a stop word as a term matches textWords; without them it can never match', () => {
  const textWords = ['the', 'who', 'played', 'live'];
  assert.equal(score('the who played', { words: ['played', 'live'], textWords }), 1);
  assert.equal(score('the who played', { words: ['played', 'live'] }), 1 / 3);
  // there are no operators: OR is just a (stop) word
  assert.equal(score('cat OR dog', { words: ['cat'], textWords: ['cat'] }), 1 / 3);
});

test('scores a parsed page', () => {
  const page = parseHtml(
    '<title>Pets</title><p>The cat sat next to a snake. Grand Slam tennis was on TV.</p>',
    'https://ex.com/',
  );
  assert.equal(scoreKeywordQuery(parseKeywordQuery('cat dog (bunny snake) "grand slam"'), page), 3 / 4);
});
