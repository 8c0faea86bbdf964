// Use cases of the crawl resource: start a crawl, read its status and results, cancel it. Routes call these;
// these call the repository and the job queue and know nothing of HTTP.

import { randomUUID } from 'node:crypto';
import {
  type NormalizedCrawlRequest,
  normalizeCrawlRequest,
  validateCrawlRequest,
} from '../crawler/crawl-request.js';
import type { ExtractionMethod } from '../crawler/extract/index.js';
import { LruMap } from '../crawler/lru-map.js';
import { edgesFileChunks } from '../crawler/rank/edges-file.js';
import { GraphBuilder, type GraphBuilderOptions } from '../crawler/rank/graph.js';
import { type TextSettingsRecord, WordModel } from '../crawler/text/word-model.js';
import { isFinished } from '../crawler/vocabulary.js';
import {
  ActiveCrawlLimitError,
  type CrawlRow,
  type CrawlsRepository,
  type CrawlTimings,
} from '../db/crawls-repo.js';
import { listScope, scopeOwner, scopeSees, type TenantScope, tenantScope } from '../db/tenant-scope.js';
import { InputError, TrawlError } from '../errors.js';
import { queueCrawlRunners } from '../jobs/producers.js';
import type { JobBackend } from '../jobs/queues.js';
import type { CrawlRequest, PageListQuery } from '../schemas/crawls.js';
import { requireMatchingTextSettings } from './corpora.js';
import type { CpuPool } from './cpu-pool.js';
import type { CrawlGraph, CrawlReader } from './crawl-reader.js';
import { parseAsCrawled } from './documents.js';
import { chunksByTurn } from './event-loop-turns.js';
import {
  type CreatedAtCursor,
  isRowIdCursor,
  type NewestFirstQuery,
  paginate,
  paginateNewestFirst,
} from './pagination.js';
import { storedBodyText } from './stored-body.js';
import {
  type CrawlStatusView,
  crawlLinkFields,
  crawlStatusView,
  crawlSummaryView,
  type DocumentModelView,
  hostView,
  type PageSummaryView,
  pageDetailView,
  pageSummaryView,
} from './views.js';

export interface CrawlServiceOptions {
  repository: CrawlsRepository;
  jobs: JobBackend;
  defaultUserAgent: string;
  /** Per API key: crawls it may have queued or running at once (0 or unset: no cap; open mode: no cap). */
  maxRunningCrawlsPerKey?: number;
  /** Whether a live worker can render pages: a crawl asking to render is refused (422) when none can. */
  renderers?: { anyCanRender(): Promise<boolean> };
  /** Main text of a page for ?include=text (CrawlStatsService: stored by the text job, or extracted now). */
  mainText?: { pageText(crawl: CrawlRow, pageId: number): Promise<string | null> };
  /** Worker threads for the Markdown of stored pages (?include=markdown). */
  cpu?: Pick<CpuPool, 'run'>;
  /** Stored corpora, to check that `relevance.corpus` names one the caller may read. */
  corpora?: {
    get(id: string, scope: TenantScope): Promise<{ text_settings: TextSettingsRecord | null } | null>;
  };
  /** Told when a crawl is cancelled (webhooks: a crawl cancelled while queued has no runner to tell). */
  onCancelled?: (crawlId: string) => void;
}

/**
 * Retry-After of a start refused by the running-crawls cap: when a crawl ends cannot be known, so this is a
 * polite interval to ask again at (crawls run for minutes), not a promise.
 */
const RUNNING_CAP_RETRY_AFTER_SECS = 30;

/** Pages a list may carry with their text or Markdown (?include=): what one response holds in memory. */
export const MAX_PAGES_WITH_CONTENT = 100;

/** Finished crawls whose status view a process keeps (a view is a few KB). */
const FINISHED_STATUS_VIEWS = 4096;

/**
 * How old a running crawl's load-time and queue-wait percentiles may be when shown: computing them scans the
 * crawl's fetched pages (crawl_totals.sql), so with many pollers on a big crawl they are computed once per
 * interval per process instead of once per read. Counts are always current.
 */
const RUNNING_TIMINGS_MAX_AGE_MS = 2_000;

/** Running crawls whose last timing percentiles a process keeps (a few numbers each). */
const RUNNING_TIMINGS_KEPT = 4096;

// Tenancy: every method takes the caller's `scope` (tenant-scope.ts: a request's tenantScope, or INTERNAL_SCOPE
// for workers and jobs), required so that no call can forget it. A crawl of another owner is "not found", never
// "forbidden", so ids do not leak.
export class CrawlService implements CrawlReader {
  /** Finished crawls' status views, by id, with the owner the caller's scope is checked against. */
  readonly #finishedViews = new LruMap<string, { owner: string | null; view: CrawlStatusView }>(
    FINISHED_STATUS_VIEWS,
  );
  /** Running crawls' timing percentiles, by id. */
  readonly #timings = new LruMap<
    string,
    { value: Promise<CrawlTimings>; computedAt: number; refreshing: boolean }
  >(RUNNING_TIMINGS_KEPT);

  constructor(private readonly options: CrawlServiceOptions) {}

  async create(request: CrawlRequest, scope: TenantScope) {
    const normalized = normalizeCrawlRequest(request, this.options.defaultUserAgent);
    // checked here so a bad request is a 400, not a failed crawl later
    const seeds = validateCrawlRequest(normalized);
    const corpusId = normalized.relevance?.corpus;
    // another tenant's corpus is "not found", as on every other route: neither read nor confirmed to exist.
    // Seen with the scope of the crawl's owner, so a crawl made internally (owned by no key) needs a keyless corpus.
    if (corpusId && this.options.corpora) {
      const corpus = await this.options.corpora.get(corpusId, tenantScope(scopeOwner(scope)));
      if (!corpus)
        throw new TrawlError('not_found', `no corpus with id ${corpusId}`, { field: 'relevance.corpus' });
      // a corpus counts words one way: the crawl must make them the same way (a 409 naming the difference)
      requireMatchingTextSettings(
        { id: corpusId, textSettings: corpus.text_settings },
        WordModel.of(normalized.relevance ?? {}),
        'relevance.corpus',
      );
    }
    // a crawl no live worker could render would only fail at its start: refused now, naming the field
    if (normalized.render.mode !== 'never' && this.options.renderers) {
      if (!(await this.options.renderers.anyCanRender())) {
        throw new TrawlError(
          'unprocessable',
          'no live worker can render pages (none found Chromium at its start): use render "never", or start a worker with Chromium',
          { field: 'render' },
        );
      }
    }
    const id = randomUUID();
    const maxActive = this.options.maxRunningCrawlsPerKey ?? 0;
    let row: CrawlRow;
    try {
      row = await this.options.repository.create({
        id,
        request: normalized,
        strategy: normalized.strategy,
        maxPages: normalized.maxPages,
        seeds,
        slotsPerHost: normalized.politeness.perHostConcurrency,
        owner: scopeOwner(scope),
        maxActivePerOwner: maxActive,
      });
    } catch (error) {
      if (!(error instanceof ActiveCrawlLimitError)) throw error;
      throw new TrawlError(
        'rate_limited',
        `this API key already has ${error.active} crawls queued or running (the limit is ${maxActive}, MAX_RUNNING_CRAWLS_PER_KEY); wait for one to finish or cancel one`,
        { detail: { active: error.active, limit: maxActive, retryAfterSecs: RUNNING_CAP_RETRY_AFTER_SECS } },
      );
    }
    try {
      await queueCrawlRunners(this.options.jobs, id, normalized.workers);
    } catch (error) {
      // Undo the crawl, so it neither counts against the key's running crawls nor surprises a client told
      // 503 by running later. If the database fails too, the orphan sweeper queues its runners later.
      await this.options.repository.deleteQueued(id).catch(() => {});
      throw new TrawlError('unavailable', 'the job queue is not answering; the crawl was not started', {
        cause: error,
      });
    }
    return { id: row.id, status: 'queued' as const, ...crawlLinkFields(row.id) };
  }

  private async require(id: string, scope: TenantScope): Promise<CrawlRow> {
    const row = await this.options.repository.get(id, scope);
    if (!row) throw new TrawlError('not_found', `no crawl with id ${id}`);
    return row;
  }

  /** Throws not_found unless the crawl exists and `scope` may see it (for services acting on a crawl). */
  async requireVisible(id: string, scope: TenantScope): Promise<void> {
    await this.require(id, scope);
  }

  /**
   * A crawl's status view. Polling it is what every client does, so its cost stays flat as a crawl grows: a
   * finished crawl's view never changes and is kept (bounded); a running crawl's counts come from the counters
   * kept as it writes (one statement), and its timing percentiles, a scan of its fetched pages, are recomputed
   * at most every RUNNING_TIMINGS_MAX_AGE_MS in the background while the last ones are served.
   */
  async status(id: string, scope: TenantScope): Promise<CrawlStatusView> {
    const kept = this.#finishedViews.get(id);
    if (kept) {
      if (!scopeSees(scope, kept.owner)) throw new TrawlError('not_found', `no crawl with id ${id}`);
      return kept.view;
    }
    const status = await this.options.repository.status(id, scope);
    if (!status) throw new TrawlError('not_found', `no crawl with id ${id}`);
    const { row, counts, found } = status;
    if (!isFinished(row.status)) {
      return crawlStatusView(row, counts, { ...found, ...(await this.#runningTimings(id)) });
    }
    this.#timings.delete(id);
    const timings = await this.options.repository.timings(id, row.timings ?? null);
    // a finished crawl's percentiles never change: kept, so its next reads do not scan its pages
    if (timings.computed) {
      const { load_p50, load_p95, wait_p50, wait_p95, last_fetched_at } = timings;
      await this.options.repository.saveTimings(id, {
        load_p50,
        load_p95,
        wait_p50,
        wait_p95,
        last_fetched_at,
      });
    }
    const view = Object.freeze(crawlStatusView(row, counts, { ...found, ...timings }));
    this.#finishedViews.set(id, { owner: row.owner, view });
    return view;
  }

  /** A running crawl's timing percentiles: the last computed, refreshed in the background once stale. */
  async #runningTimings(id: string): Promise<CrawlTimings> {
    const known = this.#timings.get(id);
    if (!known) {
      const value = this.options.repository.timings(id);
      this.#timings.set(id, { value, computedAt: Date.now(), refreshing: false });
      value.catch(() => this.#timings.delete(id)); // not kept: the next read tries again
      return value;
    }
    if (!known.refreshing && Date.now() - known.computedAt > RUNNING_TIMINGS_MAX_AGE_MS) {
      known.refreshing = true;
      const next = this.options.repository.timings(id);
      next.then(
        () => this.#timings.set(id, { value: next, computedAt: Date.now(), refreshing: false }),
        () => {
          known.refreshing = false; // the last value stays; a later read tries again
        },
      );
    }
    return known.value;
  }

  /** A page of the list `scope` sees; `query.owner` narrows it to one tenant's (tenant-scope.ts listScope). */
  async list(query: NewestFirstQuery, scope: TenantScope) {
    const listed = listScope(scope, query.owner?.toLowerCase());
    const read = (after: CreatedAtCursor | null, rows: number) =>
      this.options.repository.list(rows, after, listed);
    return paginateNewestFirst('/v1/crawls', query, read, crawlSummaryView);
  }

  async cancel(id: string, scope: TenantScope) {
    const row = await this.require(id, scope);
    if (!(await this.options.repository.cancel(id))) {
      throw new TrawlError('conflict', `crawl ${id} has already ended (${row.status})`);
    }
    this.options.onCancelled?.(id);
    return this.status(id, scope);
  }

  /**
   * A page of the crawl's pages. `include` adds to each its main text (as the text job stored it; null before)
   * and/or its main content as Markdown, for at most MAX_PAGES_WITH_CONTENT pages at once.
   */
  async pages(id: string, query: PageListQuery, scope: TenantScope) {
    const crawl = await this.require(id, scope);
    const include = new Set(query.include?.split(',') ?? []);
    if (include.size > 0 && query.limit > MAX_PAGES_WITH_CONTENT) {
      throw new InputError(
        `limit must be at most ${MAX_PAGES_WITH_CONTENT} with include=${query.include}`,
        'limit',
        { maximum: MAX_PAGES_WITH_CONTENT },
      );
    }
    const byScore = query.sort === '-score';
    const listed = await paginate({
      limit: query.limit,
      cursor: query.cursor,
      accept: isRowIdCursor,
      read: (after, rows) =>
        this.options.repository.pages(id, {
          afterId: after?.after ?? 0,
          type: query.type ?? null,
          status: query.status ?? null,
          host: query.host?.toLowerCase() ?? null,
          limit: rows,
          byScore,
          afterScore: byScore ? (after?.score ?? null) : null,
          minScore: query.minScore ?? null,
          result: query.result ?? null,
        }),
      view: pageSummaryView,
      positionOf: (row) => (byScore ? { after: row.id, score: row.score } : { after: row.id }),
      link: {
        path: `/v1/crawls/${id}/pages`,
        query: {
          limit: query.limit,
          type: query.type || undefined,
          status: query.status || undefined,
          host: query.host || undefined,
          minScore: query.minScore,
          result: query.result,
          sort: byScore ? '-score' : undefined,
          include: query.include || undefined,
        },
      },
    });
    if (include.size === 0) return listed;
    return { ...listed, items: await this.#withContent(crawl, listed.items, include) };
  }

  /** Pages of a list with their main text and/or Markdown, read for the whole list in one statement. */
  async #withContent<P extends PageSummaryView>(crawl: CrawlRow, pages: P[], include: Set<string>) {
    const wantMarkdown = include.has('markdown');
    const contents = new Map(
      (
        await this.options.repository.batchContents(
          pages.map((page) => page.id),
          { html: wantMarkdown, text: include.has('text') },
        )
      ).map((row) => [Number(row.page_id), row]),
    );
    const { method } = crawl.request.extract;
    const withContent: Array<P & { text?: string | null; markdown?: string | null }> = [];
    // one page at a time: the pool's queue is bounded, and a list is at most MAX_PAGES_WITH_CONTENT pages
    for (const page of pages) {
      const content = contents.get(page.id);
      const extra: { text?: string | null; markdown?: string | null } = {};
      if (include.has('text')) extra.text = content?.main_text ?? null;
      if (wantMarkdown) {
        const html = content?.html_gzip ? await storedBodyText(content.html_gzip, page.contentType) : null;
        extra.markdown = await this.pageMarkdown(
          html,
          { type: page.type, url: page.url, final_url: page.finalUrl },
          method,
        );
      }
      withContent.push({ ...page, ...extra });
    }
    return withContent;
  }

  /**
   * A stored page's main content as Markdown by its crawl's extraction method, on a worker thread, from its
   * stored body decoded (storedBodyText): null unless the page is HTML with a stored body. The one home of
   * include=markdown, for a page, a list of pages and an export alike.
   */
  async pageMarkdown(
    html: string | null,
    page: { type: string; url: string; final_url: string | null },
    method: ExtractionMethod,
  ): Promise<string | null> {
    if (html === null || page.type !== 'HTML') return null;
    if (!this.options.cpu) throw new Error('CrawlService was built without a CPU pool');
    return this.options.cpu.run('markdown', { html, url: page.final_url ?? page.url, method }, 'include');
  }

  /** The PNG of a rendered page (render.screenshot); 404 when the page has none. */
  async screenshot(id: string, pageId: number, scope: TenantScope): Promise<Buffer> {
    await this.require(id, scope);
    const png = await this.options.repository.pageScreenshot(id, pageId);
    if (!png) throw new TrawlError('not_found', `page ${pageId} of crawl ${id} has no screenshot`);
    return png;
  }

  /**
   * `include`: a comma list of html (the stored body), text (the main text), markdown (the main content as
   * Markdown) and model (the Document).
   */
  async page(id: string, pageId: number, include: string | undefined, scope: TenantScope) {
    const crawl = await this.require(id, scope);
    const wanted = new Set(include?.split(',') ?? []);
    const { repository } = this.options;
    const row = await repository.page(id, pageId);
    if (!row) throw new TrawlError('not_found', `crawl ${id} has no page ${pageId}`);
    const [outlinks, images, document] = await Promise.all([
      repository.pageOutlinks(pageId),
      repository.pageImages(pageId),
      repository.pageDocument(pageId),
    ]);
    let html: string | null | undefined;
    if (wanted.has('html') || wanted.has('model') || wanted.has('markdown')) {
      const gz = await repository.pageHtmlGzip(pageId);
      html = gz ? await storedBodyText(gz, row.content_type) : null;
    }
    const stored = crawl.request;
    const parsable = html != null && row.type === 'HTML';
    let model: DocumentModelView | null | undefined;
    if (wanted.has('model')) model = parsable ? documentModel(html!, row, stored) : null;
    let markdown: string | null | undefined;
    if (wanted.has('markdown')) markdown = await this.pageMarkdown(html ?? null, row, stored.extract.method);
    if (!wanted.has('html')) html = undefined;
    let text: string | null | undefined;
    if (wanted.has('text')) {
      if (!this.options.mainText) throw new Error('CrawlService was built without a mainText source');
      text = await this.options.mainText.pageText(crawl, pageId);
    }
    return pageDetailView(row, { outlinks, images, document, html, text, model, markdown });
  }

  /**
   * Per-host view of a crawl (what a dashboard wants to see by host, kept out of Prometheus labels, where
   * one series per host of a large crawl would explode): pages by type, requests, load times, robots.txt.
   */
  async hosts(id: string, limit: number, scope: TenantScope) {
    await this.require(id, scope);
    return { items: (await this.options.repository.hosts(id, limit)).map(hostView) };
  }

  /** The crawl's link graph (crawl-reader.ts), read in batches and built in typed arrays. */
  async linkGraph(id: string, scope: TenantScope, options: GraphBuilderOptions = {}): Promise<CrawlGraph> {
    const crawl = await this.require(id, scope);
    // a topic crawl capped by pages fetched holds the fetched pages and the edges between them
    const { request } = crawl;
    const fetchedOnly = request.strategy === 'topic' && request.topic.cap === 'fetched';
    const builder = new GraphBuilder(options);
    const vertexOf = new Map<number, number>();
    const pageIds: number[] = [];
    await this.options.repository.readGraph(id, fetchedOnly, {
      vertices: (rows) => {
        for (const row of rows) {
          const vertex = builder.addVertex(row.url);
          vertexOf.set(row.id, vertex);
          if (vertex === pageIds.length) pageIds.push(row.id);
        }
      },
      edges: (rows) => {
        for (const row of rows) {
          const from = vertexOf.get(row.from_page);
          const to = vertexOf.get(row.to_page);
          if (from !== undefined && to !== undefined) builder.addEdgeById(from, to);
        }
      },
    });
    return { graph: builder.build(), pageIds: Float64Array.from(pageIds) };
  }

  /** The crawl's link graph as the edges file of docs/reference.md#graph-file, in chunks of text. */
  async edgesFile(id: string, scope: TenantScope): Promise<AsyncIterable<string>> {
    const { graph } = await this.linkGraph(id, scope);
    return chunksByTurn(edgesFileChunks(graph));
  }

  /** The crawl's link graph as JSON, `{vertices: [{id, url}], edges: [[from, to]]}` by page id, in chunks. */
  async linkGraphJson(id: string, scope: TenantScope): Promise<AsyncIterable<string>> {
    return chunksByTurn(graphJsonChunks(await this.linkGraph(id, scope)));
  }
}

/**
 * The reference Document of a stored page (docs/reference.md#document-model), parsed as the crawl parsed it,
 * with the words its TF-IDF settings make: what the scorers read.
 */
function documentModel(
  html: string,
  row: { url: string; final_url: string | null },
  request: NormalizedCrawlRequest,
) {
  const url = row.final_url ?? row.url;
  const parsed = parseAsCrawled(html, url, request.politeness.userAgent);
  return {
    url,
    title: parsed.title,
    h1: parsed.h1,
    h2: parsed.h2,
    words: WordModel.of(request.relevance ?? {}).words(parsed.tokens),
    outwardLinks: [...new Set(parsed.links.map((link) => link.url))],
  };
}

/** Vertices or edges per chunk of a graph's JSON (about 150 KB of edges, 1 MB of vertices): a turn each. */
const JSON_ITEMS_PER_CHUNK = 8_192;

/** A crawl graph as the JSON GET /v1/crawls/:id/graph?format=json answers, in chunks of text. */
function* graphJsonChunks({ graph, pageIds }: CrawlGraph): Generator<string, void, undefined> {
  let parts: string[] = [];
  yield '{"vertices":[';
  for (let v = 0; v < graph.vertexCount; v++) {
    parts.push(`${v === 0 ? '' : ','}{"id":${pageIds[v]},"url":${JSON.stringify(graph.names[v])}}`);
    if (parts.length === JSON_ITEMS_PER_CHUNK) {
      yield parts.join('');
      parts = [];
    }
  }
  parts.push('],"edges":[');
  let first = true;
  for (let u = 0; u < graph.vertexCount; u++) {
    const end = graph.outOffsets[u + 1]!;
    for (let j = graph.outOffsets[u]!; j < end; j++) {
      parts.push(`${first ? '' : ','}[${pageIds[u]},${pageIds[graph.outTargets[j]!]}]`);
      first = false;
      if (parts.length === JSON_ITEMS_PER_CHUNK) {
        yield parts.join('');
        parts = [];
      }
    }
  }
  parts.push(']}');
  yield parts.join('');
}
