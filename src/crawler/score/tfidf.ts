// TF-IDF scorer (docs/reference.md#tfidf): a similarity set becomes one weight vector, weight(w) = tf(w)·ln(N/df(w))
// over a stored corpus (df(w) = 1 when w is absent), and a page scores the cosine of its own vector with it.
//
// Location multipliers, the reading we implement: each occurrence contributes 1 from the body, 5 from the
// title, 3 from an h1, 2 from an h2, and an occurrence belongs to exactly one location. ParsedPage.tokens is the
// reference's text stream (title, then the whole visible text), so it already holds every title, h1 and h2
// word once; tf therefore adds (5 − 1) per title occurrence, (3 − 1) per h1 and (2 − 1) per h2 occurrence on
// top of the words. A word seen once in the body and once in an h1 has tf = 1 + 3 = 4. All of them are made
// words by one WordModel (the request's stop list and stemming), so a page, its headings and the corpus agree.
import { InputError } from '../../errors.js';
import { WordModel } from '../text/word-model.js';

export const TITLE_MULTIPLIER = 5;
export const H1_MULTIPLIER = 3;
export const H2_MULTIPLIER = 2;

export interface Corpus {
  documentCount: number;
  documentFrequency(word: string): number;
}

export interface CorpusJson {
  documentCount: number;
  frequencies: Record<string, number>;
}

/** The fields of a ParsedPage the weighting reads; `tokens` must include the title's and headings' (parseHtml's do). */
export interface WeightedDocument {
  title: string;
  h1: readonly string[];
  h2: readonly string[];
  tokens: readonly string[];
}

class MapCorpus implements Corpus {
  constructor(
    readonly documentCount: number,
    private readonly frequencies: ReadonlyMap<string, number>,
  ) {}

  documentFrequency(word: string): number {
    return this.frequencies.get(word) ?? 0;
  }
}

/** Counts, per word, the documents that contain it (each document counts a word once). */
export class CorpusBuilder {
  private documentCount = 0;
  private readonly frequencies = new Map<string, number>();

  addDocument(words: Iterable<string>): void {
    this.documentCount++;
    for (const word of new Set(words)) this.frequencies.set(word, (this.frequencies.get(word) ?? 0) + 1);
  }

  toCorpus(): Corpus {
    return new MapCorpus(this.documentCount, new Map(this.frequencies));
  }

  toJSON(): CorpusJson {
    return { documentCount: this.documentCount, frequencies: Object.fromEntries(this.frequencies) };
  }
}

/** A stored corpus back from JSON; a wrong shape is an InputError on `field` (the corpus is user data). */
export function corpusFromJSON(json: CorpusJson, field = 'corpus'): Corpus {
  const { documentCount, frequencies } = json;
  if (!Number.isInteger(documentCount) || documentCount < 0) {
    throw new InputError('documentCount must be a non-negative integer', `${field}.documentCount`);
  }
  const map = new Map<string, number>();
  for (const [word, frequency] of Object.entries(frequencies)) {
    if (!Number.isInteger(frequency) || frequency < 1 || frequency > documentCount) {
      throw new InputError(
        `frequency of "${word}" must be an integer in [1, documentCount]`,
        `${field}.frequencies`,
        {
          word,
        },
      );
    }
    map.set(word, frequency);
  }
  return new MapCorpus(documentCount, map);
}

/** ln(N / df), df = 1 when the word is absent; never negative (a df above N would be a corrupt corpus). */
function inverseDocumentFrequency(word: string, corpus: Corpus): number {
  const df = Math.max(1, corpus.documentFrequency(word));
  return Math.max(0, Math.log(corpus.documentCount / df));
}

function addCounts(tf: Map<string, number>, words: Iterable<string>, perOccurrence: number): void {
  for (const word of words) tf.set(word, (tf.get(word) ?? 0) + perOccurrence);
}

/** Location-weighted term frequencies summed over `docs` (see the module comment for the rule). */
export function termFrequencies(
  docs: Iterable<WeightedDocument>,
  model: WordModel = WordModel.default,
): Map<string, number> {
  const tf = new Map<string, number>();
  for (const doc of docs) {
    addCounts(tf, model.words(doc.tokens), 1);
    addCounts(tf, model.wordsOf(doc.title), TITLE_MULTIPLIER - 1);
    for (const heading of doc.h1) addCounts(tf, model.wordsOf(heading), H1_MULTIPLIER - 1);
    for (const heading of doc.h2) addCounts(tf, model.wordsOf(heading), H2_MULTIPLIER - 1);
  }
  return tf;
}

/** weight(w) = tf(w)·ln(N/df(w)); words whose weight is 0 (df = N) are left out of the vector. */
export function termWeights(
  docs: Iterable<WeightedDocument>,
  corpus: Corpus,
  model: WordModel = WordModel.default,
): Map<string, number> {
  if (corpus.documentCount < 1) throw new InputError('The corpus has no documents', 'corpus');
  const weights = new Map<string, number>();
  for (const [word, tf] of termFrequencies(docs, model)) {
    const weight = tf * inverseDocumentFrequency(word, corpus);
    if (weight > 0) weights.set(word, weight);
  }
  return weights;
}

function norm(vector: ReadonlyMap<string, number>): number {
  let sumOfSquares = 0;
  for (const value of vector.values()) sumOfSquares += value * value;
  return Math.sqrt(sumOfSquares);
}

function dot(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [word, value] of small) {
    const other = large.get(word);
    if (other !== undefined) sum += value * other;
  }
  return sum;
}

/** Σ a(w)·b(w) / (‖a‖·‖b‖); 0 when either vector is empty or zero; clamped to [0, 1] against rounding. */
export function cosineSimilarity(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  const normProduct = norm(a) * norm(b);
  if (normProduct === 0) return 0;
  return Math.min(1, Math.max(0, dot(a, b) / normProduct));
}

/** Scores pages against a fixed similarity set; the set's vector and norm are computed once. */
export class TfIdfScorer {
  readonly similarityVector: ReadonlyMap<string, number>;
  private readonly similarityNorm: number;

  constructor(
    similaritySet: Iterable<WeightedDocument>,
    private readonly corpus: Corpus,
    private readonly model: WordModel = WordModel.default,
  ) {
    this.similarityVector = termWeights(similaritySet, corpus, model);
    this.similarityNorm = norm(this.similarityVector);
  }

  score(page: WeightedDocument): number {
    if (this.similarityNorm === 0) return 0;
    const pageVector = termWeights([page], this.corpus, this.model);
    const normProduct = norm(pageVector) * this.similarityNorm;
    if (normProduct === 0) return 0;
    return Math.min(1, Math.max(0, dot(pageVector, this.similarityVector) / normProduct));
  }
}
