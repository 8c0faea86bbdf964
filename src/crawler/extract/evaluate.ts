// Scores an extraction against known main content as a bag of words: the shared tokenizer's lower-cased word
// tokens, counted with multiplicity, give precision (extracted words that belong), recall (expected words found)
// and their harmonic mean F1 — the usual measure in the content-extraction literature (CleanEval, CETD §5).
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
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
