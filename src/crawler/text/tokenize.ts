// The two tokenizers of the document model (docs/reference.md#document-model), each for its own readers:
//  - tokenize(): runs of letters (Unicode \p{L}, with combining marks), lower-cased; everything else separates.
//    Word statistics, the positions of links in the text (topic weights), keyword phrases and stop-word terms.
//  - referenceTokens(): the reference's words: whitespace-separated tokens, lower-cased, with punctuation and
//    symbols at their edges stripped, kept only when wholly alphabetic ("zebra2", "e-mail", "2016" are
//    dropped, "dog," is "dog"). The document's `words` (both scorers, corpora) are these without stop words.
import { SNOWBALL_ENGLISH_STOP_WORDS } from './stop-words.js';

const WORD = /[\p{L}][\p{L}\p{M}]*/gu;
const WHITESPACE = /\s+/u;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;
const ALPHABETIC = /^[\p{L}][\p{L}\p{M}]*$/u;

const englishStopWords: ReadonlySet<string> = new Set(SNOWBALL_ENGLISH_STOP_WORDS);

/** Every alphabetic run of `text`, lower-cased, in order (stop words kept). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** The reference's tokens of `text`, lower-cased, in order (stop words kept). */
export function referenceTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const raw of text.toLowerCase().split(WHITESPACE)) {
    const token = raw.replace(EDGE_PUNCTUATION, '');
    if (token && ALPHABETIC.test(token)) tokens.push(token);
  }
  return tokens;
}

export function isStopWord(word: string): boolean {
  return englishStopWords.has(word);
}

/** The document model's default `words` of a text: reference tokens without the English stop words. */
export function contentWords(text: string): string[] {
  return referenceTokens(text).filter((word) => !englishStopWords.has(word));
}
