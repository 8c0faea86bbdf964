// Scores an extraction against known main content, the two ways the content-extraction literature does:
// - tokenF1: a bag of words (the shared tokenizer's lower-cased word tokens, counted with multiplicity), as in
//   CleanEval and CETD §5;
// - shingleF1: sets of word 4-grams ("shingles") of `\w+` tokens, as article-extraction benchmarks compare texts,
//   so that words in the wrong place or order do not count as found.
// Both give precision (extracted units that belong), recall (expected units found) and their harmonic mean F1.
import { tokenize } from '../text/tokenize.js';

export interface TokenScore {
  precision: number;
  recall: number;
  f1: number;
}

function countTokens(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokenize(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

function harmonicMean(precision: number, recall: number): number {
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** Token precision/recall/F1 of `extracted` against `expected`; two empty texts agree perfectly. */
export function tokenF1(extracted: string, expected: string): TokenScore {
  const got = countTokens(extracted);
  const want = countTokens(expected);
  let gotTotal = 0;
  let wantTotal = 0;
  let overlap = 0;
  for (const count of got.values()) gotTotal += count;
  for (const [token, count] of want) {
    wantTotal += count;
    overlap += Math.min(count, got.get(token) ?? 0);
  }
  if (gotTotal === 0 && wantTotal === 0) return { precision: 1, recall: 1, f1: 1 };
  const precision = gotTotal === 0 ? 0 : overlap / gotTotal;
  const recall = wantTotal === 0 ? 0 : overlap / wantTotal;
  return { precision, recall, f1: harmonicMean(precision, recall) };
}

const SHINGLE_WORD = /[\p{L}\p{M}\p{N}_]+/gu;
const SHINGLE_SIZE = 4;

function shingles(text: string): Set<string> {
  const words = text.match(SHINGLE_WORD) ?? [];
  const set = new Set<string>();
  for (let i = 0; i + SHINGLE_SIZE <= words.length; i++) set.add(words.slice(i, i + SHINGLE_SIZE).join(' '));
  return set;
}

/**
 * Word-4-gram shingle precision/recall/F1: the sets of 4 consecutive `\w+` tokens (case kept) of both texts.
 * No shingle on either side agrees perfectly; none in common scores 0.
 */
export function shingleF1(extracted: string, expected: string): TokenScore {
  const got = shingles(extracted);
  const want = shingles(expected);
  if (got.size === 0 && want.size === 0) return { precision: 1, recall: 1, f1: 1 };
  let common = 0;
  for (const shingle of got) if (want.has(shingle)) common++;
  if (common === 0) return { precision: 0, recall: 0, f1: 0 };
  const precision = common / got.size;
  const recall = common / want.size;
  return { precision, recall, f1: harmonicMean(precision, recall) };
}

/** Precision and recall averaged over pages, and the F1 of those means (how extraction benchmarks report). */
export function meanScore(scores: readonly TokenScore[]): TokenScore {
  const count = Math.max(scores.length, 1);
  const precision = scores.reduce((sum, s) => sum + s.precision, 0) / count;
  const recall = scores.reduce((sum, s) => sum + s.recall, 0) / count;
  return { precision, recall, f1: harmonicMean(precision, recall) };
}
