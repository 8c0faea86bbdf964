import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  compileKeywordQuery,
  type KeywordDocument,
  type KeywordQuery,
  type KeywordTerm,
  parseKeywordQuery,
  scoreKeywordQuery,
} from '../../../src/crawler/score/keyword-query.js';
import { PhraseMatcher } from '../../../src/crawler/score/phrase-matcher.js';
import { isStopWord } from '../../../src/crawler/text/tokenize.js';
import { Rng } from '../../support/testweb/random.js';

// The scorer as it was before phrases were matched in one pass: a scan of the document per phrase. It is the
// oracle the linear matcher must agree with on every input.
function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  const last = haystack.length - needle.length;
  outer: for (let start = 0; start <= last; start++) {
    for (let k = 0; k < needle.length; k++) {
      if (haystack[start + k] !== needle[k]) continue outer;
    }
    return true;
  }
  return false;
}

function oracleHas(doc: KeywordDocument, term: KeywordTerm): boolean {
  const [first, ...rest] = term.words;
  if (first === undefined) return false;
  if (rest.length === 0) {
    if (!isStopWord(first)) return new Set(doc.words).has(first);
    if (doc.textWords === undefined) return false;
    return new Set(doc.textWords).has(first);
  }
  if (doc.textWords !== undefined) return containsSequence(doc.textWords, term.words);
  const contentPhrase = term.words.filter((word) => !isStopWord(word));
  return contentPhrase.length > 0 && containsSequence(doc.words, contentPhrase);
}

function oracleScore(query: KeywordQuery, doc: KeywordDocument): number {
  const clauses = query.all.length + query.anyOf.length;
  if (clauses === 0) return 0;
  let satisfied = 0;
  for (const term of query.all) if (oracleHas(doc, term)) satisfied++;
  for (const group of query.anyOf) if (group.some((term) => oracleHas(doc, term))) satisfied++;
  return satisfied / clauses;
}

// Few words, stop words among them, so phrases overlap, repeat and share prefixes (the cases a matcher gets wrong).
const WORDS = ['cat', 'dog', 'grand', 'slam', 'the', 'of', 'a', 'bank'];

function randomWords(rng: Rng, min: number, max: number): string[] {
  return Array.from({ length: rng.between(min, max) }, () => rng.pick(WORDS));
}

function randomQuery(rng: Rng): string {
  const parts: string[] = [];
  const term = () => (rng.chance(0.6) ? `"${randomWords(rng, 1, 4).join(' ')}"` : rng.pick(WORDS));
  for (let i = rng.between(1, 6); i > 0; i--) {
    parts.push(rng.chance(0.3) ? `(${Array.from({ length: rng.between(1, 3) }, term).join(' ')})` : term());
  }
  return parts.join(' ');
}

test('PhraseMatcher finds exactly the phrases a scan per phrase finds (seeded random inputs)', () => {
  const rng = new Rng(20_240_611);
  for (let round = 0; round < 2000; round++) {
    const phrases = Array.from({ length: rng.between(1, 8) }, () => randomWords(rng, 1, 5));
    const document = randomWords(rng, 0, 60);
    const expected = phrases.map((phrase) => containsSequence(document, phrase));
    assert.deepEqual(
      new PhraseMatcher(phrases).findIn(document),
      expected,
      JSON.stringify({ phrases, document }),
    );
  }
});

test('PhraseMatcher: overlapping and nested phrases, repeats, a word in no phrase, the empty phrase', () => {
  const matcher = new PhraseMatcher([
    ['a', 'a', 'b'],
    ['a', 'b'],
    ['b'],
    ['a', 'b', 'a', 'b', 'c'],
    [],
    ['a', 'b'],
  ]);
  assert.deepEqual(matcher.findIn(['a', 'a', 'a', 'b']), [true, true, true, false, false, true]);
  assert.deepEqual(matcher.findIn(['a', 'b', 'a', 'b', 'a', 'b', 'c']), [
    false,
    true,
    true,
    true,
    false,
    true,
  ]);
  assert.deepEqual(matcher.findIn(['a', 'x', 'b']), [false, false, true, false, false, false]);
  assert.deepEqual(matcher.findIn([]), [false, false, false, false, false, false]);
  // few phrases take the KMP scan per phrase instead of the automaton: the same answers
  const few = new PhraseMatcher([['a', 'a', 'b'], ['a', 'b', 'a', 'b', 'c'], []]);
  assert.deepEqual(few.findIn(['a', 'a', 'a', 'b']), [true, false, false]);
  assert.deepEqual(few.findIn(['a', 'b', 'a', 'b', 'a', 'b', 'c']), [false, true, false]);
  // a matcher is reusable: nothing of one document leaks into the next
  assert.deepEqual(matcher.findIn(['a', 'a', 'b']), [true, true, true, false, false, true]);
});

test('keyword scores equal the per-phrase-scan scorer on random queries and documents', () => {
  const rng = new Rng(7_031_977);
  let compared = 0;
  for (let round = 0; round < 1500; round++) {
    let query: KeywordQuery;
    try {
      query = parseKeywordQuery(randomQuery(rng));
    } catch {
      continue; // e.g. a phrase of no letters; the parser's faults have tests of their own
    }
    const compiled = compileKeywordQuery(query);
    for (let d = 0; d < 4; d++) {
      const textWords = randomWords(rng, 0, 40);
      const docs: KeywordDocument[] = [
        { words: textWords.filter((word) => !isStopWord(word)), textWords },
        { words: randomWords(rng, 0, 40).filter((word) => !isStopWord(word)) },
      ];
      for (const doc of docs) {
        const expected = oracleScore(query, doc);
        assert.equal(compiled(doc), expected, JSON.stringify({ query, doc }));
        assert.equal(scoreKeywordQuery(query, doc), expected);
        compared++;
      }
    }
  }
  assert.ok(compared > 5000, `only ${compared} comparisons`);
});

test('phrase matching reads a long document once, however many phrases the query has', () => {
  // 200 phrases that share their first words with a document of one repeated word: a scan per phrase re-reads
  // the document for each; here the score must still be right (the time is the eventloop benchmark's concern).
  const phrases = Array.from(
    { length: 200 },
    (_, i) => `"cat cat cat ${WORDS[i % 4]} ${String.fromCharCode(97 + (i % 26))}x"`,
  );
  const query = parseKeywordQuery(phrases.join(' '));
  const textWords = new Array<string>(50_000).fill('cat');
  textWords.push('cat', 'dog', 'bx');
  const doc = { words: textWords.filter((word) => !isStopWord(word)), textWords };
  assert.equal(scoreKeywordQuery(query, doc), oracleScore(query, doc));
});
