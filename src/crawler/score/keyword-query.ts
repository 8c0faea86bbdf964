// Keyword-query scorer (MISSION-NOTES §4): terms separated by whitespace are ANDed, a parenthesised group is
// one OR clause, and score = satisfied clauses / clauses. Extended with quoted phrases ("grand slam") as one
// term. A malformed query is an InputError on field 'query' whose detail.position is the 0-based fault index.
//
// Matching (terms are normalised with the shared tokenizer, so they compare like document words):
//  - a term of one non-stop word matches the document's `words` (§3: stop words removed);
//  - a stop word as a single term ("the", "who") matches `textWords`, which keep stop words; without textWords
//    it cannot match (never silently dropped: the denominator still counts it);
//  - a phrase, or a bare term the tokenizer splits into several words ("e-mail", "don't"), matches
//    consecutive words of `textWords`; without textWords, its non-stop words consecutive in `words`;
//  - a term with no letters at all ("42", "&") is rejected: it could never match;
//  - identical ANDed terms count once (`cat cat` is `cat`), as do identical terms inside one group;
//  - there are no operators: AND/OR/NOT written in the query are ordinary words.
import { InputError } from '../../errors.js';
import { isStopWord, tokenize } from '../text/tokenize.js';

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

/** Prepared look-ups for one document: sets for single words, the word sequences for phrases. */
class DocumentIndex {
  private readonly contentSet: ReadonlySet<string>;
  private textSet: ReadonlySet<string> | undefined;

  constructor(private readonly doc: KeywordDocument) {
    this.contentSet = new Set(doc.words);
  }

  has(term: KeywordTerm): boolean {
    const [first, ...rest] = term.words;
    if (first === undefined) return false;
    if (rest.length === 0) {
      if (!isStopWord(first)) return this.contentSet.has(first);
      if (this.doc.textWords === undefined) return false;
      this.textSet ??= new Set(this.doc.textWords);
      return this.textSet.has(first);
    }
    if (this.doc.textWords !== undefined) return containsSequence(this.doc.textWords, term.words);
    const contentPhrase = term.words.filter((word) => !isStopWord(word));
    return contentPhrase.length > 0 && containsSequence(this.doc.words, contentPhrase);
  }
}

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

/** (ANDed terms present + OR groups with a term present) / (ANDed terms + OR groups); in [0, 1]. */
export function scoreKeywordQuery(query: KeywordQuery, doc: KeywordDocument): number {
  const clauses = query.all.length + query.anyOf.length;
  if (clauses === 0) return 0;
  const index = new DocumentIndex(doc);
  let satisfied = 0;
  for (const term of query.all) if (index.has(term)) satisfied++;
  for (const group of query.anyOf) if (group.some((term) => index.has(term))) satisfied++;
  return satisfied / clauses;
}
