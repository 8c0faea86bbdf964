// Turning a fetch result into a page outcome: pure, apart from the runner's request bookkeeping (it frees
// the host's slot and learns whether a body was seen before) and the reading of HTML, text and documents,
// which it does between readFetch and settleOutcome / htmlOutcome / documentOutcome.
import { createHash } from 'node:crypto';
import type { FetchResult } from '../fetch/index.js';
import { documentFetchTypeFor, documentTypeFor } from '../frontier/url-kind.js';
import { type DocumentFetchType, isHtmlBody, isTextualContentType } from '../vocabulary.js';
import type { DiscoveredUrl, DocumentSettings, PageOutcome, SkippedUrl } from './ports.js';

/** Why a redirect stopped, when it did: the hop was refused by scope, robots.txt or deduplication. */
export interface RedirectRefusal {
  type: 'DISALLOWED' | 'DUPLICATE' | 'INVALID';
  reason: string;
  duplicateOf?: number;
}

/** What every outcome of a request carries, and what decides which outcome it is. */
export interface FetchReading {
  base: Pick<
    PageOutcome,
    | 'status'
    | 'contentType'
    | 'bytes'
    | 'truncated'
    | 'loadMs'
    | 'fetchedAt'
    | 'finalUrl'
    | 'redirects'
    | 'requested'
  >;
  isHtml: boolean;
  sha256: string | null;
  /** A 2xx answer without a fault. */
  ok: boolean;
  /**
   * How the body is read: `html` parsed, `text` (text/plain with `txt` asked for) read as words, `document`
   * a whole document of documents.types (hashed, its text read where a reader exists); null: recorded only.
   * Every body read is hashed, and a body seen before is a DUPLICATE.
   */
  read: 'html' | 'text' | 'document' | null;
  /** Why a document asked for is recorded without being read (too large, cut), else null. */
  unread: string | null;
}

/**
 * Whether the fetcher downloads a response's body: textual bodies always (HTML may come as any text type or
 * none), and documents of documents.types announced no larger than documents.maxBytes.
 */
export function bodyWanted(
  documents: DocumentSettings,
): (contentType: string | null, contentLength: number | null, url: string) => boolean {
  return (contentType, contentLength, url) => {
    if (isTextualContentType(contentType)) return true;
    return (
      wantedType(documents, contentType, url) !== null &&
      (contentLength === null || contentLength <= documents.maxBytes)
    );
  };
}

function wantedType(
  documents: DocumentSettings,
  contentType: string | null,
  url: string,
): DocumentFetchType | null {
  if (!documents.fetch) return null;
  const type = documentFetchTypeFor(contentType, url);
  return type !== null && documents.types.includes(type) ? type : null;
}

export function blankOutcome(
  type: PageOutcome['type'],
  fields: { error?: string | null; requested?: boolean },
): PageOutcome {
  return {
    score: null,
    relevant: false,
    type,
    status: null,
    contentType: null,
    bytes: null,
    truncated: false,
    sha256: null,
    loadMs: null,
    fetchedAt: new Date(),
    finalUrl: null,
    title: null,
    error: fields.error ?? null,
    redirects: null,
    duplicateOf: null,
    requested: fields.requested ?? true,
    body: null,
    response: null,
    links: [],
    images: [],
    queuedImages: [],
    skipped: [],
    document: null,
    text: null,
  };
}

export function readFetch(result: FetchResult, documents: DocumentSettings): FetchReading {
  const status = result.status ?? 0;
  const isHtml = isHtmlBody(result.contentType, result.text);
  const wanted = isHtml ? null : wantedType(documents, result.contentType, result.finalUrl);
  let read: FetchReading['read'] = isHtml ? 'html' : null;
  let unread: string | null = null;
  if (wanted === 'txt' && result.text !== null) read = 'text';
  else if (wanted !== null && wanted !== 'txt') {
    const size = result.body ? result.bytes : result.contentLength;
    if (size !== null && size > documents.maxBytes) {
      unread = `document of ${size} bytes, over documents.maxBytes (${documents.maxBytes}): not read`;
    } else if (result.budgetCut) {
      unread = `document cut at ${result.bytes} bytes: the worker's memory budget for bodies was full`;
    } else if (result.truncated) {
      unread = `document cut at ${result.bytes} bytes (fetch.maxBytes): not read`;
    } else if (result.body) read = 'document';
  }
  return {
    base: {
      status: result.status,
      contentType: result.contentType,
      bytes: result.body ? result.bytes : result.contentLength,
      truncated: result.truncated,
      loadMs: Math.round(result.loadMs),
      fetchedAt: new Date(),
      finalUrl: result.finalUrl,
      redirects: result.redirects.length
        ? result.redirects.map(({ url, status }) => ({ url, status }))
        : null,
      requested: true,
    },
    isHtml,
    sha256: result.body ? createHash('sha256').update(result.body).digest('hex') : null,
    ok: !result.error && status >= 200 && status < 300,
    read,
    unread,
  };
}

/**
 * The outcome of a request whose body is not read as a page: a refused redirect, a fault, a non-2xx
 * status, a binary document (BINARY; a `document` reading is then given its text by documentOutcome), or a
 * body already seen (`original`: the page holding the same body). Null: an HTML or text page to read
 * (htmlOutcome).
 */
export function settleOutcome(
  result: FetchResult,
  reading: FetchReading,
  refusal: RedirectRefusal | null,
  original: number | null,
): PageOutcome | null {
  const { base, sha256 } = reading;
  if (refusal) {
    return {
      ...blankOutcome(refusal.type, { error: refusal.reason }),
      ...base,
      duplicateOf: refusal.duplicateOf ?? null,
    };
  }
  if (result.error) {
    return {
      ...blankOutcome('INVALID', { error: `${result.error.code}: ${result.error.message}` }),
      ...base,
    };
  }
  const status = result.status ?? 0;
  if (status < 200 || status >= 300) {
    return {
      ...blankOutcome('INVALID', { error: status >= 400 ? null : `unexpected status ${status}` }),
      ...base,
    };
  }
  if (reading.read === null || reading.read === 'document') {
    const dataType = documentTypeFor(result.contentType, result.finalUrl);
    const document = dataType ? { dataType, contentType: result.contentType, bytes: base.bytes } : null;
    if (reading.read === 'document' && original !== null) {
      return { ...blankOutcome('DUPLICATE', {}), ...base, sha256, duplicateOf: original, document };
    }
    return { ...blankOutcome('BINARY', { error: reading.unread }), ...base, sha256, document };
  }
  if (original !== null) {
    return { ...blankOutcome('DUPLICATE', { error: null }), ...base, sha256, duplicateOf: original };
  }
  return null;
}

/** An HTML page's outcome, from what was read of it. */
/** What the crawl reads from an HTML page: its title, score, links to queue and images. */
export interface HtmlPageReading {
  title: string | null;
  score: number | null;
  links: DiscoveredUrl[];
  images: Array<{ url: string; alt: string }>;
  queuedImages: DiscoveredUrl[];
  skipped: SkippedUrl[];
}

export function htmlOutcome(
  result: Pick<FetchResult, 'budgetCut' | 'bytes'>,
  reading: FetchReading,
  page: HtmlPageReading,
  body: Buffer | null,
  threshold: number,
): PageOutcome {
  return {
    ...blankOutcome('HTML', {
      error: result.budgetCut
        ? `body cut at ${result.bytes} bytes: the worker's memory budget for bodies was full`
        : null,
    }),
    ...reading.base,
    sha256: reading.sha256,
    title: page.title,
    body,
    links: page.links,
    images: page.images,
    queuedImages: page.queuedImages,
    skipped: page.skipped,
    score: page.score,
    relevant: page.score !== null && page.score >= threshold,
  };
}

/**
 * A read document's outcome: its BINARY outcome with the text read from it (null: none could be read, `error`
 * says why when something went wrong) and that text's relevance score.
 */
export function documentOutcome(
  binary: PageOutcome,
  read: { text: string | null; error: string | null },
  score: number | null,
  threshold: number,
): PageOutcome {
  return {
    ...binary,
    text: read.text,
    error: read.error ?? binary.error,
    score,
    relevant: score !== null && score >= threshold,
  };
}
