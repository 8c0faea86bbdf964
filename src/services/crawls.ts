// Use cases of the crawl resource: start a crawl, read its status and results, cancel it. Routes call these;
// these call the repository and the job queue and know nothing of HTTP.

import { randomUUID } from 'node:crypto';
import {
  type CrawlStrategy,
  CRAWL_REQUEST_DEFAULTS as DEFAULTS,
  isFinished,
  PAGE_TYPES,
} from '../crawler/crawl-request.js';
import type { CrawlSettings } from '../crawler/engine/ports.js';
import { DEFAULT_EXTRACTION_METHOD } from '../crawler/extract/index.js';
import { canonicalizeUrl, urlTooLong } from '../crawler/frontier/canonicalize.js';
import { CrawlScope } from '../crawler/frontier/scope.js';
import { parseKeywordQuery } from '../crawler/score/keyword-query.js';
import {
  DEFAULT_TEXT_SETTINGS,
  rejectTextSettingsWithQuery,
  type TextSettingsRecord,
  WordModel,
} from '../crawler/text/word-model.js';
import {
  ActiveCrawlLimitError,
  type CrawlRow,
  type CrawlsRepository,
  type PageRow,
} from '../db/crawls-repo.js';
import { InputError, TrawlError } from '../errors.js';
import { queueCrawlRunners } from '../jobs/producers.js';
import type { JobBackend } from '../jobs/queues.js';
import type { CrawlRequest } from '../schemas/crawls.js';
import { requireMatchingTextSettings } from './corpora.js';
import { decodeCursor, encodeCursor, isCreatedAtCursor, iso, isRowId } from './pagination.js';
import { storedBodyText } from './stored-body.js';

/** Pages are listed by id, or by (score, id): the cursor holds the last of each. */
function isPageCursor(value: unknown): value is { after: number; score?: number | null } {
  const { after, score } = (value ?? {}) as Record<string, unknown>;
  return isRowId(after) && (score === undefined || score === null || Number.isFinite(score));
}

import { scopeOwner, type TenantScope, tenantScope } from '../db/tenant-scope.js';
import { normalizeWebhook } from './webhooks.js';

export interface CrawlServiceOptions {
  repository: CrawlsRepository;
  jobs: JobBackend;
  defaultUserAgent: string;
  /** Per API key: crawls it may have queued or running at once (0 or unset: no cap; open mode: no cap). */
  maxRunningCrawlsPerKey?: number;
  /** Main text of a page for ?include=text (CrawlStatsService: stored by the text job, or extracted now). */
  mainText?: { pageText(crawl: CrawlRow, pageId: number): Promise<string | null> };
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

export function crawlLinks(id: string) {
  return { self: `/v1/crawls/${id}`, pages: `/v1/crawls/${id}/pages`, graph: `/v1/crawls/${id}/graph` };
}

/**
 * The request with every default filled in: what the crawl really runs with, stored and shown back. The one
 * place defaults are applied (app.ts leaves bodies as sent); the values come from CRAWL_REQUEST_DEFAULTS,
 * which the schema shows as its `default`s.
 */
export function normalizeCrawlRequest(request: CrawlRequest, defaultUserAgent: string) {
  return {
    seeds: request.seeds,
    strategy: (request.strategy ?? DEFAULTS.strategy) as CrawlStrategy,
    relevance: request.relevance
      ? {
          ...(request.relevance.query !== undefined ? { query: request.relevance.query } : {}),
          ...(request.relevance.similarTo
            ? {
                similarTo: {
                  urls: request.relevance.similarTo.urls ?? [],
                  documents: request.relevance.similarTo.documents ?? [],
                },
              }
            : {}),
          ...(request.relevance.corpus ? { corpus: request.relevance.corpus } : {}),
          threshold: request.relevance.threshold ?? DEFAULTS.relevanceThreshold,
          // TF-IDF's text settings, stored with the request (a keyword query takes none: validateFocus)
          ...(request.relevance.similarTo
            ? { stopWords: request.relevance.stopWords ?? 'default', stem: request.relevance.stem ?? false }
            : { stopWords: request.relevance.stopWords, stem: request.relevance.stem }),
        }
      : null,
    maxResults: request.maxResults ?? null,
    ignoreInternal: request.ignoreInternal ?? DEFAULTS.ignoreInternal,
    topics: request.topics ?? [],
    topic: {
      mainTextStartsAtFirstParagraph:
        request.topic?.mainTextStartsAtFirstParagraph ?? DEFAULTS.topic.mainTextStartsAtFirstParagraph,
      skipLinksWithHashOrColon:
        request.topic?.skipLinksWithHashOrColon ?? DEFAULTS.topic.skipLinksWithHashOrColon,
    },
    maxPages: request.maxPages ?? DEFAULTS.maxPages,
    maxDepth: request.maxDepth ?? null,
    scope: {
      ...(request.scope?.allowedDomains ? { allowedDomains: request.scope.allowedDomains } : {}),
      sameHost: request.scope?.sameHost ?? DEFAULTS.scope.sameHost,
      include: request.scope?.include ?? [],
      exclude: request.scope?.exclude ?? [],
    },
    politeness: {
      delayMs: request.politeness?.delayMs ?? DEFAULTS.politeness.delayMs,
      maxCrawlDelayMs: request.politeness?.maxCrawlDelayMs ?? DEFAULTS.politeness.maxCrawlDelayMs,
      perHostConcurrency: request.politeness?.perHostConcurrency ?? DEFAULTS.politeness.perHostConcurrency,
      respectRobots: request.politeness?.respectRobots ?? DEFAULTS.politeness.respectRobots,
      respectNofollow: request.politeness?.respectNofollow ?? DEFAULTS.politeness.respectNofollow,
      userAgent: request.politeness?.userAgent ?? defaultUserAgent,
    },
    concurrency: request.concurrency ?? DEFAULTS.concurrency,
    workers: request.workers ?? DEFAULTS.workers,
    sitemaps: request.sitemaps ?? DEFAULTS.sitemaps,
    fetch: {
      timeoutMs: request.fetch?.timeoutMs ?? DEFAULTS.fetch.timeoutMs,
      maxBytes: request.fetch?.maxBytes ?? DEFAULTS.fetch.maxBytes,
      retries: request.fetch?.retries ?? DEFAULTS.fetch.retries,
    },
    store: { html: request.store?.html ?? DEFAULTS.store.html },
    extract: {
      enabled: request.extract?.enabled ?? DEFAULTS.extract.enabled,
      method: request.extract?.method ?? DEFAULT_EXTRACTION_METHOD,
    },
    webhook: request.webhook ? normalizeWebhook(request.webhook) : null,
  };
}

/** The stored request as shown back: a webhook's secret is never echoed. */
function shownRequest(request: Record<string, unknown>): Record<string, unknown> {
  const webhook = request.webhook as { secret?: string | null } | null | undefined;
  if (!webhook?.secret) return request;
  return { ...request, webhook: { ...webhook, secret: '(set)' } };
}
export type NormalizedCrawlRequest = ReturnType<typeof normalizeCrawlRequest>;

/**
 * A crawl's stored request (crawls.request, written by normalizeCrawlRequest) read back: the one reader, so
 * a row stored before a field existed gets that field's default rather than undefined. Normalizing a
 * normalized request changes nothing.
 */
export function storedCrawlRequest(stored: Record<string, unknown>): NormalizedCrawlRequest {
  const request = stored as unknown as CrawlRequest;
  return normalizeCrawlRequest(request, request.politeness?.userAgent ?? '');
}

export function crawlSettings(crawlId: string, request: NormalizedCrawlRequest): CrawlSettings {
  return {
    crawlId,
    seeds: request.seeds,
    maxPages: request.maxPages,
    maxDepth: request.maxDepth,
    scope: request.scope,
    delayMs: request.politeness.delayMs,
    maxCrawlDelayMs: request.politeness.maxCrawlDelayMs,
    perHostConcurrency: request.politeness.perHostConcurrency,
    respectRobots: request.politeness.respectRobots,
    respectNofollow: request.politeness.respectNofollow,
    userAgent: request.politeness.userAgent,
    concurrency: request.concurrency,
    timeoutMs: request.fetch.timeoutMs,
    maxBytes: request.fetch.maxBytes,
    retries: request.fetch.retries,
    storeHtml: request.store.html,
    sitemaps: request.sitemaps,
    strategy: request.strategy,
    relevance: request.relevance
      ? {
          ...(request.relevance.query !== undefined ? { query: request.relevance.query } : {}),
          ...(request.relevance.similarTo ? { similarTo: request.relevance.similarTo } : {}),
          ...(request.relevance.corpus ? { corpusId: request.relevance.corpus } : {}),
          threshold: request.relevance.threshold,
          text: {
            stopWords: request.relevance.stopWords ?? DEFAULT_TEXT_SETTINGS.stopWords,
            stem: request.relevance.stem ?? DEFAULT_TEXT_SETTINGS.stem,
          },
        }
      : null,
    maxResults: request.maxResults,
    ignoreInternal: request.ignoreInternal,
    topics: request.topics,
    topicOptions: request.topic,
    // the topic crawl's graph holds the first maxPages pages it discovers (docs/reference.md#topic-weights)
    maxDiscovered: request.strategy === 'topic' ? request.maxPages : null,
  };
}

/** Relevant pages, harvest rate and how pages are scored, for crawls that score pages. */
function focusStatus(row: CrawlRow, pagesFetched: number) {
  const request = storedCrawlRequest(row.request);
  const relevance = request.relevance;
  if (!relevance) return { strategy: request.strategy };
  return {
    strategy: request.strategy,
    relevantPages: row.relevant_pages,
    harvestRate: pagesFetched > 0 ? Math.round((row.relevant_pages / pagesFetched) * 10_000) / 10_000 : 0,
    scoring: {
      scorer: relevance.query !== undefined ? 'keyword' : 'tfidf',
      threshold: relevance.threshold,
      corpus:
        relevance.query !== undefined
          ? null
          : relevance.corpus
            ? `stored corpus ${relevance.corpus}`
            : 'built from the similarity set plus the pages fetched so far',
    },
  };
}

/** The checks a schema cannot express; each names its field. */
export function validateFocus(request: NormalizedCrawlRequest): void {
  const { relevance, strategy } = request;
  if (strategy === 'best-first' && !relevance) {
    throw new InputError('best-first needs relevance: a query or a similarity set', 'relevance');
  }
  if (strategy === 'topic' && new Set(request.seeds).size > request.maxPages) {
    throw new InputError('a topic crawl holds maxPages pages, seeds included: give fewer seeds', 'seeds');
  }
  if (request.maxResults !== null && !relevance) {
    throw new InputError('maxResults counts relevant pages, so it needs relevance', 'maxResults');
  }
  if (!relevance) return;
  const hasQuery = relevance.query !== undefined;
  const hasSimilar = relevance.similarTo !== undefined;
  if (hasQuery === hasSimilar) {
    throw new InputError(
      'give exactly one of query or similarTo',
      hasQuery ? 'relevance.similarTo' : 'relevance',
    );
  }
  if (hasQuery) {
    rejectTextSettingsWithQuery(relevance, 'relevance.');
    try {
      parseKeywordQuery(relevance.query ?? '');
    } catch (error) {
      if (error instanceof InputError) throw new InputError(error.message, 'relevance.query', error.detail);
      throw error;
    }
  }
  if (relevance.corpus && !hasSimilar)
    throw new InputError('a corpus goes with similarTo', 'relevance.corpus');
  if (
    hasSimilar &&
    (relevance.similarTo?.urls.length ?? 0) + (relevance.similarTo?.documents.length ?? 0) === 0
  ) {
    throw new InputError('the similarity set is empty', 'relevance.similarTo');
  }
  relevance.similarTo?.documents.forEach((document, index) => {
    if ((document.text === undefined) === (document.html === undefined)) {
      throw new InputError('give exactly one of text or html', `relevance.similarTo.documents[${index}]`);
    }
  });
}

function pageSummary(row: PageRow) {
  return {
    id: row.id,
    url: row.url,
    canonicalUrl: row.canonical_url,
    finalUrl: row.final_url,
    type: row.type,
    status: row.status,
    contentType: row.content_type,
    bytes: row.bytes,
    depth: row.depth,
    sha256: row.sha256,
    loadMs: row.load_ms,
    queueWaitMs: row.fetched_at ? Math.max(0, row.fetched_at.getTime() - row.queued_at.getTime()) : null,
    queuedAt: row.queued_at.toISOString(),
    fetchedAt: iso(row.fetched_at),
    duplicateOf: row.duplicate_of,
    discoveredFrom: row.discovered_from,
    title: row.title,
    error: row.error,
    score: row.score,
    result: row.result,
  };
}

// Tenancy: every method takes the caller's `scope` (tenant-scope.ts: a request's tenantScope, or INTERNAL_SCOPE
// for workers and jobs), required so that no call can forget it. A crawl of another owner is "not found", never
// "forbidden", so ids do not leak.
export class CrawlService {
  constructor(private readonly options: CrawlServiceOptions) {}

  async create(request: CrawlRequest, scope: TenantScope) {
    const normalized = normalizeCrawlRequest(request, this.options.defaultUserAgent);
    // Validate scope patterns and seeds here so a bad request is a 400, not a failed crawl later.
    new CrawlScope({ seeds: normalized.seeds, ...normalized.scope, maxDepth: normalized.maxDepth });
    validateFocus(normalized);
    const seeds = normalized.seeds.map((seed, index) => {
      const url = canonicalizeUrl(seed);
      if (!url) throw new InputError('seed is not a crawlable http(s) URL', `seeds[${index}]`);
      // percent-encoding can make a canonical URL several times longer than the seed as given
      const tooLong = urlTooLong(url);
      if (tooLong) throw new InputError(`seed is too long once canonical: ${tooLong}`, `seeds[${index}]`);
      return { url, origin: new URL(url).origin };
    });
    const corpusId = normalized.relevance?.corpus;
    // another tenant's corpus is "not found", as on every other route: neither read nor confirmed to exist.
    // Seen with the scope of the crawl's owner, so a crawl made internally (owned by no key) needs a keyless corpus.
    if (corpusId && this.options.corpora) {
      const corpus = await this.options.corpora.get(corpusId, tenantScope(scopeOwner(scope)));
      if (!corpus)
        throw new TrawlError('not_found', `no corpus with id ${corpusId}`, { field: 'relevance.corpus' });
      requireMatchingTextSettings(
        { id: corpusId, textSettings: corpus.text_settings },
        WordModel.of(normalized.relevance ?? {}),
        'relevance.corpus',
      );
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
    return { id: row.id, status: 'queued' as const, links: crawlLinks(row.id) };
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

  async status(id: string, scope: TenantScope) {
    const row = await this.require(id, scope);
    const [countRows, totals] = await Promise.all([
      this.options.repository.counts(id),
      this.options.repository.totals(id),
    ]);
    const counts = Object.fromEntries(PAGE_TYPES.map((type) => [type, 0])) as Record<
      (typeof PAGE_TYPES)[number],
      number
    >;
    const statusCodes: Record<string, number> = {};
    for (const { type, status, n } of countRows) {
      counts[type as keyof typeof counts] += n;
      if (status !== null) statusCodes[String(status)] = (statusCodes[String(status)] ?? 0) + n;
    }
    // "fetched" = a request was made: DISALLOWED pages and the redirect targets reached inside another
    // page's fetch (DUPLICATE without a status) are not requests of their own.
    const pagesFetched = countRows
      .filter(
        ({ type, status }) =>
          type !== 'FRONTIER' && type !== 'DISALLOWED' && !(type === 'DUPLICATE' && status === null),
      )
      .reduce((sum, { n }) => sum + n, 0);
    const end = row.finished_at ?? (isFinished(row.status) ? totals.last_fetched_at : new Date());
    const elapsedMs = row.started_at && end ? Math.max(0, end.getTime() - row.started_at.getTime()) : null;
    const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
    return {
      id: row.id,
      status: row.status,
      request: shownRequest(row.request),
      counts,
      statusCodes,
      pagesFetched,
      duplicates: counts.DUPLICATE,
      links: totals.links,
      images: totals.images,
      documents: totals.documents,
      frontier: counts.FRONTIER,
      pagesPerSecond: elapsedMs ? Math.round((pagesFetched / (elapsedMs / 1000)) * 100) / 100 : 0,
      elapsedMs,
      loadMs: { p50: round(totals.load_p50), p95: round(totals.load_p95) },
      queueWaitMs: { p50: round(totals.wait_p50), p95: round(totals.wait_p95) },
      createdAt: row.created_at.toISOString(),
      startedAt: iso(row.started_at),
      finishedAt: iso(row.finished_at),
      error: row.error,
      ...focusStatus(row, pagesFetched),
      _links: crawlLinks(row.id),
    };
  }

  async list(limit: number, cursor: string | undefined, scope: TenantScope) {
    const after = cursor ? decodeCursor(cursor, isCreatedAtCursor) : null;
    const rows = await this.options.repository.list(limit + 1, after, scope);
    const items = rows.slice(0, limit).map((row) => ({
      id: row.id,
      status: row.status,
      seeds: storedCrawlRequest(row.request).seeds.slice(0, 10),
      createdAt: row.created_at.toISOString(),
      finishedAt: iso(row.finished_at),
      links: crawlLinks(row.id),
    }));
    const last = rows[limit - 1];
    const next =
      rows.length > limit && last
        ? `/v1/crawls?limit=${limit}&cursor=${encodeCursor({ createdAt: last.created_at.toISOString(), id: last.id })}`
        : null;
    return { items, next };
  }

  async cancel(id: string, scope: TenantScope) {
    const row = await this.require(id, scope);
    if (!(await this.options.repository.cancel(id))) {
      throw new TrawlError('conflict', `crawl ${id} has already ended (${row.status})`);
    }
    this.options.onCancelled?.(id);
    return this.status(id, scope);
  }

  async pages(
    id: string,
    query: {
      limit?: number;
      cursor?: string;
      type?: string;
      status?: number;
      host?: string;
      minScore?: number;
      result?: boolean;
      sort?: string;
    },
    scope: TenantScope,
  ) {
    await this.require(id, scope);
    const limit = query.limit ?? 50;
    const byScore = query.sort === '-score';
    const cursor = query.cursor ? decodeCursor(query.cursor, isPageCursor) : { after: 0, score: null };
    const afterId = cursor.after;
    const rows = await this.options.repository.pages(id, {
      afterId,
      type: query.type ?? null,
      status: query.status ?? null,
      host: query.host?.toLowerCase() ?? null,
      limit: limit + 1,
      byScore,
      afterScore: byScore ? (cursor.score ?? null) : null,
      minScore: query.minScore ?? null,
      result: query.result ?? null,
    });
    const items = rows.slice(0, limit).map(pageSummary);
    let next: string | null = null;
    const last = items[items.length - 1];
    if (rows.length > limit && last) {
      const params = new URLSearchParams();
      params.set('limit', String(limit));
      if (query.type) params.set('type', query.type);
      if (query.status) params.set('status', String(query.status));
      if (query.host) params.set('host', query.host);
      if (query.minScore !== undefined) params.set('minScore', String(query.minScore));
      if (query.result !== undefined) params.set('result', String(query.result));
      if (byScore) params.set('sort', '-score');
      params.set(
        'cursor',
        encodeCursor(byScore ? { after: last.id, score: last.score } : { after: last.id }),
      );
      next = `/v1/crawls/${id}/pages?${params}`;
    }
    return { items, next };
  }

  /** `include`: a comma list of html (the stored body) and text (the main text). */
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
    if (wanted.has('html')) {
      const gz = await repository.pageHtmlGzip(pageId);
      html = gz ? await storedBodyText(gz, row.content_type) : null;
    }
    let text: string | null | undefined;
    if (wanted.has('text')) {
      if (!this.options.mainText) throw new Error('CrawlService was built without a mainText source');
      text = await this.options.mainText.pageText(crawl, pageId);
    }
    return {
      ...pageSummary(row),
      redirects: row.redirects,
      truncated: row.truncated,
      outlinks: outlinks.map((link) => ({ pageId: link.to_page, url: link.url, anchor: link.anchor })),
      images,
      skipped: row.skipped ?? [],
      document: document
        ? { dataType: document.data_type, contentType: document.content_type, bytes: document.bytes }
        : null,
      ...(html !== undefined ? { html } : {}),
      ...(text !== undefined ? { text } : {}),
    };
  }

  /**
   * Per-host view of a crawl (what a dashboard wants to see by host, kept out of Prometheus labels, where
   * one series per host of a large crawl would explode): pages by type, requests, load times, robots.txt.
   */
  async hosts(id: string, limit: number, scope: TenantScope) {
    await this.require(id, scope);
    const rows = await this.options.repository.hosts(id, limit);
    const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
    return {
      items: rows.map((row) => {
        const seconds =
          row.first_fetched_at && row.last_fetched_at
            ? (row.last_fetched_at.getTime() - row.first_fetched_at.getTime()) / 1000
            : 0;
        return {
          origin: row.origin,
          robots: { status: row.robots_status, error: row.robots_error, crawlDelayMs: row.crawl_delay_ms },
          pages: row.pages,
          counts: {
            HTML: row.html,
            BINARY: row.binary,
            DUPLICATE: row.duplicate,
            INVALID: row.invalid,
            DISALLOWED: row.disallowed,
            FRONTIER: row.frontier,
          },
          requests: row.requests,
          requestsPerSecond: seconds > 0 ? Math.round((row.requests / seconds) * 100) / 100 : null,
          loadMs: { p50: round(row.load_p50), p95: round(row.load_p95) },
          lastFetchedAt: iso(row.last_fetched_at),
        };
      }),
    };
  }

  /** The crawl's link graph: as the edges file of docs/reference.md#graph-file, or as JSON. */
  async graph(id: string, format: 'edges' | 'json', scope: TenantScope) {
    await this.require(id, scope);
    const { vertices, edges } = await this.options.repository.graph(id);
    if (format === 'json') {
      return {
        vertices: vertices.map((v) => ({ id: v.id, url: v.url })),
        edges: edges.map((e) => [e.from_page, e.to_page] as [number, number]),
      };
    }
    const urlOf = new Map(vertices.map((v) => [v.id, v.url]));
    const lines = [String(vertices.length)];
    for (const edge of edges) lines.push(`${urlOf.get(edge.from_page)} ${urlOf.get(edge.to_page)}`);
    return `${lines.join('\n')}\n`;
  }
}
