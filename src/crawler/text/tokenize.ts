// The two tokenizers of the document model (docs/reference.md#document-model), each for its own readers:
//  - tokenize(): runs of letters (Unicode \p{L}, with combining marks), lower-cased; everything else separates.
//    Word statistics, the positions of links in the text (topic weights), keyword phrases and stop-word terms.
//  - referenceTokens(): the reference's words: whitespace-separated tokens, lower-cased, with punctuation and
//    symbols at their edges stripped, kept only when wholly alphabetic ("zebra2", "e-mail", "2016" are
//    dropped, "dog," is "dog"). The document's `words` (both scorers, corpora) are these without stop words.
import { SNOWBALL_ENGLISH_STOP_WORDS } from './stop-words.js';

// Both are scanners over code points with a per-code-point class table rather than the Unicode-property
// regular expressions that define them (kept in test/unit/text/tokenize.test.ts, which checks the two agree
// on arbitrary text): on the text of a real page the regular expressions cost several times the whole parse.

enum CharClass {
  Unknown = 0,
  Other = 1,
  Letter = 2,
  Mark = 3,
  /** \p{P} or \p{S}: stripped from a reference token's edges. */
  PunctuationOrSymbol = 4,
  /** \s of a Unicode regular expression: separates reference tokens. */
  Space = 5,
}

const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;
const PUNCTUATION_OR_SYMBOL = /[\p{P}\p{S}]/u;
const SPACE = /\s/u;

/** Each code point's class, filled in as code points are first met (one byte each: 1.1 MB at most). */
const classes = new Uint8Array(0x110000);

function classOf(codePoint: number): CharClass {
  const known = classes[codePoint] as CharClass;
  if (known !== CharClass.Unknown) return known;
  const char = String.fromCodePoint(codePoint);
  const found = LETTER.test(char)
    ? CharClass.Letter
    : MARK.test(char)
      ? CharClass.Mark
      : PUNCTUATION_OR_SYMBOL.test(char)
        ? CharClass.PunctuationOrSymbol
        : SPACE.test(char)
          ? CharClass.Space
          : CharClass.Other;
  classes[codePoint] = found;
  return found;
}

/** The code point at `index` of `text`, a lone surrogate as itself (as a `u` regular expression sees it). */
function codePointAt(text: string, index: number): number {
  return text.codePointAt(index) as number;
}

const englishStopWords: ReadonlySet<string> = new Set(SNOWBALL_ENGLISH_STOP_WORDS);

/** Every alphabetic run of `text` (a letter, then letters and marks), lower-cased, in order (stop words kept). */
export function tokenize(text: string): string[] {
  const lower = text.toLowerCase();
  const words: string[] = [];
  let start = -1;
  for (let index = 0; index < lower.length; ) {
    const codePoint = codePointAt(lower, index);
    const kind = classOf(codePoint);
    if (start === -1) {
      if (kind === CharClass.Letter) start = index;
    } else if (kind !== CharClass.Letter && kind !== CharClass.Mark) {
      words.push(lower.slice(start, index));
      start = -1;
    }
    index += codePoint > 0xffff ? 2 : 1;
  }
  if (start !== -1) words.push(lower.slice(start));
  return words;
}

/** The reference's tokens of `text`, lower-cased, in order (stop words kept). */
export function referenceTokens(text: string): string[] {
  const lower = text.toLowerCase();
  const tokens: string[] = [];
  let index = 0;
  while (index < lower.length) {
    // one whitespace-separated token: [start, end)
    while (index < lower.length && classOf(codePointAt(lower, index)) === CharClass.Space) index++;
    const start = index;
    while (index < lower.length) {
      const codePoint = codePointAt(lower, index);
      if (classOf(codePoint) === CharClass.Space) break;
      index += codePoint > 0xffff ? 2 : 1;
    }
    const token = referenceToken(lower, start, index);
    if (token !== null) tokens.push(token);
  }
  return tokens;
}

/** lower[start, end) without punctuation and symbols at its edges, when what is left is alphabetic; else null. */
function referenceToken(lower: string, start: number, end: number): string | null {
  let first = start;
  while (first < end) {
    const codePoint = codePointAt(lower, first);
    if (classOf(codePoint) !== CharClass.PunctuationOrSymbol) break;
    first += codePoint > 0xffff ? 2 : 1;
  }
  if (first === end) return null;
  // alphabetic: a letter first, then letters and marks, up to trailing punctuation and symbols
  if (classOf(codePointAt(lower, first)) !== CharClass.Letter) return null;
  let last = first;
  let index = first;
  while (index < end) {
    const codePoint = codePointAt(lower, index);
    const kind = classOf(codePoint);
    index += codePoint > 0xffff ? 2 : 1;
    if (kind === CharClass.Letter || kind === CharClass.Mark) last = index;
    else if (kind !== CharClass.PunctuationOrSymbol) return null;
    else {
      // punctuation inside the token ("e-mail") makes it non-alphabetic unless only more of it follows
      while (index < end) {
        const next = codePointAt(lower, index);
        if (classOf(next) !== CharClass.PunctuationOrSymbol) return null;
        index += next > 0xffff ? 2 : 1;
      }
    }
  }
  return lower.slice(first, last);
}

export function isStopWord(word: string): boolean {
  return englishStopWords.has(word);
}

/** The document model's default `words` of a text: reference tokens without the English stop words. */
export function contentWords(text: string): string[] {
  return withoutStopWords(referenceTokens(text));
}

/** Reference tokens without the English stop words: contentWords of the text they came from. */
export function withoutStopWords(tokens: readonly string[]): string[] {
  return tokens.filter((word) => !englishStopWords.has(word));
}

/** Where wordsAndReferenceTokens is in the whitespace token it reads. */
enum Reference {
  /** Between tokens (white space, or the text's start). */
  Between = 0,
  /** In the punctuation and symbols that open a token. */
  Leading = 1,
  /** In its letters and marks. */
  Body = 2,
  /** In the punctuation and symbols that close it. */
  Trailing = 3,
  /** Not alphabetic: it is skipped to its end. */
  Dropped = 4,
}

/**
 * tokenize(text) and referenceTokens(text) from one pass over the text, for a reader that needs both (a page's
 * word counts and its simhash's kept words): the text is lower-cased and each code point classified once.
 */
export function wordsAndReferenceTokens(text: string): { words: string[]; referenceTokens: string[] } {
  const lower = text.toLowerCase();
  const words: string[] = [];
  const references: string[] = [];
  // tokenize's state: where the current alphabetic run starts, or -1
  let wordStart = -1;
  // referenceTokens' state for the whitespace token being read: its kept part [first, last) and how far it is
  let state = Reference.Between;
  let first = 0;
  let last = 0;
  for (let index = 0; index < lower.length; ) {
    const codePoint = codePointAt(lower, index);
    const kind = classOf(codePoint);
    const next = index + (codePoint > 0xffff ? 2 : 1);
    if (wordStart === -1) {
      if (kind === CharClass.Letter) wordStart = index;
    } else if (kind !== CharClass.Letter && kind !== CharClass.Mark) {
      words.push(lower.slice(wordStart, index));
      wordStart = -1;
    }
    if (kind === CharClass.Space) {
      if (state === Reference.Body || state === Reference.Trailing) references.push(lower.slice(first, last));
      state = Reference.Between;
    } else if (state === Reference.Between || state === Reference.Leading) {
      // punctuation and symbols at its start are stripped; what is left must open with a letter
      if (kind === CharClass.PunctuationOrSymbol) state = Reference.Leading;
      else if (kind === CharClass.Letter) {
        state = Reference.Body;
        first = index;
        last = next;
      } else state = Reference.Dropped;
    } else if (state === Reference.Body) {
      if (kind === CharClass.Letter || kind === CharClass.Mark) last = next;
      else state = kind === CharClass.PunctuationOrSymbol ? Reference.Trailing : Reference.Dropped;
    } else if (state === Reference.Trailing && kind !== CharClass.PunctuationOrSymbol) {
      // punctuation inside the token ("e-mail") makes it non-alphabetic
      state = Reference.Dropped;
    }
    index = next;
  }
  if (wordStart !== -1) words.push(lower.slice(wordStart));
  if (state === Reference.Body || state === Reference.Trailing) references.push(lower.slice(first, last));
  return { words, referenceTokens: references };
}
