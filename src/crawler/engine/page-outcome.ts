// Turning a fetch result into a page outcome: pure, apart from the runner's request bookkeeping (it frees
// the host's slot and learns whether an HTML body was seen before) and the HTML reading, which it does
// between readFetch and settleOutcome / htmlOutcome.
import { createHash } from 'node:crypto';
import { isHtmlBody } from '../crawl-request.js';
import type { FetchResult } from '../fetch/index.js';
import { documentTypeFor } from '../frontier/url-kind.js';
import type { DiscoveredUrl, PageOutcome, SkippedUrl } from './ports.js';

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
    htmlGzip: null,
    response: null,
    links: [],
    images: [],
    skipped: [],
    document: null,
  };
}

export function readFetch(result: FetchResult): FetchReading {
  const status = result.status ?? 0;
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
    isHtml: isHtmlBody(result.contentType, result.text),
    sha256: result.body ? createHash('sha256').update(result.body).digest('hex') : null,
    ok: !result.error && status >= 200 && status < 300,
  };
}

/**
 * The outcome of a request whose body is not read as a page: a refused redirect, a fault, a non-2xx
 * status, a binary document, or HTML already seen (`original`: the page holding the same body). Null: an
 * HTML page to read (htmlOutcome).
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
  if (!reading.isHtml) {
    const dataType = documentTypeFor(result.contentType, result.finalUrl);
    return {
      ...blankOutcome('BINARY', {}),
      ...base,
      sha256,
      document: dataType ? { dataType, contentType: result.contentType, bytes: base.bytes } : null,
    };
  }
  if (original !== null) {
    return { ...blankOutcome('DUPLICATE', { error: null }), ...base, sha256, duplicateOf: original };
  }
  return null;
}

/** An HTML page's outcome, from what was read of it. */
export function htmlOutcome(
  result: Pick<FetchResult, 'budgetCut' | 'bytes'>,
  reading: FetchReading,
  page: {
    title: string | null;
    score: number | null;
    links: DiscoveredUrl[];
    images: Array<{ url: string; alt: string }>;
    skipped: SkippedUrl[];
  },
  htmlGzip: Buffer | null,
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
    htmlGzip,
    links: page.links,
    images: page.images,
    skipped: page.skipped,
    score: page.score,
    relevant: page.score !== null && page.score >= threshold,
  };
}
