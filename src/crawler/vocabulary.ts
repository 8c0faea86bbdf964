// The crawl's vocabulary, declared once for the server, the CLI, the dashboard, the tests and the benches:
// page types, crawl statuses, webhook events, media-type tests and the names a crawl request chooses among.
// It imports nothing of the project, so any module (and the browser bundle) may import it.

/** What a page row is: fetched HTML, another body, a copy, a failure, a robots refusal, or not yet fetched. */
export const PAGE_TYPES = ['HTML', 'BINARY', 'DUPLICATE', 'INVALID', 'DISALLOWED', 'FRONTIER'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

/** What a recrawl found of a page against the earlier crawl (docs/reference.md#change-classes). */
export const CHANGE_CLASSES = ['new', 'changed', 'unchanged', 'gone'] as const;
export type ChangeClass = (typeof CHANGE_CLASSES)[number];

/** `purging`: its data is being removed (DELETE ?purge=true); the crawl is gone (404) once the last row is. */
export const CRAWL_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled', 'purging'] as const;
export type CrawlStatusName = (typeof CRAWL_STATUSES)[number];

/** The statuses of a crawl that will never fetch again (a purging crawl only loses what it stored). */
export const FINISHED_STATUSES: ReadonlySet<string> = new Set<CrawlStatusName>([
  'completed',
  'failed',
  'cancelled',
  'purging',
]);

export function isFinished(status: string): boolean {
  return FINISHED_STATUSES.has(status);
}

/**
 * What a webhook may be sent (page: written pages, batched; page.changed: a recrawl's new, changed and gone
 * pages, batched; purged: the crawl's data is gone, the last event it sends); a webhook without `events` gets
 * them all.
 */
export const WEBHOOK_EVENTS = [
  'started',
  'page',
  'page.changed',
  'completed',
  'failed',
  'cancelled',
  'purged',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;
const TEXT_TYPES = /^text\//i;

/** A body worth reading as text: HTML, any text/*, or untyped (it may be HTML). */
export function isTextualContentType(contentType: string | null): boolean {
  return contentType === null || HTML_TYPES.test(contentType) || TEXT_TYPES.test(contentType);
}

/** An HTML media type (text/html, application/xhtml+xml), whatever its parameters. */
export function isHtmlMediaType(contentType: string): boolean {
  return HTML_TYPES.test(contentType.trimStart());
}

/** Served as HTML: an HTML media type, or no media type and a start that looks like HTML. */
export function isHtmlBody(contentType: string | null, text: string | null): boolean {
  if (contentType !== null) return HTML_TYPES.test(contentType);
  return text !== null && /^\s*(<!doctype html|<html|<head|<body)/i.test(text.slice(0, 512));
}

const PLAIN_TEXT_TYPE = /^text\/plain\b/i;

/** A text/plain body: with `txt` in documents.types it is read as text (words, score, no links). */
export function isPlainTextBody(contentType: string | null): boolean {
  return contentType !== null && PLAIN_TEXT_TYPE.test(contentType.trim());
}

/**
 * What a crawl downloads beside HTML (the request's `documents`, docs/reference.md#documents): office documents
 * are hashed (a copy is a DUPLICATE) and their text read, scored and counted; `txt` parses text/plain pages as
 * text; `image` downloads images, linked as pages or shown by them (hashed, no text). doc and ppt are hashed only: no well-kept
 * library reads their text.
 */
export const DOCUMENT_FETCH_TYPES = ['pdf', 'doc', 'docx', 'ppt', 'pptx', 'odt', 'txt', 'image'] as const;
export type DocumentFetchType = (typeof DOCUMENT_FETCH_TYPES)[number];

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
