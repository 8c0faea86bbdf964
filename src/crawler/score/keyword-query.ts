// Keyword-query scorer (docs/reference.md#keyword-query): terms separated by whitespace are ANDed, a parenthesised group is
// one OR clause, and score = satisfied clauses / clauses. Extended with quoted phrases ("grand slam") as one
// term. A malformed query is an InputError on field 'query' whose detail.position is the 0-based fault index.
//
// Matching (terms are normalised with the shared tokenizer, so they compare like document words):
//  - a term of one non-stop word matches the document's `words` (docs/reference.md#document-model: stop words removed);
//  - a stop word as a single term ("the", "who") matches `textWords`, which keep stop words; without textWords
//    it cannot match (never silently dropped: the denominator still counts it);
//  - a phrase, or a bare term the tokenizer splits into several words ("e-mail", "don't"), matches
//    consecutive words of `textWords`; without textWords, its non-stop words consecutive in `words`;
//  - a term with no letters at all ("42", "&") is rejected: it could never match;
//  - identical ANDed terms count once (`cat cat` is `cat`), as do identical terms inside one group;
//  - there are no operators: AND/OR/NOT written in the query are ordinary words.
import { InputError } from '../../errors.js';
import { isStopWord, tokenize } from '../text/tokenize.js';
import { PhraseMatcher } from './phrase-matcher.js';

export interface KeywordTerm {
  /** As written in the query (phrases without their quotes). */
  source: string;
  /** 0-based index of the term (of its opening quote for a phrase) in the query. */
  position: number;
  /** Normalised words, in order: one for a plain word, several for a phrase. */
  words: string[];
}

export interface KeywordQuery {
  /** Terms that must all be present (each one clause). */
  all: KeywordTerm[];
  /** OR groups: each is satisfied when one of its terms is present. */
  anyOf: KeywordTerm[][];
}

export interface KeywordDocument {
  words: readonly string[];
  textWords?: readonly string[];
}

function fault(message: string, position: number): InputError {
  return new InputError(`${message} at position ${position}`, 'query', { position });
}

function makeTerm(source: string, position: number, isPhrase: boolean): KeywordTerm {
  const words = tokenize(source);
  if (words.length === 0) {
    throw fault(
      isPhrase ? `Phrase "${source}" has no letters` : `Term "${source}" has no letters and can never match`,
      position,
    );
  }
  return { source, position, words };
}

function termKey(term: KeywordTerm): string {
  return term.words.join(' ');
}

function dedupe(terms: KeywordTerm[]): KeywordTerm[] {
  const seen = new Set<string>();
  return terms.filter((term) => {
    const key = termKey(term);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const SPACE = /\s/;

export function parseKeywordQuery(query: string): KeywordQuery {
  const all: KeywordTerm[] = [];
  const anyOf: KeywordTerm[][] = [];
  let group: KeywordTerm[] | null = null;
  let groupStart = -1;
  let i = 0;
  while (i < query.length) {
    const ch = query[i]!;
    if (SPACE.test(ch)) {
      i++;
    } else if (ch === '(') {
      if (group !== null) throw fault('Nested parentheses are not allowed: "(" inside a group', i);
      group = [];
      groupStart = i;
      i++;
    } else if (ch === ')') {
      if (group === null) throw fault('Unbalanced ")": no group is open', i);
      if (group.length === 0) throw fault('Empty group "()"', groupStart);
      anyOf.push(dedupe(group));
      group = null;
      i++;
    } else if (ch === '"') {
      const close = query.indexOf('"', i + 1);
      if (close === -1) throw fault("Unterminated quote: no closing '\"'", i);
      const source = query.slice(i + 1, close);
      if (source.trim() === '') throw fault('Empty phrase ""', i);
      (group ?? all).push(makeTerm(source, i, true));
      i = close + 1;
    } else {
      let end = i + 1;
      while (end < query.length && !SPACE.test(query[end]!) && !'()"'.includes(query[end]!)) end++;
      (group ?? all).push(makeTerm(query.slice(i, end), i, false));
      i = end;
    }
  }
  if (group !== null) throw fault('Unbalanced "(": group is never closed', groupStart);
  if (all.length === 0 && anyOf.length === 0) throw fault('Empty query: no terms', 0);
  return { all: dedupe(all), anyOf };
}

/**
 * A query prepared for scoring many documents (a crawl scores every page with one): its phrases in two
 * PhraseMatchers, so each document is read once for all of them, in time linear in its length.
 */
export function compileKeywordQuery(query: KeywordQuery): (doc: KeywordDocument) => number {
  const clauses = query.all.length + query.anyOf.length;
  const terms = [...query.all, ...query.anyOf.flat()];
  // Terms of several words, by key: matched against textWords, or by their non-stop words against `words`.
  const phraseIndex = new Map<string, number>();
  const textPhrases: string[][] = [];
  const contentPhrases: string[][] = [];
  for (const term of terms) {
    const key = termKey(term);
    if (term.words.length < 2 || phraseIndex.has(key)) continue;
    phraseIndex.set(key, textPhrases.length);
    textPhrases.push(term.words);
    contentPhrases.push(term.words.filter((word) => !isStopWord(word)));
  }
  let textMatcher: PhraseMatcher | undefined;
  let contentMatcher: PhraseMatcher | undefined;

  return (doc) => {
    if (clauses === 0) return 0;
    const contentSet = new Set(doc.words);
    let textSet: ReadonlySet<string> | undefined;
    let phrasesFound: boolean[] | undefined;
    const has = (term: KeywordTerm): boolean => {
      const [first, ...rest] = term.words;
      if (first === undefined) return false;
      if (rest.length === 0) {
        if (!isStopWord(first)) return contentSet.has(first);
        if (doc.textWords === undefined) return false;
        textSet ??= new Set(doc.textWords);
        return textSet.has(first);
      }
      if (phrasesFound === undefined) {
        if (doc.textWords !== undefined) {
          textMatcher ??= new PhraseMatcher(textPhrases);
          phrasesFound = textMatcher.findIn(doc.textWords);
        } else {
          // a phrase of stop words only has no content words to look for: never matched (the empty phrase)
          contentMatcher ??= new PhraseMatcher(contentPhrases);
          phrasesFound = contentMatcher.findIn(doc.words);
        }
      }
      return phrasesFound[phraseIndex.get(termKey(term))!] === true;
    };
    let satisfied = 0;
    for (const term of query.all) if (has(term)) satisfied++;
    for (const group of query.anyOf) if (group.some(has)) satisfied++;
    return satisfied / clauses;
  };
}

/** (ANDed terms present + OR groups with a term present) / (ANDed terms + OR groups); in [0, 1]. */
export function scoreKeywordQuery(query: KeywordQuery, doc: KeywordDocument): number {
  return compileKeywordQuery(query)(doc);
}
