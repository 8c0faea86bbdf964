import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WordCounter } from '../../../src/crawler/stats/index.js';
import { InputError } from '../../../src/errors.js';

test('ranks by frequency (ties alphabetical) with Zipf r·f/N', () => {
  const counter = new WordCounter();
  counter.add(['the', 'cat', 'the', 'dog', 'the', 'cat', 'ant']);
  assert.equal(counter.totalWords, 7);
  assert.equal(counter.distinctWords, 4);
  assert.deepEqual(counter.top(3), [
    { word: 'the', rank: 1, frequency: 3, zipf: 3 / 7 },
    { word: 'cat', rank: 2, frequency: 2, zipf: 4 / 7 },
    { word: 'ant', rank: 3, frequency: 1, zipf: 3 / 7 },
  ]);
  assert.equal(counter.top(10).length, 4);
  assert.deepEqual(counter.top(0), []);
  assert.throws(() => counter.top(-1), InputError);
});

test('addText uses the shared tokenizer and keeps stop words', () => {
  const counter = new WordCounter();
  counter.addText('The cat and THE hat, 42 times!');
  assert.equal(counter.totalWords, 6);
  assert.equal(counter.frequency('the'), 2);
  assert.equal(counter.frequency('and'), 1);
});

test('merge adds counts and totals', () => {
  const a = new WordCounter();
  a.add(['x', 'y', 'x']);
  const b = new WordCounter();
  b.add(['y', 'z']);
  a.merge(b);
  assert.equal(a.totalWords, 5);
  assert.equal(a.distinctWords, 3);
  assert.deepEqual(
    a.top(3).map(({ word, frequency }) => [word, frequency]),
    [
      ['x', 2],
      ['y', 2],
      ['z', 1],
    ],
  );
  assert.equal(b.totalWords, 2);
});

test('JSON round trip keeps every count, including words that are object keys', () => {
  const counter = new WordCounter();
  counter.add(['__proto__', 'constructor', 'word', 'word']);
  const copy = WordCounter.fromJSON(JSON.parse(JSON.stringify(counter)));
  assert.deepEqual(copy.top(10), counter.top(10));
  assert.equal(copy.totalWords, 4);
  copy.add(['word']);
  assert.equal(copy.frequency('word'), 3);
});

test('fromJSON names the faulty field', () => {
  const fieldOf = (json: unknown) => {
    try {
      WordCounter.fromJSON(json);
    } catch (error) {
      assert.ok(error instanceof InputError);
      return error.field;
    }
    return 'accepted';
  };
  assert.equal(fieldOf({ version: 2, totalWords: 0, words: [] }), '/version');
  assert.equal(fieldOf({ version: 1, totalWords: 1, words: [['a', 0]] }), '/words/0');
  assert.equal(
    fieldOf({
      version: 1,
      totalWords: 2,
      words: [
        ['a', 1],
        ['a', 1],
      ],
    }),
    '/words/1',
  );
  assert.equal(fieldOf({ version: 1, totalWords: 3, words: [['a', 1]] }), '/totalWords');
  assert.equal(fieldOf({ version: 1, totalWords: 1, words: [['a', 1]] }), 'accepted');
});
