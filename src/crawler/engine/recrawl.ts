// A recrawl's pure parts (docs/reference.md#change-classes): the conditional request made of a page the
// earlier crawl fetched (RFC 9110 §13: If-None-Match from its ETag, If-Modified-Since from its Last-Modified),
// the outcome of a 304 Not Modified (no body of its own: it points at the earlier one), and the change class of
// every page the recrawl records.
import { canonicalizeUrl } from '../frontier/canonicalize.js';
import type { ParsedLink, ParsedPage } from '../parse/parse-html.js';
import { textPage } from '../parse/text-page.js';
import type { ChangeClass } from '../vocabulary.js';
import { blankOutcome } from './page-outcome.js';
import type { PageOutcome } from './ports.js';

/**
 * The frontier priority of a recrawl's seeds and revisits: above any link's weight (weights lie in [0, 1]), so
 * the earlier crawl's pages are fetched before what the recrawl discovers, in the earlier crawl's order (the
 * frontier's tie-break is the id, and they are queued in that order).
 */
export const REVISIT_PRIORITY = 2;

/** The earlier crawl's page of a URL the recrawl revisits, as the store reads it back. */
export interface PreviousVisit {
  pageId: number;
  type: string;
  url: string;
  finalUrl: string | null;
  sha256: string | null;
  contentType: string | null;
  title: string | null;
  /** Its response's validators, when the earlier crawl kept its headers (store.html or store.warc). */
  etag: string | null;
  lastModified: string | null;
  /** The links it recorded (its page_links row), which a 304 answer takes as its own. */
  links: PreviousLink[];
}

/** A link the earlier crawl recorded for a page: its target's canonical URL and the anchor kept for it. */
export interface PreviousLink {
  url: string;
  anchor: string;
}

/**
 * A page answered 304 as link selection reads it: no text, the links its earlier visit recorded. Those are the
 * links that earlier selection kept (in scope then, followed), so they pass through the same selection again
 * under this crawl's scope, and are queued as a fetched page's links are: discovery goes on through pages that
 * did not change, and the recrawl's link graph holds their out-links.
 */
export function previousLinksPage(links: readonly PreviousLink[]): ParsedPage {
  return {
    ...textPage(''),
    links: links.map(
      (link): ParsedLink => ({
        url: link.url,
        href: link.url,
        anchorText: link.anchor,
        rel: [],
        nofollow: false,
        wordPosition: 0,
        anchorWordCount: 0,
        inMainText: true,
      }),
    ),
  };
}

/** The headers that make a revisit conditional; none when the earlier response gave no validator. */
export function conditionalHeaders(previous: PreviousVisit): Record<string, string> {
  const headers: Record<string, string> = {};
  if (previous.etag) headers['if-none-match'] = previous.etag;
  if (previous.lastModified) headers['if-modified-since'] = previous.lastModified;
  return headers;
}

/**
 * The outcome of a 304 to a conditional revisit: the earlier page's record (its type, hash, content type and
 * title) with this request's status and timing, and no body: the store points the page at the earlier body.
 * Its links are the earlier page's (previousLinksPage), selected by the runner.
 */
export function notModifiedOutcome(
  request: Pick<PageOutcome, 'status' | 'loadMs' | 'fetchedAt' | 'finalUrl' | 'redirects'>,
  previous: PreviousVisit,
): PageOutcome {
  return {
    ...blankOutcome(previous.type === 'BINARY' ? 'BINARY' : 'HTML', { error: null }),
    ...request,
    status: 304,
    bytes: 0,
    sha256: previous.sha256,
    contentType: previous.contentType,
    title: previous.title,
  };
}

/**
 * A recrawled page's change class. `new`: the earlier crawl never fetched it. `unchanged`: 304, or the same
 * body (SHA-256). `changed`: another body. `gone`: fetched before, now 404 or 410, another error status, a fault
 * (unreachable), a redirect not followed (refused by scope, robots.txt or as a page already in the crawl), or
 * a redirect to another URL than the earlier fetch ended at. Null: not requested (robots.txt now disallows
 * it), which the missing listing shows.
 */
export function changeOf(
  outcome: Pick<PageOutcome, 'type' | 'status' | 'sha256' | 'finalUrl' | 'requested'>,
  previous: PreviousVisit | null,
): ChangeClass | null {
  if (outcome.type === 'DISALLOWED' || !outcome.requested) return null;
  if (previous === null) return 'new';
  if (outcome.status === 304) return 'unchanged';
  if (outcome.status === null || outcome.status < 200 || outcome.status >= 300) return 'gone';
  if (outcome.type === 'INVALID') return 'gone';
  const before = canonicalizeUrl(previous.finalUrl ?? previous.url);
  const now = outcome.finalUrl === null ? null : canonicalizeUrl(outcome.finalUrl);
  if (now !== null && before !== null && now !== before) return 'gone';
  return outcome.sha256 !== null && outcome.sha256 === previous.sha256 ? 'unchanged' : 'changed';
}
