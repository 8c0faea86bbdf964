// Use case of POST /v1/score: documents scored by the crawl engine's own scorer objects (createRelevanceScorer)
// on pages parsed as the engine parses them, so a score here equals the score the page gets in a crawl.
// TF-IDF needs a corpus: a stored one named by id (POST /v1/corpora), else one built from this request's
// documents (the similarity set plus the scored ones), as a crawl without a corpus does; the response says
// which.
import type { ParsedPage } from '../crawler/parse/parse-html.js';
import { textPage } from '../crawler/parse/text-page.js';
import {
  type Corpus,
  CorpusBuilder,
  createRelevanceScorer,
  type RelevanceScorer,
} from '../crawler/score/index.js';
import type { Owner } from '../db/crawls-repo.js';
import { InputError } from '../errors.js';
import type { ScoreDocument, ScoreRequest, ScoreResult } from '../schemas/score.js';
import { type DocumentFetcher, type DocumentSession, parseAsCrawled } from './documents.js';

interface ScoredPage {
  page: ParsedPage;
  url?: string;
  finalUrl?: string;
  /** Text documents have no title to show. */
  hasTitle: boolean;
}

export { textPage };

/** Where stored corpora come from (CorporaRepository): a missing one is a 404, one not completed a 409. */
export interface CorpusLoader {
  /** `owner`: the caller's key (null when open); another tenant's corpus is a 404. */
  loadCorpus(id: string, field?: string, owner?: Owner): Promise<Corpus>;
}

export class ScoringService {
  constructor(
    private readonly documents: DocumentFetcher,
    private readonly corpora: CorpusLoader,
  ) {}

  private async load(doc: ScoreDocument, field: string, session: DocumentSession): Promise<ScoredPage> {
    const { userAgent } = this.documents;
    if (doc.text !== undefined) {
      if (doc.html !== undefined) throw new InputError('give html or text, not both', `${field}.html`);
      if (doc.url !== undefined) throw new InputError('a text document has no url', `${field}.url`);
      return { page: textPage(doc.text), hasTitle: false };
    }
    if (doc.html !== undefined) {
      // Without a URL relative links do not resolve; links never enter a score.
      const page = parseAsCrawled(doc.html, doc.url ?? 'about:blank', userAgent);
      return { page, ...(doc.url !== undefined ? { url: doc.url } : {}), hasTitle: true };
    }
    if (doc.url === undefined) throw new InputError('a document needs url, html or text', field);
    const fetched = await session.get(doc.url, `${field}.url`);
    const page = fetched.isHtml
      ? parseAsCrawled(fetched.text, fetched.finalUrl, userAgent)
      : textPage(fetched.text);
    return { page, url: doc.url, finalUrl: fetched.finalUrl, hasTitle: fetched.isHtml };
  }

  private loadAll(docs: ScoreDocument[], field: string, session: DocumentSession): Promise<ScoredPage[]> {
    return Promise.all(docs.map((doc, index) => this.load(doc, `${field}[${index}]`, session)));
  }

  async score(request: ScoreRequest, owner?: Owner): Promise<ScoreResult> {
    if (request.query !== undefined && request.similarTo !== undefined) {
      throw new InputError('give query or similarTo, not both', 'similarTo');
    }
    const session = this.documents.session();
    let scorer: RelevanceScorer;
    let scored: ScoredPage[];
    let corpusInfo: ScoreResult['corpus'];
    if (request.query !== undefined) {
      if (request.corpus !== undefined) {
        throw new InputError('a corpus goes with similarTo, not with query', 'corpus');
      }
      // Parsed before anything is fetched: a malformed query costs no requests.
      scorer = createRelevanceScorer({ query: request.query });
      scored = await this.loadAll(request.documents, 'documents', session);
    } else if (request.similarTo !== undefined) {
      // The stored corpus is looked up before anything is fetched: a missing one costs no requests.
      const stored =
        request.corpus !== undefined ? await this.corpora.loadCorpus(request.corpus, 'corpus', owner) : null;
      const [similar, documents] = await Promise.all([
        this.loadAll(request.similarTo.documents, 'similarTo.documents', session),
        this.loadAll(request.documents, 'documents', session),
      ]);
      let corpus: Corpus;
      if (stored !== null && request.corpus !== undefined) {
        corpus = stored;
        corpusInfo = { source: 'stored', id: request.corpus, documents: stored.documentCount };
      } else {
        const builder = new CorpusBuilder();
        for (const { page } of [...similar, ...documents]) builder.addDocument(page.words);
        corpus = builder.toCorpus();
        corpusInfo = { source: 'request', documents: similar.length + documents.length };
      }
      scorer = createRelevanceScorer({ similaritySet: similar.map(({ page }) => page), corpus });
      scored = documents;
    } else {
      throw new InputError('one of query and similarTo is required', 'query');
    }
    const results = scored.map(({ page, url, finalUrl, hasTitle }, index) => ({
      index,
      ...(url !== undefined ? { url } : {}),
      ...(finalUrl !== undefined ? { finalUrl } : {}),
      score: scorer.score(page),
      ...(hasTitle ? { title: page.title } : {}),
    }));
    results.sort((a, b) => b.score - a.score || a.index - b.index);
    return {
      scorer: scorer.kind,
      ...(corpusInfo !== undefined ? { corpus: corpusInfo } : {}),
      results,
    };
  }
}
