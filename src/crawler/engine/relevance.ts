// Relevance of fetched pages for focused crawls (docs/reference.md#best-first, #keyword-query, #tfidf): the keyword-query scorer, or
// TF-IDF cosine against a similarity set. TF-IDF needs document frequencies: from a stored corpus when the
// crawl names one, else from a corpus grown out of the similarity set plus every page this runner has
// scored so far (several runners of one crawl each grow their own; their scores can differ slightly early on).
import { DEFAULT_MAX_BODY_BYTES } from '../crawl-request.js';
import type { Fetcher } from '../fetch/index.js';
import { canonicalizeUrl } from '../frontier/canonicalize.js';
import { type ParsedPage, parseHtml } from '../parse/parse-html.js';
import { textPage } from '../parse/text-page.js';
import { fetchRobots, productToken, RobotsCache } from '../robots/index.js';
import { type Corpus, createRelevanceScorer, type RelevanceScorer } from '../score/index.js';
import { WordModel } from '../text/word-model.js';
import type { CrawlSettings } from './ports.js';

export interface CorpusSource {
  /** A stored corpus by id; throws when it is unknown or not built yet. */
  load(corpusId: string): Promise<Corpus>;
}

/** Document frequencies that grow as pages are seen; read live by the scorer. */
class GrowingCorpus implements Corpus {
  documentCount = 0;
  private readonly frequencies = new Map<string, number>();

  add(words: readonly string[]): void {
    this.documentCount++;
    for (const word of new Set(words)) this.frequencies.set(word, (this.frequencies.get(word) ?? 0) + 1);
  }

  documentFrequency(word: string): number {
    return this.frequencies.get(word) ?? 0;
  }
}

// The similarity vector is re-weighted as the grown corpus changes: after every page while the corpus is
// small (a word in every document so far has idf log(N/N) = 0, so the first weights are nearly all zero),
// then every REWEIGHT_EVERY_PAGES pages.
const REWEIGHT_EVERY_PAGES = 25;
const SMALL_CORPUS_DOCUMENTS = 100;

export interface RelevanceDescription {
  scorer: 'keyword' | 'tfidf';
  corpus: { source: 'stored'; id: string } | { source: 'similarity-set+fetched' } | null;
  similaritySet: number | null;
}

export class PageRelevance {
  private scorer: RelevanceScorer;
  private seenSinceReweight = 0;

  private constructor(
    scorer: RelevanceScorer,
    private readonly similaritySet: ParsedPage[],
    private readonly growing: GrowingCorpus | null,
    /** TF-IDF's words of a page (the crawl's stop list and stemming) */
    private readonly model: WordModel,
    readonly description: RelevanceDescription,
  ) {
    this.scorer = scorer;
  }

  /** Prepares the crawl's scorer: parses the query, or fetches and parses the similarity set. */
  static async create(
    relevance: NonNullable<CrawlSettings['relevance']>,
    deps: {
      fetcher: Pick<Fetcher, 'fetch'>;
      corpora?: CorpusSource;
      userAgent: string;
      timeoutMs: number;
      signal?: AbortSignal;
    },
  ): Promise<PageRelevance> {
    if (relevance.query !== undefined) {
      return new PageRelevance(
        createRelevanceScorer({ query: relevance.query }),
        [],
        null,
        WordModel.default,
        {
          scorer: 'keyword',
          corpus: null,
          similaritySet: null,
        },
      );
    }
    const model = relevance.text ? new WordModel(relevance.text) : WordModel.default;
    const similaritySet = await loadSimilaritySet(relevance.similarTo ?? { urls: [], documents: [] }, deps);
    if (similaritySet.length === 0) throw new Error('the similarity set is empty (no URL could be fetched)');
    if (relevance.corpusId) {
      if (!deps.corpora) throw new Error('stored corpora are not available to this worker');
      const corpus = await deps.corpora.load(relevance.corpusId);
      return new PageRelevance(
        createRelevanceScorer({ similaritySet, corpus, model }),
        similaritySet,
        null,
        model,
        {
          scorer: 'tfidf',
          corpus: { source: 'stored', id: relevance.corpusId },
          similaritySet: similaritySet.length,
        },
      );
    }
    const growing = new GrowingCorpus();
    for (const page of similaritySet) growing.add(model.words(page.tokens));
    return new PageRelevance(
      createRelevanceScorer({ similaritySet, corpus: growing, model }),
      similaritySet,
      growing,
      model,
      {
        scorer: 'tfidf',
        corpus: { source: 'similarity-set+fetched' },
        similaritySet: similaritySet.length,
      },
    );
  }

  /** The page's relevance in [0, 1]; with a grown corpus the page joins it first. */
  score(page: ParsedPage): number {
    if (this.growing) {
      this.growing.add(this.model.words(page.tokens));
      if (
        ++this.seenSinceReweight >= REWEIGHT_EVERY_PAGES ||
        this.growing.documentCount <= SMALL_CORPUS_DOCUMENTS
      ) {
        this.seenSinceReweight = 0;
        this.scorer = createRelevanceScorer({
          similaritySet: this.similaritySet,
          corpus: this.growing,
          model: this.model,
        });
      }
    }
    return this.scorer.score(page);
  }
}

async function loadSimilaritySet(
  similarTo: { urls: string[]; documents: Array<{ text?: string; html?: string; url?: string }> },
  deps: { fetcher: Pick<Fetcher, 'fetch'>; userAgent: string; timeoutMs: number; signal?: AbortSignal },
): Promise<ParsedPage[]> {
  const pages: ParsedPage[] = [];
  const normalizeUrl = (absolute: string) => canonicalizeUrl(absolute);
  for (const document of similarTo.documents) {
    if (document.html !== undefined) {
      pages.push(parseHtml(document.html, document.url ?? 'about:blank', { normalizeUrl }));
    } else if (document.text !== undefined) {
      pages.push(textPage(document.text));
    }
  }
  // one robots.txt per origin for the similarity set, asked of every URL fetched, redirect hops included
  const robots = new RobotsCache({
    load: (robotsUrl) =>
      fetchRobots(robotsUrl, deps.fetcher, { userAgent: deps.userAgent, timeoutMs: deps.timeoutMs }),
  });
  const allowed = async (url: string) =>
    (await robots.policyFor(url, deps.userAgent)).isAllowed(url, deps.userAgent);
  for (const url of similarTo.urls) {
    if (!(await allowed(url))) continue;
    const result = await deps.fetcher.fetch(url, {
      userAgent: deps.userAgent,
      timeoutMs: deps.timeoutMs,
      maxBytes: DEFAULT_MAX_BODY_BYTES,
      beforeRedirect: async (_from, to) =>
        (await allowed(to)) ? { follow: true } : { follow: false, reason: `robots.txt disallows ${to}` },
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    if (result.error || result.status === null || result.status >= 300 || result.text === null) continue;
    pages.push(
      /html/i.test(result.contentType ?? 'text/html')
        ? parseHtml(result.text, result.finalUrl, { normalizeUrl, robotsToken: productToken(deps.userAgent) })
        : textPage(result.text),
    );
  }
  return pages;
}
