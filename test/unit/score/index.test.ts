import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHtml } from '../../../src/crawler/parse/parse-html.js';
import { CorpusBuilder, createRelevanceScorer, TfIdfScorer } from '../../../src/crawler/score/index.js';
import { InputError } from '../../../src/errors.js';

const page = parseHtml('<title>Cats</title><p>A cat and a snake met a dog.</p>', 'https://ex.com/');

test('keyword spec: parses once, scores parsed pages', () => {
  const scorer = createRelevanceScorer({ query: 'cat bird (snake lion)' });
  assert.equal(scorer.kind, 'keyword');
  assert.equal(scorer.score(page), 2 / 3);
  assert.throws(() => createRelevanceScorer({ query: 'cat (' }), InputError);
});

test('tfidf spec: the same scores as TfIdfScorer', () => {
  const builder = new CorpusBuilder();
  for (const words of [['cat', 'dog'], ['fish'], ['cat'], ['bird']]) builder.addDocument(words);
  const corpus = builder.toCorpus();
  const similaritySet = [parseHtml('<h1>Dogs</h1><p>dog and cat</p>', 'https://ex.com/s')];
  const scorer = createRelevanceScorer({ similaritySet, corpus });
  assert.equal(scorer.kind, 'tfidf');
  const expected = new TfIdfScorer(similaritySet, corpus).score(page);
  assert.ok(expected > 0 && expected < 1);
  assert.equal(scorer.score(page), expected);
});
