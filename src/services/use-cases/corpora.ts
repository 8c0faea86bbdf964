// Use cases of the corpus resource (docs/reference.md#tfidf): store a corpus request and queue its build, show its
// status and top terms, and the build itself (run by the `corpus` job): documents from the request, fetched
// URLs (DocumentFetcher: robots.txt, SSRF guard) or a finished crawl's stored pages, each parsed as the crawl
// parses a page and its `words` counted once per document by a CorpusBuilder.
import { randomUUID } from 'node:crypto';
import { textPage } from '../../crawler/parse/text-page.js';
import { CorpusBuilder } from '../../crawler/score/index.js';
import { settingsMismatch, type TextSettingsRecord, WordModel } from '../../crawler/text/word-model.js';
import { isPlainTextBody } from '../../crawler/vocabulary.js';
import type { CorporaRepository, CorpusProgress, CorpusSource } from '../../db/corpora-repo.js';
import type { CrawlsRepository } from '../../db/crawls-repo.js';
import { listScope, scopeOwner, type TenantScope } from '../../db/tenant-scope.js';
import { InputError, TrawlError } from '../../errors.js';
import { queueCorpus } from '../../jobs/producers.js';
import type { JobBackend } from '../../jobs/queues.js';
import { type CorpusRequest, TOP_TERMS } from '../../schemas/corpora.js';
import { storedBody, storedBodyText } from '../content/stored-body.js';
import {
  type CreatedAtCursor,
  type NewestFirstQuery,
  paginateNewestFirst,
} from '../presentation/pagination.js';
import { corpusLinks, corpusStatusView, corpusSummaryView } from '../presentation/views.js';
import { type DocumentFetcher, parseAsCrawled } from './documents.js';

export interface CorpusServiceOptions {
  repository: CorporaRepository;
  crawls: CrawlsRepository;
  jobs: JobBackend;
}

const CRAWL_RUNNING = new Set(['queued', 'running']);

/** The source a request names, checked: exactly one kind, every uploaded document well-formed. */
export function corpusSource(request: CorpusRequest): CorpusSource {
  const given = (['urls', 'fromCrawl', 'documents'] as const).filter((field) => request[field] !== undefined);
  const [first, second] = given;
  if (first === undefined) throw new InputError('one of urls, fromCrawl and documents is required', 'urls');
  if (second !== undefined) {
    throw new InputError(`give one of urls, fromCrawl and documents, not ${first} and ${second}`, second);
  }
  if (request.urls) return { kind: 'urls', urls: request.urls };
  if (request.fromCrawl) return { kind: 'crawl', crawlId: request.fromCrawl };
  const documents = request.documents ?? [];
  for (const [index, doc] of documents.entries()) {
    const field = `documents[${index}]`;
    if (doc.text !== undefined) {
      if (doc.html !== undefined) throw new InputError('give html or text, not both', `${field}.html`);
      if (doc.url !== undefined) throw new InputError('a text document has no url', `${field}.url`);
    } else if (doc.html === undefined) {
      throw new InputError('a document needs text or html', field);
    }
  }
  return { kind: 'documents', documents };
}

export class CorpusService {
  constructor(private readonly options: CorpusServiceOptions) {}

  // Tenancy as for crawls: `scope` is the caller's (tenant-scope.ts); another key's corpus, or crawl to
  // build from, is a 404. Workers pass INTERNAL_SCOPE.
  async create(request: CorpusRequest, scope: TenantScope) {
    const source = corpusSource(request);
    if (source.kind === 'crawl') {
      const crawl = await this.options.crawls.get(source.crawlId, scope);
      if (!crawl) {
        throw new TrawlError('not_found', `no crawl with id ${source.crawlId}`, { field: 'fromCrawl' });
      }
      if (CRAWL_RUNNING.has(crawl.status)) {
        throw new TrawlError('conflict', `crawl ${source.crawlId} is ${crawl.status}; wait until it ends`, {
          field: 'fromCrawl',
          detail: { crawlStatus: crawl.status },
        });
      }
    }
    const id = randomUUID();
    await this.options.repository.create({
      id,
      name: request.name,
      source,
      progress: initialProgress(),
      owner: scopeOwner(scope),
      textSettings: WordModel.of(request).describe(),
    });
    try {
      await queueCorpus(this.options.jobs, id);
    } catch (error) {
      // never left queued without a job: the client is told (503) and the corpus says why it failed
      await this.options.repository.fail(id, 'the job queue did not answer', null).catch(() => {});
      throw error;
    }
    return { id, status: 'queued' as const, links: corpusLinks(id) };
  }

  async status(id: string, scope: TenantScope) {
    const row = await this.options.repository.get(id, scope);
    if (!row) throw new TrawlError('not_found', `no corpus with id ${id}`);
    const topTerms = row.status === 'completed' ? await this.options.repository.topTerms(id, TOP_TERMS) : [];
    return corpusStatusView(row, topTerms);
  }

  /** A page of the list `scope` sees; `query.owner` narrows it to one tenant's (tenant-scope.ts listScope). */
  async list(query: NewestFirstQuery, scope: TenantScope) {
    const listed = listScope(scope, query.owner?.toLowerCase());
    const read = (after: CreatedAtCursor | null, rows: number) =>
      this.options.repository.list(rows, after, listed);
    return paginateNewestFirst('/v1/corpora', query, read, corpusSummaryView);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The build, run by the `corpus` job.

/** Skipped documents listed in the progress; `skipped` counts all of them. */
const SKIPPED_LISTED = 100;
/** URLs per DocumentSession: a session keeps every body it fetched, so a long URL list is read in slices. */
const URL_SLICE = 200;
/** Stored crawl pages read per keyset batch. */
const CRAWL_BATCH = 100;
/**
 * Longer "words" are not stored: a B-tree entry holds at most ~2.7 KB, and a run of letters this long is no
 * word; its df reads as 0 (treated as absent, df = 1), as a word never seen would.
 */
export const MAX_TERM_LENGTH = 200;

export function initialProgress(): CorpusProgress {
  return { documentsDone: 0, documentsTotal: null, skipped: 0, skippedDocuments: [] };
}

export interface CorpusBuildLogger {
  warn(object: object, message: string): void;
}

export interface CorpusBuildDeps {
  repository: CorporaRepository;
  documents: DocumentFetcher;
  log: CorpusBuildLogger;
  /** Aborted when the process shuts down: the build stops between documents and is handed on. */
  signal?: AbortSignal;
  /** Progress is written at most this often (and once at the end). Default 1000. */
  progressIntervalMs?: number;
}

export type CorpusBuildExit = 'completed' | 'failed' | 'aborted' | 'nothing-to-do';

/** Progress writes: at most one per interval, never two at once; the final state is written by the end. */
class ProgressWriter {
  private lastWriteMs = Number.NEGATIVE_INFINITY;
  private writing: Promise<void> | null = null;

  constructor(
    private readonly save: (progress: CorpusProgress) => Promise<void>,
    private readonly intervalMs: number,
    private readonly log: CorpusBuildLogger,
  ) {}

  update(progress: CorpusProgress): void {
    const now = Date.now();
    if (this.writing !== null || now - this.lastWriteMs < this.intervalMs) return;
    this.lastWriteMs = now;
    // save() serializes the progress before its first await, so later changes do not race the write
    this.writing = this.save(progress)
      .catch((error: unknown) => this.log.warn({ err: error }, 'corpus progress not saved'))
      .finally(() => {
        this.writing = null;
      });
  }

  async settle(): Promise<void> {
    await this.writing;
  }
}

/** Builds the corpus `corpusId` from its stored source, writes its terms and completes (or fails) it. */
export async function buildCorpus(corpusId: string, deps: CorpusBuildDeps): Promise<CorpusBuildExit> {
  const { repository, documents } = deps;
  const progress = initialProgress();
  const started = await repository.start(corpusId, progress);
  if (started === null) return 'nothing-to-do';
  const { source } = started;
  // every document's words made the way scoring with this corpus will make them
  const model = WordModel.fromRecord(started.textSettings);
  const wordsOf = (page: { tokens: readonly string[] }) => model.words(page.tokens);
  const writer = new ProgressWriter(
    (snapshot) => repository.saveProgress(corpusId, snapshot),
    deps.progressIntervalMs ?? 1000,
    deps.log,
  );
  const builder = new CorpusBuilder();
  const userAgent = documents.userAgent;
  const added = (words: readonly string[]) => {
    builder.addDocument(words);
    progress.documentsDone++;
    writer.update(progress);
  };
  const skipped = (url: string, error: string) => {
    progress.skipped++;
    if (progress.skippedDocuments.length < SKIPPED_LISTED) progress.skippedDocuments.push({ url, error });
    progress.documentsDone++;
    writer.update(progress);
  };
  const aborted = () => deps.signal?.aborted === true;

  if (source.kind === 'documents') {
    progress.documentsTotal = source.documents.length;
    for (const doc of source.documents) {
      if (aborted()) break;
      const page =
        doc.text !== undefined
          ? textPage(doc.text)
          : parseAsCrawled(doc.html ?? '', doc.url ?? 'about:blank', userAgent);
      added(wordsOf(page));
    }
  } else if (source.kind === 'urls') {
    // A URL named twice is one document (df counts documents, not mentions).
    const urls = [...new Set(source.urls)];
    progress.documentsTotal = urls.length;
    for (let start = 0; start < urls.length && !aborted(); start += URL_SLICE) {
      const session = documents.session();
      await Promise.all(
        urls.slice(start, start + URL_SLICE).map(async (url, offset) => {
          let words: readonly string[];
          try {
            const fetched = await session.get(url, `urls[${start + offset}]`);
            // as /v1/score reads a fetched document: HTML parsed as the crawl parses it, else plain text
            words = wordsOf(
              fetched.isHtml
                ? parseAsCrawled(fetched.text, fetched.finalUrl, userAgent)
                : textPage(fetched.text),
            );
          } catch (error) {
            // a document the service cannot get (robots.txt, HTTP status, network) is skipped, not fatal
            if (!(error instanceof TrawlError)) throw error;
            skipped(url, error.message);
            return;
          }
          added(words);
        }),
      );
    }
  } else {
    progress.documentsTotal = await repository.crawlBodyCount(source.crawlId);
    let afterId = 0;
    while (!aborted()) {
      const batch = await repository.crawlBodies(source.crawlId, afterId, CRAWL_BATCH);
      for (const body of batch) {
        const stored = storedBody(body.html, body.html_gzip);
        // a document's text as read when it was fetched
        if (stored === null) {
          added(wordsOf(textPage(body.document_text ?? '')));
          continue;
        }
        let html: string;
        try {
          html = await storedBodyText(stored, body.content_type);
        } catch (error) {
          skipped(body.url, `stored body unreadable: ${(error as Error).message}`);
          continue;
        }
        // a text/plain page is words, as the crawl scored it
        added(
          wordsOf(
            isPlainTextBody(body.content_type) ? textPage(html) : parseAsCrawled(html, body.url, userAgent),
          ),
        );
      }
      const last = batch[batch.length - 1];
      if (batch.length < CRAWL_BATCH || !last) break;
      afterId = last.id;
    }
  }
  await writer.settle();
  if (aborted()) return 'aborted';

  const { documentCount, frequencies } = builder.toJSON();
  if (documentCount === 0) {
    const why =
      source.kind === 'crawl'
        ? 'the crawl has no HTML page with a stored body and no document with text'
        : 'no document could be read';
    await repository.fail(corpusId, why, progress);
    return 'failed';
  }
  const terms = new Map<string, number>();
  for (const [term, frequency] of Object.entries(frequencies)) {
    if (term.length <= MAX_TERM_LENGTH) terms.set(term, frequency);
  }
  return (await repository.complete(corpusId, { documentCount, frequencies: terms, progress }))
    ? 'completed'
    : 'nothing-to-do';
}

/**
 * A stored corpus is used only with the text settings it was built with: other settings would weigh words
 * that its document frequencies never counted. A 409 on `field` naming the difference (or asking to rebuild a
 * corpus made before the reference tokenizer).
 */
export function requireMatchingTextSettings(
  corpus: { id: string; textSettings: TextSettingsRecord | null },
  model: WordModel,
  field: string,
): void {
  const wanted = model.describe();
  if (corpus.textSettings === null) {
    throw new TrawlError(
      'conflict',
      `corpus ${corpus.id} was built before the reference tokenizer: build it again (POST /v1/corpora) to score with it`,
      { field },
    );
  }
  const mismatch = settingsMismatch(corpus.textSettings, wanted);
  if (mismatch) {
    throw new TrawlError(
      'conflict',
      `corpus ${corpus.id} was built with other text settings (${mismatch}): use the same stopWords and stem, or build a corpus with these`,
      { field, detail: { corpusTextSettings: corpus.textSettings } },
    );
  }
}
