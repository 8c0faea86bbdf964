// A 64-bit simhash of a text (Charikar's: each feature's hash votes on every bit, the sign of the sum is the
// bit), and how two main texts compare (docs/reference.md#change-classes). Features are word shingles of the
// kept tokens: contentWords (alphabetic tokens, lower-cased, English stop words removed), three in a row, so
// digits (a date, a counter) never count and a reordered sentence does.
import { contentWords } from './tokenize.js';

/** Words per shingle: a text of fewer kept words is one shingle of all of them. */
export const SHINGLE_WORDS = 3;

/** The simhash of `text`'s kept-word shingles, as 16 hex digits; null when it has no kept word. */
export function simhash(text: string): string | null {
  return simhashOfWords(contentWords(text));
}

function simhashOfWords(words: readonly string[]): string | null {
  if (words.length === 0) return null;
  const votes = new Int32Array(64);
  const shingleWords = Math.min(SHINGLE_WORDS, words.length);
  const shingles = words.length - shingleWords + 1;
  for (let start = 0; start < shingles; start++) {
    // two independent 32-bit halves: the low and the high word of the feature's 64-bit hash
    vote(votes, 0, shingleHash(words, start, shingleWords, 0x811c9dc5));
    vote(votes, 32, shingleHash(words, start, shingleWords, 0x01000193 ^ 0x9e3779b9));
  }
  let low = 0;
  let high = 0;
  for (let bit = 0; bit < 32; bit++) {
    if (votes[bit]! > 0) low |= 1 << bit;
    if (votes[32 + bit]! > 0) high |= 1 << bit;
  }
  return (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0');
}

function vote(votes: Int32Array, offset: number, hash: number): void {
  for (let bit = 0; bit < 32; bit++) votes[offset + bit]! += (((hash >>> bit) & 1) << 1) - 1;
}

const SPACE = 0x20;

/**
 * FNV-1a from `seed` over the UTF-16 code units of the shingle `words[start … start + count)` joined by single
 * spaces, hashed where the words lie: a text's shingles are as many as its words, too many to join each.
 */
function shingleHash(words: readonly string[], start: number, count: number, seed: number): number {
  let hash = seed >>> 0;
  for (let w = start; w < start + count; w++) {
    if (w > start) hash = Math.imul(hash ^ SPACE, 0x01000193) >>> 0;
    const word = words[w]!;
    for (let index = 0; index < word.length; index++) {
      hash = Math.imul(hash ^ word.charCodeAt(index), 0x01000193) >>> 0;
    }
  }
  // a final avalanche, so that shingles differing in their last characters differ in the high bits too
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35) >>> 0;
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** Bits in which two simhashes (16 hex digits each) differ: 0 to 64. */
export function hammingDistance(a: string, b: string): number {
  let distance = 0;
  for (let offset = 0; offset < 16; offset += 8) {
    let diff =
      (Number.parseInt(a.slice(offset, offset + 8), 16) ^
        Number.parseInt(b.slice(offset, offset + 8), 16)) >>>
      0;
    while (diff !== 0) {
      diff &= diff - 1;
      distance++;
    }
  }
  return distance;
}

/**
 * How a changed page's main text compares with the earlier one: `textChanged` when the kept words differ (so a
 * new date or counter alone is no change), and `similarity`, 1 − (differing simhash bits / 64): 1 for the same
 * kept words, about 0.5 for unrelated texts. Two texts without a kept word are alike (1); one alone is not (0).
 */
export function compareTexts(before: string, after: string): { textChanged: boolean; similarity: number } {
  const wordsBefore = contentWords(before);
  const wordsAfter = contentWords(after);
  const textChanged = wordsBefore.join(' ') !== wordsAfter.join(' ');
  const a = simhashOfWords(wordsBefore);
  const b = simhashOfWords(wordsAfter);
  if (a === null || b === null) return { textChanged, similarity: a === b ? 1 : 0 };
  return { textChanged, similarity: textChanged ? 1 - hammingDistance(a, b) / 64 : 1 };
}
