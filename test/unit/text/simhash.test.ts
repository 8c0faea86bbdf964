// The simhash of kept-word shingles (docs/reference.md#change-classes): stable, blind to digits and stop words,
// near for a small edit and far for another text; compareTexts' textChanged and similarity.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareTexts, hammingDistance, simhash } from '../../../src/crawler/text/simhash.js';

const ARTICLE =
  'The harbour master opened the new quay on a bright morning. Fishing boats lined the wall while the ferry ' +
  'waited at the pier. Traders sold fresh mackerel, crab and oysters from wooden stalls along the promenade. ' +
  'Children watched the gulls circle above the lighthouse as the tide came in over the sandbanks.';

test('simhash: 16 hex digits, the same for the same kept words, none for a text without any', () => {
  const hash = simhash(ARTICLE);
  assert.match(hash ?? '', /^[0-9a-f]{16}$/);
  assert.equal(simhash(ARTICLE), hash);
  // digits, punctuation, case and stop words are not kept words
  assert.equal(simhash(ARTICLE.toUpperCase().replace(/\./g, '!')), hash);
  assert.equal(simhash(`${ARTICLE} Updated 2026-11-29 10:42.`), simhash(`${ARTICLE} Updated.`));
  assert.equal(simhash('2026 — 11:42 … the of and'), null);
});

test('a small edit is nearer than another text, which is about half the bits away', () => {
  const edited = ARTICLE.replace('fresh mackerel', 'smoked herring');
  const other =
    'Quarterly revenue grew on strong demand for cloud software licences, the company said, while operating ' +
    'costs fell as the firm closed two data centres and moved its payroll system to a managed service.';
  const near = hammingDistance(simhash(ARTICLE)!, simhash(edited)!);
  const far = hammingDistance(simhash(ARTICLE)!, simhash(other)!);
  // a short text has few shingles, so one edit moves many votes: near is relative to far, not small alone
  assert.ok(near > 0 && near < far, `an edit of two words: ${near} bits; an unrelated text: ${far}`);
  assert.ok(far >= 20, `an unrelated text: ${far} bits`);
  assert.equal(hammingDistance('ffffffffffffffff', '0000000000000000'), 64);
  assert.equal(hammingDistance('8000000000000001', '0000000000000000'), 2);
});

test('compareTexts: a new number alone is no text change; an edit is, with its similarity', () => {
  const counted = compareTexts('Visitors so far: 1041. Fair winds.', 'Visitors so far: 2213. Fair winds.');
  assert.deepEqual(counted, { textChanged: false, similarity: 1 });
  const edited = compareTexts(ARTICLE, ARTICLE.replace('bright morning', 'grey afternoon'));
  assert.equal(edited.textChanged, true);
  assert.ok(edited.similarity > 0.7 && edited.similarity < 1, String(edited.similarity));
  assert.deepEqual(compareTexts('', '42'), { textChanged: false, similarity: 1 });
  assert.deepEqual(compareTexts('', 'harbour'), { textChanged: true, similarity: 0 });
});
