// A crawl request as a crawl runs it: the body cap, the defaults of a request and the request with every
// default filled in (NormalizedCrawlRequest, turned into the engine's CrawlSettings here). The API schemas
// (schemas/crawls.ts) derive their `default`s from here and the services fill a request from here
// (services/crawl-request.ts); the names a request chooses among live in vocabulary.ts.

import { InputError } from '../errors.js';
import type {
  CrawlSettings,
  DocumentSettings,
  FetchSettings,
  PolitenessSettings,
  RenderSettings,
} from './engine/ports.js';
import type { ExtractionMethod } from './extract/index.js';
import { DEFAULT_TEXT_SETTINGS, type StopWordsSetting } from './text/word-model.js';
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

/** The request's `webhook` with defaults filled in (all events, no headers, no secret). */
export function normalizeWebhook(webhook: {
  url: string;
  events?: string[];
  headers?: Record<string, string>;
  secret?: string;
}): WebhookConfig {
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
 * normalizeCrawlRequest (services/crawl-request.ts) fills them in, so the two cannot drift apart.
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
} as const;

/** A document of a similarity set: text, or HTML with the URL it came from. */
export interface SimilarDocument {
  text?: string;
  html?: string;
  url?: string;
}

/**
 * A crawl request with every default filled in: what the crawl runs with, as stored in crawls.request and
 * shown back (normalizeCrawlRequest in services/crawl-request.ts writes it, storedCrawlRequest reads it).
 */
export interface NormalizedCrawlRequest {
  seeds: string[];
  strategy: CrawlStrategy;
  relevance: {
    query?: string;
    similarTo?: { urls: string[]; documents: SimilarDocument[] };
    corpus?: string;
    threshold: number;
    /** TF-IDF's text settings (with similarTo; absent in requests stored before them: the defaults) */
    stopWords?: StopWordsSetting;
    stem?: boolean;
  } | null;
  maxResults: number | null;
  ignoreInternal: boolean;
  topics: string[];
  /** cap: absent in requests stored before it, which ran with the reference's reading (`discovered`) */
  topic: { mainTextStartsAtFirstParagraph: boolean; skipLinksWithHashOrColon: boolean; cap?: TopicCap };
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
  /** absent in requests stored before it: the defaults */
  documents?: DocumentSettings;
  webhook: WebhookConfig | null;
  /** absent in requests stored before rendering existed: never rendered */
  render?: RenderSettings;
}

/** The engine's settings of a crawl from its normalized request. */
export function crawlSettings(crawlId: string, request: NormalizedCrawlRequest): CrawlSettings {
  return {
    crawlId,
    seeds: request.seeds,
    maxPages: request.maxPages,
    maxDepth: request.maxDepth,
    scope: request.scope,
    ...request.politeness,
    concurrency: request.concurrency,
    ...request.fetch,
    storeHtml: request.store.html,
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
    documents: request.documents ?? {
      fetch: CRAWL_REQUEST_DEFAULTS.documents.fetch,
      types: [...CRAWL_REQUEST_DEFAULTS.documents.types],
      maxBytes: request.fetch.maxBytes,
    },
    render: request.render ?? RENDER_NEVER,
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

const RENDER_NEVER: RenderSettings = { ...RENDER_DEFAULTS, block: [...RENDER_DEFAULTS.block] };

/** The request's `render` (a mode, or an object) with every default filled in. */
export function normalizeRender(
  render:
    | string
    | {
        mode?: string;
        waitUntil?: string | { selector: string };
        timeoutMs?: number;
        block?: string[];
        screenshot?: boolean;
      }
    | undefined,
): RenderSettings {
  const given = typeof render === 'string' ? { mode: render } : (render ?? {});
  return {
    mode: (given.mode ?? RENDER_DEFAULTS.mode) as RenderMode,
    waitUntil: (given.waitUntil ?? RENDER_DEFAULTS.waitUntil) as RenderWait,
    timeoutMs: given.timeoutMs ?? RENDER_DEFAULTS.timeoutMs,
    block: [...new Set((given.block ?? RENDER_DEFAULTS.block) as RenderBlockable[])],
    screenshot: given.screenshot ?? RENDER_DEFAULTS.screenshot,
  };
}
