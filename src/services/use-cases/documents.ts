// Documents named by URL in an API request (/v1/extract, /v1/score), fetched the way the crawl fetches a page:
// the crawler's Fetcher (SSRF guard per ALLOW_PRIVATE_NETWORKS, byte cap, charset decoding), robots.txt obeyed
// for the page and every redirect hop (RFC 9309), and parsed with the crawl's own parseHtml options.
// A document the service cannot get is the caller's problem, not ours: a 422 naming the request field.
import { DEFAULT_MAX_BODY_BYTES } from '../../crawler/crawl-request.js';
import type { DocumentTextReader } from '../../crawler/engine/ports.js';
import type { Fetcher, FetchResult } from '../../crawler/fetch/index.js';
import { canonicalizeUrl } from '../../crawler/frontier/canonicalize.js';
import { documentTypeFor } from '../../crawler/frontier/url-kind.js';
import { type ParsedPage, parseHtml } from '../../crawler/parse/parse-html.js';
import { fetchRobots, productToken, RobotsCache } from '../../crawler/robots/index.js';
import { isHtmlBody, isTextualContentType } from '../../crawler/vocabulary.js';
import { TrawlError } from '../../errors.js';

export interface DocumentFetcherOptions {
  fetcher: Pick<Fetcher, 'fetch'>;
  userAgent: string;
  /** Deadline of one document's fetch, redirects included. Default 30 s (the crawl's default). */
  timeoutMs?: number;
  /** Larger bodies are cut here and marked truncated. Default 10 MiB (the crawl's default). */
  maxBytes?: number;
  /** Documents fetched at the same time within one request. Default 8. */
  concurrency?: number;
  /** Reads the text of PDF, DOCX, PPTX and ODT documents (the document pool); without it they are refused. */
  documentText?: DocumentTextReader | null;
}

export interface FetchedDocument {
  url: string;
  finalUrl: string;
  contentType: string | null;
  /** The decoded body. */
  text: string;
  /** Served as HTML (or untyped and looking like it), as the crawl decides; else plain text. */
  isHtml: boolean;
  truncated: boolean;
  /** A document (PDF, DOCX, PPTX, ODT) whose text was read, as the crawl reads it; null for a page. */
  documentType: string | null;
}

type Outcome = { document: FetchedDocument } | { reason: string; detail: Record<string, unknown> };

/** HTML parsed exactly as the crawl engine parses a fetched page (pageUrl: the URL after redirects). */
export function parseAsCrawled(html: string, pageUrl: string, userAgent: string): ParsedPage {
  return parseHtml(html, pageUrl, {
    normalizeUrl: (absolute) => canonicalizeUrl(absolute),
    robotsToken: productToken(userAgent),
  });
}

/**
 * One request's documents: each URL fetched once however often it is named, robots.txt once per origin,
 * a bounded number of fetches in flight.
 */
export class DocumentSession {
  private readonly outcomes = new Map<string, Promise<Outcome>>();
  /** Lives as long as the session: one request's documents read one robots.txt per origin. */
  private readonly robots: RobotsCache;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly options: Required<DocumentFetcherOptions>) {
    this.robots = new RobotsCache({
      load: (robotsUrl, userAgent) =>
        fetchRobots(robotsUrl, options.fetcher, {
          userAgent: userAgent ?? options.userAgent,
          timeoutMs: options.timeoutMs,
        }),
    });
  }

  /** The document at `url`; a fault is a 422 TrawlError on `field` (e.g. `documents[2].url`). */
  async get(url: string, field: string): Promise<FetchedDocument> {
    let outcome = this.outcomes.get(url);
    if (!outcome) {
      outcome = this.limited(() => this.load(url));
      this.outcomes.set(url, outcome);
    }
    const result = await outcome;
    if ('document' in result) return result.document;
    throw new TrawlError('unprocessable', `${url}: ${result.reason}`, {
      field,
      detail: { url, ...result.detail },
    });
  }

  private async limited<T>(task: () => Promise<T>): Promise<T> {
    while (this.active >= this.options.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  /** null when robots.txt allows `url`, else why not. */
  private async refusal(url: string): Promise<string | null> {
    const robots = await this.robots.robotsFor(url, this.options.userAgent);
    if (robots.policy.isAllowed(url, this.options.userAgent)) return null;
    // RFC 9309 §2.3.1.4: an unreachable robots.txt (or a 5xx) means the whole site is disallowed.
    if (robots.error) return `disallowed: its robots.txt could not be fetched (${robots.error})`;
    if (robots.policy.kind === 'disallow-all')
      return `disallowed: its robots.txt answered HTTP ${robots.status}`;
    return 'disallowed by robots.txt';
  }

  private async load(url: string): Promise<Outcome> {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      return { reason: 'not an http(s) URL', detail: {} };
    }
    const disallowed = await this.refusal(url);
    if (disallowed !== null) return { reason: disallowed, detail: { robots: true } };
    let refused: string | null = null;
    const result: FetchResult = await this.options.fetcher.fetch(url, {
      userAgent: this.options.userAgent,
      timeoutMs: this.options.timeoutMs,
      maxBytes: this.options.maxBytes,
      // the crawl's own tests (vocabulary.ts), so a document is read as the crawl would read it
      acceptBody: (contentType, _length, answering) =>
        isTextualContentType(contentType) || this.readableType(contentType, answering) !== null,
      beforeRedirect: async (_from, to) => {
        const disallowed = await this.refusal(to);
        if (disallowed === null) return { follow: true };
        refused = `redirect to ${to}, ${disallowed}`;
        return { follow: false, reason: refused };
      },
    });
    if (refused !== null) return { reason: refused, detail: { robots: true, finalUrl: result.finalUrl } };
    if (result.error) {
      return {
        reason: `${result.error.code}: ${result.error.message}`,
        detail: { fetchError: result.error.code },
      };
    }
    const status = result.status ?? 0;
    if (status < 200 || status >= 300) {
      return { reason: `answered HTTP ${status}`, detail: { httpStatus: status } };
    }
    const documentType = result.text === null ? this.readableType(result.contentType, result.finalUrl) : null;
    if (documentType !== null && result.body) {
      if (result.truncated) {
        return {
          reason: `is a document larger than ${this.options.maxBytes} bytes`,
          detail: { truncated: true },
        };
      }
      const read = await this.options.documentText!.read(documentType, result.body, {
        maxChars: this.options.maxBytes,
      });
      if ('error' in read) return { reason: read.error, detail: { documentType } };
      return {
        document: {
          url,
          finalUrl: result.finalUrl,
          contentType: result.contentType,
          text: read.text,
          isHtml: false,
          truncated: read.truncated,
          documentType,
        },
      };
    }
    if (result.text === null) {
      return {
        reason: `is not HTML or text (${result.contentType ?? 'no content type'})`,
        detail: { contentType: result.contentType },
      };
    }
    const isHtml = isHtmlBody(result.contentType, result.text);
    return {
      document: {
        url,
        finalUrl: result.finalUrl,
        contentType: result.contentType,
        text: result.text,
        isHtml,
        truncated: result.truncated,
        documentType: null,
      },
    };
  }

  /** The data type of a document whose text can be read here, or null. */
  private readableType(contentType: string | null, url: string): string | null {
    const reader = this.options.documentText;
    const type = documentTypeFor(contentType, url);
    return reader && type !== null && reader.reads(type) ? type : null;
  }
}

/** Opens a DocumentSession per request over the API's Fetcher. */
export class DocumentFetcher {
  private readonly options: Required<DocumentFetcherOptions>;

  constructor(options: DocumentFetcherOptions) {
    this.options = {
      timeoutMs: 30_000,
      maxBytes: DEFAULT_MAX_BODY_BYTES,
      concurrency: 8,
      documentText: null,
      ...options,
    };
  }

  get userAgent(): string {
    return this.options.userAgent;
  }

  session(): DocumentSession {
    return new DocumentSession(this.options);
  }
}
