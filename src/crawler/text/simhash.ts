// A 64-bit simhash of a text (Charikar's: each feature's hash votes on every bit, the sign of the sum is the
// bit), and how two main texts compare (docs/reference.md#change-classes). Features are word shingles of the
// kept tokens: contentWords (alphabetic tokens, lower-cased, English stop words removed), three in a row, so
// digits (a date, a counter) never count and a reordered sentence does.
import { contentWords } from './tokenize.js';

/** Words per shingle: a text of fewer kept words is one shingle of all of them. */
export const SHINGLE_WORDS = 3;

/** The simhash of `text`'s kept-word shingles, as 16 hex digits; null when it has no kept word. */
export function simhash(text: string): string | null {
  return simhashOfContentWords(contentWords(text));
}

/** The simhash of a text whose contentWords are `words`. */
export function simhashOfContentWords(words: readonly string[]): string | null {
  if (words.length === 0) return null;
  const shingleWords = Math.min(SHINGLE_WORDS, words.length);
  const shingles = words.length - shingleWords + 1;
  // two independent 32-bit halves: the low and the high word of each feature's 64-bit hash
  const low = new BitCounts();
  const high = new BitCounts();
  for (let start = 0; start < shingles; start++) addShingle(words, start, shingleWords, low, high);
  // a bit is set when more features have it set than not: its ±1 votes sum above zero
  const hex = (counts: BitCounts) => (counts.majority(shingles) >>> 0).toString(16).padStart(8, '0');
  return hex(high) + hex(low);
}

/**
 * How many of the 32-bit words added had each bit set, kept bit-sliced: plane i holds bit i of all 32 counts,
 * and adding a word is a binary increment of the 32 counts at once, whose carry stops after two planes on
 * average, where counting each bit apart takes 32 steps a word.
 */
class BitCounts {
  private readonly planes = new Int32Array(32);

  add(word: number): void {
    let carry = word | 0;
    for (let plane = 0; carry !== 0; plane++) {
      const next = this.planes[plane]! & carry;
      this.planes[plane]! ^= carry;
      carry = next;
    }
  }

  /** The word whose bit is set where more than half of `added` words had it set. */
  majority(added: number): number {
    let word = 0;
    for (let bit = 0; bit < 32; bit++) {
      let count = 0;
      for (let plane = 31; plane >= 0; plane--) count = count * 2 + ((this.planes[plane]! >>> bit) & 1);
      if (2 * count > added) word |= 1 << bit;
    }
    return word;
  }
}

const SPACE = 0x20;
const FNV_PRIME = 0x01000193;
const LOW_SEED = 0x811c9dc5;
const HIGH_SEED = (0x01000193 ^ 0x9e3779b9) >>> 0;

/**
 * Adds the shingle `words[start … start + count)` to `low` and `high`: FNV-1a from each half's seed over the
 * UTF-16 code units of its words joined by single spaces, both halves in one pass, hashed where the words lie
 * (a text's shingles are as many as its words, too many to join each).
 */
function addShingle(
  words: readonly string[],
  start: number,
  count: number,
  low: BitCounts,
  high: BitCounts,
): void {
  let a = LOW_SEED;
  let b = HIGH_SEED;
  for (let w = start; w < start + count; w++) {
    if (w > start) {
      a = Math.imul(a ^ SPACE, FNV_PRIME) >>> 0;
      b = Math.imul(b ^ SPACE, FNV_PRIME) >>> 0;
    }
    const word = words[w]!;
    for (let index = 0; index < word.length; index++) {
      const unit = word.charCodeAt(index);
      a = Math.imul(a ^ unit, FNV_PRIME) >>> 0;
      b = Math.imul(b ^ unit, FNV_PRIME) >>> 0;
    }
  }
  low.add(avalanche(a));
  high.add(avalanche(b));
}

/** A final avalanche, so that shingles differing in their last characters differ in the high bits too. */
function avalanche(hash: number): number {
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

/** How a recrawl's changed page's main text compares with the earlier one (compareTexts). */
export interface TextComparison {
  textChanged: boolean;
  similarity: number;
}

/**
 * How a changed page's main text compares with the earlier one: `textChanged` when the kept words differ (so a
 * new date or counter alone is no change), and `similarity`, 1 − (differing simhash bits / 64): 1 for the same
 * kept words, about 0.5 for unrelated texts. Two texts without a kept word are alike (1); one alone is not (0).
 */
export function compareTexts(before: string, after: string): TextComparison {
  const wordsBefore = contentWords(before);
  const wordsAfter = contentWords(after);
  const textChanged = wordsBefore.join(' ') !== wordsAfter.join(' ');
  const a = simhashOfContentWords(wordsBefore);
  const b = simhashOfContentWords(wordsAfter);
  if (a === null || b === null) return { textChanged, similarity: a === b ? 1 : 0 };
  return { textChanged, similarity: textChanged ? 1 - hammingDistance(a, b) / 64 : 1 };
}
