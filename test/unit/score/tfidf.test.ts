import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHtml } from '../../../src/crawler/parse/parse-html.js';
import {
  CorpusBuilder,
  corpusFromJSON,
  cosineSimilarity,
  TfIdfScorer,
  termFrequencies,
  termWeights,
} from '../../../src/crawler/score/tfidf.js';
import { referenceTokens } from '../../../src/crawler/text/tokenize.js';
import { WordModel } from '../../../src/crawler/text/word-model.js';
import { InputError } from '../../../src/errors.js';

// A four-document corpus: N = 4, df(cat) = 3, df(dog) = df(fish) = df(bird) = 1.
function tinyCorpus() {
  const builder = new CorpusBuilder();
  builder.addDocument(['cat', 'dog', 'cat']);
  builder.addDocument(['cat', 'fish']);
  builder.addDocument(['bird']);
  builder.addDocument(['cat']);
  return builder;
}
// tokens as parseHtml gives them: the title's first, then the visible text (which holds the headings)
const doc = (words: string[], title = '', h1: string[] = [], h2: string[] = []) => ({
  title,
  h1,
  h2,
  tokens: [...referenceTokens(title), ...words],
});
const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

test('CorpusBuilder counts each word once per document; JSON round-trips', () => {
  const builder = tinyCorpus();
  assert.deepEqual(builder.toJSON(), { documentCount: 4, frequencies: { cat: 3, dog: 1, fish: 1, bird: 1 } });
  const corpus = corpusFromJSON(builder.toJSON());
  assert.equal(corpus.documentCount, 4);
  assert.equal(corpus.documentFrequency('cat'), 3);
  assert.equal(corpus.documentFrequency('zebra'), 0);
});

test('corpusFromJSON rejects impossible counts as InputError', () => {
  assert.throws(() => corpusFromJSON({ documentCount: -1, frequencies: {} }), InputError);
  assert.throws(() => corpusFromJSON({ documentCount: 2, frequencies: { cat: 3 } }), /frequency of "cat"/);
  assert.throws(() => corpusFromJSON({ documentCount: 2, frequencies: { cat: 0.5 } }), InputError);
});

test('weight(w) = tf(w)·ln(N/df(w)); absent words have df 1; df = N gives weight 0 and is left out', () => {
  const builder = tinyCorpus();
  builder.addDocument(['cat']); // now N = 5, df(cat) = 4
  const weights = termWeights([doc(['dog', 'dog', 'cat']), doc(['zebra'])], builder.toCorpus());
  assert.deepEqual([...weights.keys()].sort(), ['cat', 'dog', 'zebra']);
  close(weights.get('dog')!, 2 * Math.log(5 / 1));
  close(weights.get('cat')!, 1 * Math.log(5 / 4));
  close(weights.get('zebra')!, 1 * Math.log(5 / 1));
  const everywhere = new CorpusBuilder();
  everywhere.addDocument(['cat']);
  everywhere.addDocument(['cat', 'dog']);
  assert.deepEqual([...termWeights([doc(['cat', 'dog'])], everywhere.toCorpus())], [['dog', Math.log(2)]]);
});

test('location multipliers: title ×5, h1 ×3, h2 ×2 per occurrence, body words counted once', () => {
  // words is the whole visible text, so the h1 and h2 words are in it once already
  const page = doc(['fish', 'tank', 'bird', 'cat', 'fish'], 'The Dog', ['Fish tank'], ['bird']);
  assert.deepEqual(
    Object.fromEntries(termFrequencies([page])),
    { fish: 2 + 2, tank: 3, bird: 2, cat: 1, dog: 5 }, // fish: once in the h1 (3) + once in the body (1)
  );
  const fromHtml = parseHtml(
    '<title>The Dog</title><h1>Fish tank</h1><h2>bird</h2><p>cat fish</p>',
    'https://ex.com/',
  );
  assert.deepEqual(
    Object.fromEntries(termFrequencies([fromHtml])),
    Object.fromEntries(termFrequencies([page])),
  );
  const weights = termWeights([page], tinyCorpus().toCorpus());
  close(weights.get('dog')!, 5 * Math.log(4));
  close(weights.get('fish')!, 4 * Math.log(4));
  close(weights.get('cat')!, Math.log(4 / 3));
});

test('cosineSimilarity: 0 for empty vectors, 1 for parallel, 0 for orthogonal, hand-computed otherwise', () => {
  const a = new Map([
    ['x', 3],
    ['y', 4],
  ]);
  assert.equal(cosineSimilarity(a, new Map()), 0);
  assert.equal(cosineSimilarity(new Map(), a), 0);
  assert.equal(cosineSimilarity(a, new Map([['z', 1]])), 0);
  close(
    cosineSimilarity(
      a,
      new Map([
        ['x', 6],
        ['y', 8],
      ]),
    ),
    1,
  );
  close(cosineSimilarity(a, new Map([['x', 1]])), 3 / 5);
});

test('TfIdfScorer: the cosine of the page vector with the similarity-set vector', () => {
  const corpus = tinyCorpus().toCorpus();
  const scorer = new TfIdfScorer([doc(['dog', 'cat']), doc(['dog'])], corpus);
  // set: dog 2·ln4, cat ln(4/3); page: dog ln4, fish ln4
  const ln4 = Math.log(4);
  const lnCat = Math.log(4 / 3);
  const expected = (2 * ln4 * ln4) / (Math.sqrt(4 * ln4 * ln4 + lnCat * lnCat) * Math.sqrt(2) * ln4);
  close(scorer.score(doc(['dog', 'fish'])), expected);
  close(scorer.score(doc(['dog', 'dog', 'cat', 'dog', 'dog', 'cat'])), 1);
  assert.equal(scorer.score(doc(['bird'])), 0);
  assert.equal(scorer.score(doc([])), 0);
  const idle = new TfIdfScorer([doc([])], corpus);
  assert.equal(idle.score(doc(['dog'])), 0);
});

test('an empty corpus is an InputError, not NaN scores', () => {
  assert.throws(() => new TfIdfScorer([doc(['dog'])], new CorpusBuilder().toCorpus()), InputError);
});

test('content words are not stop words: two identical documents of them are similar (the compact list)', () => {
  const text = 'computer system research information problem';
  const corpus = new CorpusBuilder();
  corpus.addDocument(WordModel.default.words(referenceTokens(text)));
  corpus.addDocument(['tennis']);
  const scorer = new TfIdfScorer([doc(referenceTokens(text))], corpus.toCorpus());
  close(scorer.score(doc(referenceTokens(text))), 1);
  // a stop word of the compact list is still one
  assert.deepEqual(WordModel.default.words(['the', 'open', 'home', 'page', 'of', 'facts']), [
    'open',
    'home',
    'page',
    'facts',
  ]);
});

test('stop-word settings and stemming: none keeps them, a custom list replaces them, stem joins forms', () => {
  const none = new WordModel({ stopWords: 'none', stem: false });
  assert.deepEqual(none.words(['the', 'cat']), ['the', 'cat']);
  const custom = new WordModel({ stopWords: ['Cat'], stem: false });
  assert.deepEqual(custom.words(['the', 'cat', 'dog']), ['the', 'dog']);
  const stemmed = new WordModel({ stopWords: 'default', stem: true });
  assert.deepEqual(stemmed.words(referenceTokens('Cats purr; a cat purrs')), ['cat', 'purr', 'cat', 'purr']);
  // docs/guide.md's example (Corpora): without stemming "cats purr" and "a cat" share no term
  const corpus = new CorpusBuilder();
  for (const text of ['cats purr', 'a cat', 'dogs bark'])
    corpus.addDocument(stemmed.words(referenceTokens(text)));
  assert.equal(
    new TfIdfScorer([doc(referenceTokens('cats purr'))], corpus.toCorpus()).score(doc(['a', 'cat'])),
    0,
  );
  const scored = new TfIdfScorer([doc(referenceTokens('cats purr'))], corpus.toCorpus(), stemmed).score(
    doc(['a', 'cat']),
  );
  // by hand: N = 3, df(cat) = 2, df(purr) = 1; set (cat ln1.5, purr ln3), page (cat ln1.5)
  close(scored, Math.log(1.5) / Math.sqrt(Math.log(1.5) ** 2 + Math.log(3) ** 2));
  assert.deepEqual(stemmed.describe(), { tokenizer: 'reference-v1', stopWords: 'default', stem: true });
  assert.deepEqual(custom.describe().stopWords, ['cat']);
});
