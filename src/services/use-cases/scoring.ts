// Use case of POST /v1/score: documents scored by the crawl engine's own scorer objects (createRelevanceScorer)
// on pages parsed as the engine parses them, so a score here equals the score the page gets in a crawl.
// TF-IDF needs a corpus: a stored one named by id (POST /v1/corpora), else one built from this request's
// documents (the similarity set plus the scored ones), as a crawl without a corpus does; the response says
// which. Parsing and scoring run on the CPU pool (cpu-pool.ts), off the event loop for large documents.
import { parseKeywordQuery } from '../../crawler/score/index.js';
import {
  rejectTextSettingsWithQuery,
  type TextSettingsRecord,
  WordModel,
} from '../../crawler/text/word-model.js';
import type { TenantScope } from '../../db/tenant-scope.js';
import { InputError } from '../../errors.js';
import type { ScoreDocument, ScoreRequest, ScoreResult } from '../../schemas/score.js';
import type { CpuPool } from '../pools/cpu-pool.js';
import type { CorpusCounts, ScoreTask, TaskDocument } from '../pools/cpu-tasks.js';
import { requireMatchingTextSettings } from './corpora.js';
import type { DocumentFetcher, DocumentSession } from './documents.js';

/** A request's document, fetched when named by URL; parsed and scored on the CPU pool. */
interface LoadedDocument {
  content: TaskDocument;
  url?: string;
  finalUrl?: string;
  /** Text documents have no title to show. */
  hasTitle: boolean;
}

/** The similarity set's size at most, urls and documents together (as each alone may be). */
const MAX_SIMILAR = 100;

/** Where stored corpora come from (CorporaRepository): a missing one is a 404, one not completed a 409. */
export interface CorpusLoader {
  /** `scope`: the caller's; another tenant's corpus is a 404. */
  loadCorpus(
    id: string,
    scope: TenantScope,
    field: string,
  ): Promise<CorpusCounts & { id: string; textSettings: TextSettingsRecord | null }>;
}

export class ScoringService {
  constructor(
    private readonly documents: DocumentFetcher,
    private readonly corpora: CorpusLoader,
    private readonly cpu: CpuPool,
  ) {}

  /** `urlField`: where a fetch fault is reported, after `field` (".url" in a document; "" for similarTo.urls[i]). */
  private async load(
    doc: ScoreDocument,
    field: string,
    session: DocumentSession,
    urlField = '.url',
  ): Promise<LoadedDocument> {
    if (doc.text !== undefined) {
      if (doc.html !== undefined) throw new InputError('give html or text, not both', `${field}.html`);
      if (doc.url !== undefined) throw new InputError('a text document has no url', `${field}.url`);
      return { content: { text: doc.text }, hasTitle: false };
    }
    if (doc.html !== undefined) {
      // Without a URL relative links do not resolve; links never enter a score.
      const content = { html: doc.html, url: doc.url ?? 'about:blank' };
      return { content, ...(doc.url !== undefined ? { url: doc.url } : {}), hasTitle: true };
    }
    if (doc.url === undefined) throw new InputError('a document needs url, html or text', field);
    const fetched = await session.get(doc.url, `${field}${urlField}`);
    const content = fetched.isHtml ? { html: fetched.text, url: fetched.finalUrl } : { text: fetched.text };
    return { content, url: doc.url, finalUrl: fetched.finalUrl, hasTitle: fetched.isHtml };
  }

  private loadAll(
    docs: ScoreDocument[],
    field: string,
    session: DocumentSession,
    urlField?: string,
  ): Promise<LoadedDocument[]> {
    return Promise.all(docs.map((doc, index) => this.load(doc, `${field}[${index}]`, session, urlField)));
  }

  async score(request: ScoreRequest, scope: TenantScope): Promise<ScoreResult> {
    if (request.query !== undefined && request.similarTo !== undefined) {
      throw new InputError('give query or similarTo, not both', 'similarTo');
    }
    const session = this.documents.session();
    let scorer: ScoreTask['scorer'];
    let loaded: LoadedDocument[];
    let corpusInfo: ScoreResult['corpus'];
    const model = WordModel.of(request);
    if (request.query !== undefined) {
      if (request.corpus !== undefined) {
        throw new InputError('a corpus goes with similarTo, not with query', 'corpus');
      }
      rejectTextSettingsWithQuery(request, '');
      // Parsed before anything is fetched: a malformed query costs no requests.
      parseKeywordQuery(request.query);
      scorer = { query: request.query };
      loaded = await this.loadAll(request.documents, 'documents', session);
    } else if (request.similarTo !== undefined) {
      // The stored corpus is looked up before anything is fetched: a missing one costs no requests.
      const stored =
        request.corpus !== undefined ? await this.corpora.loadCorpus(request.corpus, scope, 'corpus') : null;
      if (stored) requireMatchingTextSettings(stored, model, 'corpus');
      const { urls = [], documents: given = [] } = request.similarTo;
      if (urls.length + given.length === 0) {
        throw new InputError('similarTo needs urls or documents', 'similarTo');
      }
      if (urls.length + given.length > MAX_SIMILAR) {
        throw new InputError(`similarTo holds at most ${MAX_SIMILAR} urls and documents in all`, 'similarTo');
      }
      const [similarUrls, similarDocuments, documents] = await Promise.all([
        this.loadAll(
          urls.map((url) => ({ url })),
          'similarTo.urls',
          session,
          '',
        ),
        this.loadAll(given, 'similarTo.documents', session),
        this.loadAll(request.documents, 'documents', session),
      ]);
      const similar = [...similarUrls, ...similarDocuments];
      if (stored !== null && request.corpus !== undefined) {
        corpusInfo = { source: 'stored', id: request.corpus, documents: stored.documentCount };
      } else {
        corpusInfo = { source: 'request', documents: similar.length + documents.length };
      }
      scorer = { similarTo: similar.map(({ content }) => content), corpus: stored };
      loaded = documents;
    } else {
      throw new InputError('one of query and similarTo is required', 'query');
    }
    const task: ScoreTask = {
      userAgent: this.documents.userAgent,
      scorer,
      text: model.settings,
      documents: loaded.map(({ content }) => content),
    };
    const { kind, scores, titles } = await this.cpu.run('score', task, 'documents');
    const results = loaded.map(({ url, finalUrl, hasTitle }, index) => ({
      index,
      ...(url !== undefined ? { url } : {}),
      ...(finalUrl !== undefined ? { finalUrl } : {}),
      score: scores[index]!,
      ...(hasTitle ? { title: titles[index]! } : {}),
    }));
    results.sort((a, b) => b.score - a.score || a.index - b.index);
    return {
      scorer: kind,
      ...(corpusInfo !== undefined ? { corpus: corpusInfo } : {}),
      results,
    };
  }
}
