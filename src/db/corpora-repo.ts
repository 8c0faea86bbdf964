// Reads and writes of the corpus aggregate (docs/reference.md#tfidf): a corpora row (name, source, status, progress,
// counts) and its corpus_terms (term → document frequency). A build writes all terms and completes the row in
// one transaction, so a completed corpus is never seen half-stored, and `loadCorpus` reads it into a Map once.
import type pg from 'pg';
import { LruMap } from '../crawler/lru-map.js';
import type { Corpus } from '../crawler/score/index.js';
import type { TextSettingsRecord } from '../crawler/text/word-model.js';
import { TrawlError } from '../errors.js';
import { sql } from './sql.js';
import { INTERNAL_SCOPE, scopeParams, type TenantScope } from './tenant-scope.js';
import { withTransaction } from './transaction.js';

export type CorpusSource =
  | { kind: 'urls'; urls: string[] }
  | { kind: 'crawl'; crawlId: string }
  | { kind: 'documents'; documents: Array<{ text?: string; html?: string; url?: string }> };

export interface CorpusProgress {
  documentsDone: number;
  documentsTotal: number | null;
  skipped: number;
  /** The first skipped documents with why (a URL that could not be fetched); `skipped` counts them all. */
  skippedDocuments: Array<{ url: string; error: string }>;
}

export interface CorpusRow {
  id: string;
  name: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  document_count: number;
  term_count: number;
  progress: CorpusProgress;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
  /** null: built before the reference tokenizer */
  text_settings: TextSettingsRecord | null;
  /** the API key that made it; null: made while the service ran open */
  owner: string | null;
}

export type CorpusListRow = Omit<CorpusRow, 'progress' | 'error' | 'text_settings'>;

/** A stored page body of a crawl, one document of a corpus built from that crawl. */
/** A crawl's document for a corpus: an HTML page's stored body, or the text read from a document. */
export interface CrawlBody {
  id: number;
  url: string;
  content_type: string | null;
  /** The stored body: raw, or gzip for a row written before raw bodies (the other is null). */
  html: Buffer | null;
  html_gzip: Buffer | null;
  document_text: string | null;
}

// Rows per INSERT … unnest: amortizes round trips while keeping one bind message to a few hundred KB.
const TERM_BATCH = 10_000;
// Completed corpora never change: the last few loaded are kept, so a crawl's runners and repeated /v1/score
// requests read a corpus from PostgreSQL once. Bounded because a large corpus is tens of MB as a Map.
const LOADED_CORPORA = 4;

/** df lookups over a Map: the Corpus the TF-IDF scorer reads (tfidf.ts's own MapCorpus is not exported). */
export class StoredCorpus implements Corpus {
  constructor(
    readonly id: string,
    readonly name: string,
    readonly documentCount: number,
    /** Word → documents containing it (read by the CPU pool's scoring task). */
    readonly frequencies: ReadonlyMap<string, number>,
    /** How its words were made; null when built before the reference tokenizer. */
    readonly textSettings: TextSettingsRecord | null,
  ) {}

  get termCount(): number {
    return this.frequencies.size;
  }

  documentFrequency(word: string): number {
    return this.frequencies.get(word) ?? 0;
  }
}

export class CorporaRepository {
  private readonly loaded = new LruMap<string, Promise<StoredCorpus>>(LOADED_CORPORA);

  constructor(private readonly pool: pg.Pool) {}

  async create(corpus: {
    id: string;
    name: string;
    source: CorpusSource;
    progress: CorpusProgress;
    owner?: string | null;
    textSettings: TextSettingsRecord;
  }) {
    await this.pool.query(sql('corpus_insert'), [
      corpus.id,
      corpus.name,
      JSON.stringify(corpus.source),
      JSON.stringify(corpus.progress),
      corpus.owner ?? null,
      JSON.stringify(corpus.textSettings),
    ]);
  }

  /** The corpus, or null when there is none or `scope` may not see it. */
  async get(id: string, scope: TenantScope): Promise<CorpusRow | null> {
    return (await this.pool.query<CorpusRow>(sql('corpus_get'), [id, ...scopeParams(scope)])).rows[0] ?? null;
  }

  async list(
    limit: number,
    after: { createdAt: string; id: string } | null,
    scope: TenantScope,
  ): Promise<CorpusListRow[]> {
    const result = await this.pool.query<CorpusListRow>(sql('corpus_list'), [
      after?.createdAt ?? null,
      after?.id ?? null,
      limit,
      ...scopeParams(scope),
    ]);
    return result.rows;
  }

  async topTerms(id: string, limit: number) {
    return (
      await this.pool.query<{ term: string; document_frequency: number }>(sql('corpus_top_terms'), [
        id,
        limit,
      ])
    ).rows;
  }

  /**
   * Marks the corpus running and returns its source and text settings; null when it is not there to build
   * (ended, deleted).
   */
  async start(
    id: string,
    progress: CorpusProgress,
  ): Promise<{ source: CorpusSource; textSettings: TextSettingsRecord | null } | null> {
    const result = await this.pool.query<{ source: CorpusSource; text_settings: TextSettingsRecord | null }>(
      sql('corpus_start'),
      [id, JSON.stringify(progress)],
    );
    const row = result.rows[0];
    return row ? { source: row.source, textSettings: row.text_settings } : null;
  }

  async saveProgress(id: string, progress: CorpusProgress): Promise<void> {
    await this.pool.query(sql('corpus_progress'), [id, JSON.stringify(progress)]);
  }

  /**
   * Stores every term and completes the corpus, in one transaction (terms of an earlier attempt replaced).
   * False when the corpus was no longer running (nothing is kept then).
   */
  async complete(
    id: string,
    corpus: { documentCount: number; frequencies: ReadonlyMap<string, number>; progress: CorpusProgress },
  ): Promise<boolean> {
    return withTransaction(this.pool, async (client) => {
      await client.query(sql('corpus_terms_delete'), [id]);
      let terms: string[] = [];
      let frequencies: number[] = [];
      const flush = async () => {
        if (terms.length === 0) return;
        await client.query(sql('corpus_terms_insert'), [id, terms, frequencies]);
        terms = [];
        frequencies = [];
      };
      for (const [term, frequency] of corpus.frequencies) {
        terms.push(term);
        frequencies.push(frequency);
        if (terms.length >= TERM_BATCH) await flush();
      }
      await flush();
      const done = await client.query(sql('corpus_complete'), [
        id,
        corpus.documentCount,
        corpus.frequencies.size,
        JSON.stringify(corpus.progress),
      ]);
      // rolls the terms back: the corpus ended (or went) while it was being built
      if (done.rowCount === 0) throw new CorpusNotRunning(id);
      return true;
    }).catch((error: unknown) => {
      if (error instanceof CorpusNotRunning) return false;
      throw error;
    });
  }

  async fail(id: string, error: string, progress: CorpusProgress | null): Promise<void> {
    await this.pool.query(sql('corpus_fail'), [id, error, progress ? JSON.stringify(progress) : null]);
  }

  /** HTML pages of `crawlId` with a stored body, and documents whose text was read. */
  async crawlBodyCount(crawlId: string): Promise<number> {
    return (await this.pool.query<{ n: number }>(sql('corpus_crawl_page_count'), [crawlId])).rows[0]?.n ?? 0;
  }

  /** The next `limit` stored HTML bodies and document texts of `crawlId` after page `afterId` (keyset on the page id). */
  async crawlBodies(crawlId: string, afterId: number, limit: number): Promise<CrawlBody[]> {
    const result = await this.pool.query<CrawlBody & { id: string | number }>(sql('corpus_crawl_pages'), [
      crawlId,
      afterId,
      limit,
    ]);
    // pages.id is bigserial: pg returns it as a string
    return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  /**
   * The completed corpus `id` as a Corpus, read once and kept (LRU of LOADED_CORPORA). A missing corpus, or
   * one `scope` may not see, is a not_found TrawlError, one not completed (yet, or failed) a conflict, both on
   * `field`.
   */
  async loadCorpus(id: string, scope: TenantScope, field = 'corpus'): Promise<StoredCorpus> {
    // the cache is shared by every tenant: whether this one may see the corpus is asked before it is served
    if (scope.kind === 'tenant' && !(await this.get(id, scope))) {
      throw new TrawlError('not_found', `no corpus with id ${id}`, { field });
    }
    let loading = this.loaded.get(id);
    if (loading) return loading;
    loading = this.readCorpus(id, field);
    this.loaded.set(id, loading);
    // a failed read is not kept: the corpus may complete later
    loading.catch(() => this.loaded.delete(id));
    return loading;
  }

  private async readCorpus(id: string, field: string): Promise<StoredCorpus> {
    // internal: the cache is shared by every tenant; loadCorpus checked the caller's scope first
    const row = await this.get(id, INTERNAL_SCOPE);
    if (!row) throw new TrawlError('not_found', `no corpus with id ${id}`, { field });
    if (row.status !== 'completed') {
      throw new TrawlError('conflict', `corpus ${id} is ${row.status}, not completed`, {
        field,
        detail: { corpusStatus: row.status },
      });
    }
    const result = await this.pool.query<[string, number]>({
      text: sql('corpus_terms_all'),
      values: [id],
      rowMode: 'array',
    });
    const frequencies = new Map<string, number>();
    for (const [term, frequency] of result.rows) frequencies.set(term, frequency);
    return new StoredCorpus(row.id, row.name, row.document_count, frequencies, row.text_settings);
  }
}

class CorpusNotRunning extends Error {
  constructor(id: string) {
    super(`corpus ${id} is no longer running`);
  }
}
