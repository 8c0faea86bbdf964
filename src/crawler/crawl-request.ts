// The crawl's vocabulary, declared once: page types, crawl statuses, webhook events, the body cap and the
// defaults of a crawl request. The API schemas (schemas/crawls.ts) derive their enums and `default`s from
// here, the services fill a request from here, and the engine tests media types here.

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

/** A crawl's webhook as stored with its request (normalizeWebhook in services/webhooks.ts fills it). */
export interface WebhookConfig {
  url: string;
  events: WebhookEvent[];
  headers: Record<string, string>;
  secret: string | null;
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

/** How a crawl orders its frontier (docs/reference.md#strategies). */
export const CRAWL_STRATEGIES = ['bfs', 'best-first', 'topic'] as const;
export type CrawlStrategy = (typeof CRAWL_STRATEGIES)[number];

/**
 * The defaults of a crawl request (POST /v1/crawls): the schema shows them as `default`s and
 * normalizeCrawlRequest (services/crawls.ts) fills them in, so the two cannot drift apart.
 */
export const CRAWL_REQUEST_DEFAULTS = {
  strategy: 'bfs' as CrawlStrategy,
  relevanceThreshold: 0.5,
  ignoreInternal: false,
  topic: { mainTextStartsAtFirstParagraph: true, skipLinksWithHashOrColon: true },
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
  store: { html: true },
  extract: { enabled: true },
} as const;
