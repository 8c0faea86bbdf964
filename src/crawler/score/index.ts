// The relevance scorers of the best-first crawl (docs/reference.md#best-first, #keyword-query, #tfidf) behind one shape, so the crawl
// engine scores every fetched page the same way whichever scorer the crawl was configured with.
import type { ParsedPage } from '../parse/parse-html.js';
import type { WordModel } from '../text/word-model.js';
import { compileKeywordQuery, parseKeywordQuery } from './keyword-query.js';
import { type Corpus, TfIdfScorer, type WeightedDocument } from './tfidf.js';

export type RelevanceScorerSpec =
  | { query: string }
  | { similaritySet: readonly WeightedDocument[]; corpus: Corpus; model?: WordModel };

export interface RelevanceScorer {
  kind: 'keyword' | 'tfidf';
  /** In [0, 1]. */
  score(page: ParsedPage): number;
}

/** Parses/prepares once (a bad query throws InputError on 'query' here, before any page is fetched). */
export function createRelevanceScorer(spec: RelevanceScorerSpec): RelevanceScorer {
  if ('query' in spec) {
    const score = compileKeywordQuery(parseKeywordQuery(spec.query));
    return { kind: 'keyword', score };
  }
  const scorer = new TfIdfScorer(spec.similaritySet, spec.corpus, spec.model);
  return { kind: 'tfidf', score: (page) => scorer.score(page) };
}

export type { KeywordDocument, KeywordQuery, KeywordTerm } from './keyword-query.js';
export { compileKeywordQuery, parseKeywordQuery, scoreKeywordQuery } from './keyword-query.js';
export type { Corpus, CorpusJson, WeightedDocument } from './tfidf.js';
export {
  CorpusBuilder,
  corpusFromJSON,
  cosineSimilarity,
  TfIdfScorer,
  termFrequencies,
  termWeights,
} from './tfidf.js';
export type { TopicLinkReason, TopicLinkWeight, TopicWeightOptions } from './topic-weights.js';
export { topicLinkWeights, topicLinkWeightsFromHtml } from './topic-weights.js';
