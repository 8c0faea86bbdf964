// The crawl's vocabulary, declared once: page types, crawl statuses, webhook events, the body cap, the
// defaults of a crawl request and the request as a crawl runs it (NormalizedCrawlRequest, turned into the
// engine's CrawlSettings here). The API schemas (schemas/crawls.ts) derive their enums and `default`s from
// here, the services fill a request from here (services/crawl-request.ts), and the engine tests media types here.

import { InputError } from '../errors.js';
import type { CrawlSettings } from './engine/ports.js';
import type { ExtractionMethod } from './extract/index.js';
import { DEFAULT_TEXT_SETTINGS, type StopWordsSetting } from './text/word-model.js';

/** What a page row is: fetched HTML, another body, a copy, a failure, a robots refusal, or not yet fetched. */
export const PAGE_TYPES = ['HTML', 'BINARY', 'DUPLICATE', 'INVALID', 'DISALLOWED', 'FRONTIER'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

export const CRAWL_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type CrawlStatusName = (typeof CRAWL_STATUSES)[number];

/** The statuses a crawl never leaves. */
export const FINISHED_STATUSES: ReadonlySet<string> = new Set<CrawlStatusName>([
  'completed',
  'failed',
  'cancelled',
]);

export function isFinished(status: string): boolean {
  return FINISHED_STATUSES.has(status);
}

/** What a webhook may be sent (page: written pages, batched); a webhook without `events` gets them all. */
export const WEBHOOK_EVENTS = ['started', 'page', 'completed', 'failed', 'cancelled'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

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

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;
const TEXT_TYPES = /^text\//i;

/** A body worth reading as text: HTML, any text/*, or untyped (it may be HTML). */
export function isTextualContentType(contentType: string | null): boolean {
  return contentType === null || HTML_TYPES.test(contentType) || TEXT_TYPES.test(contentType);
}

/** Served as HTML: an HTML media type, or no media type and a start that looks like HTML. */
export function isHtmlBody(contentType: string | null, text: string | null): boolean {
  if (contentType !== null) return HTML_TYPES.test(contentType);
  return text !== null && /^\s*(<!doctype html|<html|<head|<body)/i.test(text.slice(0, 512));
}

/**
 * What a crawl downloads beside HTML (the request's `documents`, docs/reference.md#documents): office documents
 * are hashed (a copy is a DUPLICATE) and their text read, scored and counted; `txt` parses text/plain pages as
 * text; `image` downloads images, linked as pages or shown by them (hashed, no text). doc and ppt are hashed only: no well-kept
 * library reads their text.
 */
export const DOCUMENT_FETCH_TYPES = ['pdf', 'doc', 'docx', 'ppt', 'pptx', 'odt', 'txt', 'image'] as const;
export type DocumentFetchType = (typeof DOCUMENT_FETCH_TYPES)[number];
/** Every type but images: they are recorded by type and size, not downloaded, unless asked for. */
export const DEFAULT_DOCUMENT_TYPES: readonly DocumentFetchType[] = DOCUMENT_FETCH_TYPES.filter(
  (type) => type !== 'image',
);

/** The request's `documents`: maxBytes caps a document's download (fetch.maxBytes when absent). */
export interface DocumentSettings {
  fetch: boolean;
  types: DocumentFetchType[];
  maxBytes: number;
}

/**
 * Whether a crawl downloads images: `image` among documents.types, documents fetched. Then the images its
 * pages show (`<img src>`) are fetched too, so copies among them are found (docs/reference.md#documents).
 */
export function fetchesImages(documents: DocumentSettings): boolean {
  return documents.fetch && documents.types.includes('image');
}

const PLAIN_TEXT_TYPE = /^text\/plain\b/i;

/** A text/plain body: with `txt` in documents.types it is read as text (words, score, no links). */
export function isPlainTextBody(contentType: string | null): boolean {
  return contentType !== null && PLAIN_TEXT_TYPE.test(contentType.trim());
}

/** How a crawl orders its frontier (docs/reference.md#strategies). */
export const CRAWL_STRATEGIES = ['bfs', 'best-first', 'topic'] as const;
/**
 * What a topic crawl's maxPages caps (docs/reference.md#topic-weights): `discovered`, the reference's reading
 * (its graph is the first maxPages pages discovered, the weights only order their fetching), or `fetched`
 * (pages fetched, as in every other strategy: discovery goes on, and the link weights choose what is fetched, a
 * waiting page at the best weight of the links to it found so far).
 */
export const TOPIC_CAPS = ['fetched', 'discovered'] as const;
export type TopicCap = (typeof TOPIC_CAPS)[number];
export type CrawlStrategy = (typeof CRAWL_STRATEGIES)[number];

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

/** How a crawl treats the hosts it fetches from (the request's `politeness`, flat in CrawlSettings). */
export interface PolitenessSettings {
  delayMs: number;
  maxCrawlDelayMs: number;
  perHostConcurrency: number;
  respectRobots: boolean;
  respectNofollow: boolean;
  /** Its product token picks the robots.txt group. */
  userAgent: string;
}

/** How each page is fetched (the request's `fetch`, flat in CrawlSettings). */
export interface FetchSettings {
  timeoutMs: number;
  maxBytes: number;
  retries: number;
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

/** never: the fetched HTML is parsed; always: every HTML page is rendered; auto: pages that look script-built. */
export const RENDER_MODES = ['never', 'always', 'auto'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];
/** What a rendered page's load waits for before its DOM is read. */
export const RENDER_WAITS = ['load', 'networkidle'] as const;
export type RenderWait = (typeof RENDER_WAITS)[number] | { selector: string };
/** Playwright's resource types a request may name in render.block. */
export const RENDER_BLOCKABLE = [
  'image',
  'media',
  'font',
  'stylesheet',
  'script',
  'xhr',
  'fetch',
  'eventsource',
  'manifest',
  'texttrack',
  'other',
] as const;
export type RenderBlockable = (typeof RENDER_BLOCKABLE)[number];

/** How a crawl renders its pages: the request's `render` with every default filled in. */
export interface RenderSettings {
  mode: RenderMode;
  waitUntil: RenderWait;
  /** The render's deadline (the page's time budget): its wait and every request it makes. */
  timeoutMs: number;
  block: RenderBlockable[];
  screenshot: boolean;
}

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
