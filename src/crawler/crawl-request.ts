// A crawl request, its one home: the defaults of a request, the request as given (POST /v1/crawls, or a row
// stored by an older release) turned into the request with every default filled in (NormalizedCrawlRequest,
// normalizeCrawlRequest), the checks a schema cannot express (validateCrawlRequest), and the engine's
// CrawlSettings made from it. The API schemas (schemas/crawls.ts) derive their `default`s from here, the
// repository reads stored requests back through readStoredCrawlRequest; the names a request chooses among
// live in vocabulary.ts.

import { InputError } from '../errors.js';
import type {
  CrawlSettings,
  DocumentSettings,
  FetchSettings,
  PolitenessSettings,
  RenderSettings,
} from './engine/ports.js';
import { DEFAULT_EXTRACTION_METHOD, type ExtractionMethod } from './extract/index.js';
import { canonicalizeUrl, urlTooLong } from './frontier/canonicalize.js';
import { validateScope } from './frontier/scope.js';
import { parseKeywordQuery } from './score/keyword-query.js';
import {
  DEFAULT_TEXT_SETTINGS,
  rejectTextSettingsWithQuery,
  type StopWordsSetting,
} from './text/word-model.js';
import {
  type CrawlStrategy,
  DOCUMENT_FETCH_TYPES,
  type DocumentFetchType,
  type RenderBlockable,
  type RenderMode,
  type RenderWait,
  type TopicCap,
  WEBHOOK_EVENTS,
  type WebhookEvent,
} from './vocabulary.js';

/** A crawl's webhook as stored with its request (normalizeWebhook fills it). */
export interface WebhookConfig {
  url: string;
  events: WebhookEvent[];
  headers: Record<string, string>;
  secret: string | null;
}

// Headers the service sets itself; a request may not replace them.
const RESERVED_HEADERS = new Set(['content-type', 'user-agent']);

// Headers the HTTP client (undici) manages itself and refuses to be given: connection-level (hop-by-hop)
// fields, message framing and `expect`. A webhook carrying one would fail every delivery, so it is refused
// when the crawl is requested.
const CLIENT_MANAGED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'transfer-encoding',
  'host',
  'content-length',
]);

// undici's test of a field value before it sends one: HTAB, SP, visible ASCII and obs-text (0x80-0xFF). CR, LF,
// NUL and other controls would split or end the header; characters beyond U+00FF have no one-byte form.
const UNSENDABLE_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** A webhook as given, or as stored (WebhookConfig, whose secret may be null). */
export interface GivenWebhook {
  url: string;
  events?: string[];
  headers?: Record<string, string>;
  secret?: string | null;
}

/** The request's `webhook` with defaults filled in (all events, no headers, no secret). */
export function normalizeWebhook(webhook: GivenWebhook): WebhookConfig {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(webhook.headers ?? {})) {
    const lower = name.toLowerCase();
    const field = `webhook.headers.${name}`;
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('x-trawl-'))
      throw new InputError(`header ${name} is set by trawl itself`, field);
    if (CLIENT_MANAGED_HEADERS.has(lower))
      throw new InputError(`header ${name} is managed by the HTTP client and cannot be set`, field);
    if (UNSENDABLE_HEADER_VALUE.test(value))
      throw new InputError(
        `header ${name} has a character HTTP cannot send in a value (a control character such as CR, LF or NUL, or one beyond U+00FF)`,
        field,
      );
    headers[lower] = value;
  }
  return {
    url: webhook.url,
    events: webhook.events?.length ? [...new Set(webhook.events as WebhookEvent[])] : [...WEBHOOK_EVENTS],
    headers,
    secret: webhook.secret ?? null,
  };
}

/** The default body cap of a fetch (fetch.maxBytes), and the most of an HTML page that is parsed. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Every type but images: they are recorded by type and size, not downloaded, unless asked for. */
export const DEFAULT_DOCUMENT_TYPES: readonly DocumentFetchType[] = DOCUMENT_FETCH_TYPES.filter(
  (type) => type !== 'image',
);

/**
 * Whether a crawl downloads images: `image` among documents.types, documents fetched. Then the images its
 * pages show (`<img src>`) are fetched too, so copies among them are found (docs/reference.md#documents).
 */
export function fetchesImages(documents: DocumentSettings): boolean {
  return documents.fetch && documents.types.includes('image');
}

/**
 * The defaults of a crawl request (POST /v1/crawls): the schema shows them as `default`s and
 * normalizeCrawlRequest fills them in, so the two cannot drift apart.
 */
export const CRAWL_REQUEST_DEFAULTS = {
  strategy: 'bfs' as CrawlStrategy,
  relevanceThreshold: 0.5,
  ignoreInternal: false,
  topic: { mainTextStartsAtFirstParagraph: true, skipLinksWithHashOrColon: true, cap: 'fetched' as TopicCap },
  maxPages: 1000,
  scope: { sameHost: false },
  politeness: {
    delayMs: 1000,
    maxCrawlDelayMs: 30_000,
    perHostConcurrency: 1,
    respectRobots: true,
    respectNofollow: true,
  },
  concurrency: 16,
  workers: 2,
  sitemaps: false,
  fetch: { timeoutMs: 30_000, maxBytes: DEFAULT_MAX_BODY_BYTES, retries: 2 },
  store: { html: true, warc: false },
  extract: { enabled: true },
  documents: { fetch: true, types: DEFAULT_DOCUMENT_TYPES },
  duplicates: { near: false, maxDistance: 3 },
} as const;

/**
 * The largest duplicates.maxDistance: the lookup reads four 16-bit bands of the simhash, each indexed, and two
 * hashes within 3 bits differ in at most 3 bands, so they share one exactly; at 4 bits they may share none
 * (docs/reference.md#near-duplicates).
 */
export const MAX_NEAR_DUPLICATE_DISTANCE = 3;

/** A document of a similarity set: text, or HTML with the URL it came from. */
export interface SimilarDocument {
  text?: string;
  html?: string;
  url?: string;
}

/** The request's `render` as given: a mode alone, or an object of which every field is optional. */
export type GivenRender =
  | string
  | {
      mode?: string;
      waitUntil?: string | { selector: string };
      timeoutMs?: number;
      block?: string[];
      screenshot?: boolean;
    };

/**
 * A crawl request as given: the body of POST /v1/crawls (schemas/crawls.ts, whose type fits this one), or a
 * request stored by an older release, which lacks the fields added since. Every field but the seeds optional.
 */
export interface GivenCrawlRequest {
  /** Required unless the request is a recrawl, which starts from the earlier crawl's seeds. */
  seeds?: string[];
  recrawl?: { of: string } | null;
  strategy?: string;
  relevance?: {
    query?: string;
    similarTo?: { urls?: string[]; documents?: SimilarDocument[] };
    corpus?: string;
    threshold?: number;
    stopWords?: StopWordsSetting;
    stem?: boolean;
  } | null;
  maxResults?: number | null;
  ignoreInternal?: boolean;
  topics?: string[];
  topic?: { mainTextStartsAtFirstParagraph?: boolean; skipLinksWithHashOrColon?: boolean; cap?: string };
  maxPages?: number;
  maxDepth?: number | null;
  scope?: { allowedDomains?: string[]; sameHost?: boolean; include?: string[]; exclude?: string[] };
  politeness?: Partial<PolitenessSettings>;
  concurrency?: number;
  workers?: number;
  sitemaps?: boolean;
  fetch?: Partial<FetchSettings>;
  store?: { html?: boolean; warc?: boolean };
  extract?: { enabled?: boolean; method?: ExtractionMethod };
  documents?: { fetch?: boolean; types?: string[]; maxBytes?: number };
  duplicates?: { near?: boolean; maxDistance?: number };
  webhook?: GivenWebhook | null;
  render?: GivenRender;
  retention?: { days?: number } | null;
}

/**
 * A crawl request with every default filled in: what the crawl runs with, as stored in crawls.request and
 * shown back (normalizeCrawlRequest writes it, readStoredCrawlRequest reads it).
 */
export interface NormalizedCrawlRequest {
  seeds: string[];
  /** The earlier crawl this one revisits (docs/guide.md#recrawls-what-changed); null: a crawl from its seeds alone. */
  recrawl: { of: string } | null;
  strategy: CrawlStrategy;
  relevance: {
    query?: string;
    similarTo?: { urls: string[]; documents: SimilarDocument[] };
    corpus?: string;
    threshold: number;
    /** TF-IDF's text settings: filled in with similarTo; a keyword query takes none */
    stopWords?: StopWordsSetting;
    stem?: boolean;
  } | null;
  maxResults: number | null;
  ignoreInternal: boolean;
  topics: string[];
  topic: { mainTextStartsAtFirstParagraph: boolean; skipLinksWithHashOrColon: boolean; cap: TopicCap };
  maxPages: number;
  maxDepth: number | null;
  scope: { allowedDomains?: string[]; sameHost: boolean; include: string[]; exclude: string[] };
  politeness: PolitenessSettings;
  concurrency: number;
  workers: number;
  sitemaps: boolean;
  fetch: FetchSettings;
  /** warc: keep what a WARC export needs, every response's headers and body (implies html) */
  store: { html: boolean; warc: boolean };
  extract: { enabled: boolean; method: ExtractionMethod };
  documents: DocumentSettings;
  /** near: mark pages whose main text's simhash is within maxDistance bits of an earlier page's */
  duplicates: { near: boolean; maxDistance: number };
  webhook: WebhookConfig | null;
  render: RenderSettings;
  /** Days after its end the crawl is purged (at most CRAWL_RETENTION_DAYS); null: the server's setting. */
  retention: { days: number } | null;
}

/**
 * The request with every default filled in: what the crawl really runs with, stored and shown back. The one
 * place defaults are applied (app.ts leaves bodies as sent); the values come from CRAWL_REQUEST_DEFAULTS,
 * which the schema shows as its `default`s. Normalizing a normalized request changes nothing.
 */
export function normalizeCrawlRequest(
  request: GivenCrawlRequest,
  defaultUserAgent: string,
): NormalizedCrawlRequest {
  const DEFAULTS = CRAWL_REQUEST_DEFAULTS;
  return {
    seeds: request.seeds ?? [],
    recrawl: request.recrawl ? { of: request.recrawl.of } : null,
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
          // TF-IDF's text settings, stored with the request (a keyword query takes none: validateCrawlRequest)
          ...(request.relevance.similarTo
            ? {
                stopWords: request.relevance.stopWords ?? DEFAULT_TEXT_SETTINGS.stopWords,
                stem: request.relevance.stem ?? DEFAULT_TEXT_SETTINGS.stem,
              }
            : {
                ...(request.relevance.stopWords !== undefined
                  ? { stopWords: request.relevance.stopWords }
                  : {}),
                ...(request.relevance.stem !== undefined ? { stem: request.relevance.stem } : {}),
              }),
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
      cap: (request.topic?.cap as TopicCap | undefined) ?? DEFAULTS.topic.cap,
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
    store: {
      // a WARC holds the HTML bodies too: store.warc keeps them whatever store.html says
      html: (request.store?.html ?? DEFAULTS.store.html) || (request.store?.warc ?? DEFAULTS.store.warc),
      warc: request.store?.warc ?? DEFAULTS.store.warc,
    },
    extract: {
      enabled: request.extract?.enabled ?? DEFAULTS.extract.enabled,
      method: request.extract?.method ?? DEFAULT_EXTRACTION_METHOD,
    },
    documents: {
      fetch: request.documents?.fetch ?? DEFAULTS.documents.fetch,
      types: (request.documents?.types as DocumentFetchType[] | undefined) ?? [...DEFAULTS.documents.types],
      // bounded by fetch.maxBytes: the fetch itself stops there
      maxBytes: Math.min(
        request.documents?.maxBytes ?? Number.POSITIVE_INFINITY,
        request.fetch?.maxBytes ?? DEFAULTS.fetch.maxBytes,
      ),
    },
    duplicates: {
      near: request.duplicates?.near ?? DEFAULTS.duplicates.near,
      maxDistance: request.duplicates?.maxDistance ?? DEFAULTS.duplicates.maxDistance,
    },
    webhook: request.webhook ? normalizeWebhook(request.webhook) : null,
    render: normalizeRender(request.render),
    retention: request.retention?.days !== undefined ? { days: request.retention.days } : null,
  };
}

/**
 * Days after its end a crawl is purged: the fewer of its own retention.days and the server's (CRAWL_RETENTION_DAYS,
 * `serverDays`), as crawls_expired.sql counts them; null: kept until deleted.
 */
export function retentionDaysOf(
  request: Pick<NormalizedCrawlRequest, 'retention'>,
  serverDays: number | null,
) {
  const own = request.retention?.days ?? null;
  if (own === null) return serverDays;
  return serverDays === null ? own : Math.min(own, serverDays);
}

/**
 * A crawl's stored request (crawls.request, written by normalizeCrawlRequest) read back, for the repository
 * that reads it: a row stored before a field existed gets that field's default rather than undefined, and a
 * row stored since reads back unchanged. Its user agent is the one it was stored with.
 */
export function readStoredCrawlRequest(stored: unknown): NormalizedCrawlRequest {
  const request = stored as GivenCrawlRequest;
  return normalizeCrawlRequest(request, request.politeness?.userAgent ?? '');
}

/**
 * The checks a schema cannot express, each fault an InputError naming its field: the scope (seeds, domains,
 * patterns, depth), what the strategy needs of relevance, and each seed's canonical form. Returns the seeds
 * canonical, with their origins, as the frontier starts from them.
 */
export function validateCrawlRequest(
  request: NormalizedCrawlRequest,
): Array<{ url: string; origin: string }> {
  if (request.seeds.length === 0)
    throw new InputError('give at least one seed (or recrawl an earlier crawl)', 'seeds');
  validateScope(
    { seeds: request.seeds, ...request.scope, maxDepth: request.maxDepth },
    { seedsField: 'seeds' },
  );
  validateFocus(request);
  validateDuplicates(request);
  return request.seeds.map((seed, index) => {
    const url = canonicalizeUrl(seed);
    if (!url) throw new InputError('seed is not a crawlable http(s) URL', `seeds[${index}]`);
    // percent-encoding can make a canonical URL several times longer than the seed as given
    const tooLong = urlTooLong(url);
    if (tooLong) throw new InputError(`seed is too long once canonical: ${tooLong}`, `seeds[${index}]`);
    return { url, origin: new URL(url).origin };
  });
}

/** Near-duplicates are found by the text job, from the main text of stored bodies. */
function validateDuplicates({ duplicates, extract, store }: NormalizedCrawlRequest): void {
  const { maxDistance } = duplicates;
  if (!Number.isInteger(maxDistance) || maxDistance < 0 || maxDistance > MAX_NEAR_DUPLICATE_DISTANCE) {
    throw new InputError(
      `maxDistance is a whole number of bits from 0 to ${MAX_NEAR_DUPLICATE_DISTANCE}`,
      'duplicates.maxDistance',
    );
  }
  if (duplicates.near && !(extract.enabled && store.html)) {
    throw new InputError(
      'near-duplicates compare main texts: they need extract.enabled and store.html',
      'duplicates.near',
    );
  }
}

/** What the strategy needs of relevance, and relevance of itself; each fault names its field. */
function validateFocus(request: NormalizedCrawlRequest): void {
  const { relevance, strategy } = request;
  if (strategy === 'best-first' && !relevance) {
    throw new InputError('best-first needs relevance: a query or a similarity set', 'relevance');
  }
  if (
    strategy === 'topic' &&
    request.topic.cap !== 'fetched' &&
    new Set(request.seeds).size > request.maxPages
  ) {
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

/**
 * A recrawl's request: the earlier crawl's stored request with each field the new request gives overriding it.
 * An object field (politeness, fetch, scope, …) is merged one level deep, so `politeness: {delayMs: 0}` keeps
 * the earlier user agent and robots.txt setting; arrays and scalars are replaced. Seeds default to the earlier
 * crawl's (docs/guide.md#recrawls-what-changed).
 */
export function recrawlRequest(earlier: NormalizedCrawlRequest, given: GivenCrawlRequest): GivenCrawlRequest {
  const merged: Record<string, unknown> = { ...earlier };
  for (const [field, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const before = merged[field];
    merged[field] = isPlainObject(value) && isPlainObject(before) ? { ...before, ...value } : value;
  }
  // a webhook given replaces the earlier one whole: its secret and headers belong to its URL
  if (given.webhook !== undefined) merged.webhook = given.webhook;
  return merged as unknown as GivenCrawlRequest;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The engine's settings of a crawl from its normalized request. */
export function crawlSettings(crawlId: string, request: NormalizedCrawlRequest): CrawlSettings {
  return {
    crawlId,
    seeds: request.seeds,
    recrawlOf: request.recrawl?.of ?? null,
    maxPages: request.maxPages,
    maxDepth: request.maxDepth,
    scope: request.scope,
    ...request.politeness,
    concurrency: request.concurrency,
    ...request.fetch,
    storeHtml: request.store.html,
    mainText: request.extract.enabled && request.store.html ? request.extract.method : null,
    // what a WARC export needs (docs/reference.md#warc): the response headers with the bodies, every body with store.warc
    storeHeaders: request.store.html || request.store.warc,
    storeEveryBody: request.store.warc,
    sitemaps: request.sitemaps,
    strategy: request.strategy,
    relevance: request.relevance
      ? {
          ...(request.relevance.query !== undefined ? { query: request.relevance.query } : {}),
          ...(request.relevance.similarTo ? { similarTo: request.relevance.similarTo } : {}),
          ...(request.relevance.corpus ? { corpusId: request.relevance.corpus } : {}),
          threshold: request.relevance.threshold,
          // a keyword query takes no text settings: it counts words the default way
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
    // the reference's topic crawl holds the first maxPages pages it discovers (docs/reference.md#topic-weights);
    // with cap `fetched`, maxPages caps what is fetched, as in the other strategies
    maxDiscovered: request.strategy === 'topic' && request.topic.cap !== 'fetched' ? request.maxPages : null,
    // and its frontier holds each page at the best weight the fetched pages gave it, not the first one
    raiseOnRediscovery: request.strategy === 'topic' && request.topic.cap === 'fetched',
    // and a link's priority inherits half from the page holding it (shark-search)
    inheritPriority: request.strategy === 'topic' && request.topic.cap === 'fetched',
    documents: request.documents,
    render: request.render,
  };
}

// --- Rendering in headless Chromium (docs/reference.md#rendering) ---

export const RENDER_DEFAULTS = {
  mode: 'never' as RenderMode,
  waitUntil: 'load' as RenderWait,
  timeoutMs: 15_000,
  block: ['image', 'media', 'font'] as RenderBlockable[],
  screenshot: false,
} as const;

/** The request's `render` (a mode, or an object) with every default filled in. */
export function normalizeRender(render: GivenRender | undefined): RenderSettings {
  const given = typeof render === 'string' ? { mode: render } : (render ?? {});
  return {
    mode: (given.mode ?? RENDER_DEFAULTS.mode) as RenderMode,
    waitUntil: (given.waitUntil ?? RENDER_DEFAULTS.waitUntil) as RenderWait,
    timeoutMs: given.timeoutMs ?? RENDER_DEFAULTS.timeoutMs,
    block: [...new Set((given.block ?? RENDER_DEFAULTS.block) as RenderBlockable[])],
    screenshot: given.screenshot ?? RENDER_DEFAULTS.screenshot,
  };
}
