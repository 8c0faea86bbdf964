// The one tokenizer behind the document model, the scorers and the word statistics (docs/reference.md#document-model):
// words are runs of letters (Unicode \p{L}, with combining marks), lower-cased; everything else separates.
// Stop words come from stopwords-iso's maintained English list, not a hand-made one.
import { createRequire } from 'node:module';

// stopwords-iso ships plain JSON as its main entry; require() reads it the same way under tsx and compiled output.
const stopwordsIso = createRequire(import.meta.url)('stopwords-iso') as Record<string, string[]>;

const WORD = /[\p{L}][\p{L}\p{M}]*/gu;

const englishStopWords: ReadonlySet<string> = new Set(stopwordsIso.en ?? []);

/** Every alphabetic token of `text`, lower-cased, in order (stop words kept). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

export function isStopWord(word: string): boolean {
  return englishStopWords.has(word);
}

/** The document model's `words`: alphabetic, lower-cased, stop words removed. */
export function contentWords(text: string): string[] {
  return tokenize(text).filter((word) => !englishStopWords.has(word));
}
