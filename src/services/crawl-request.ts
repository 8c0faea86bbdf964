// A crawl request as the API takes it (schemas/crawls.ts) turned into the domain's NormalizedCrawlRequest
// (crawler/crawl-request.ts): defaults filled in once, the checks a schema cannot express, and the one reader
// of a stored request. The service-side half of the crawl request; the domain half turns it into CrawlSettings.
import {
  CRAWL_REQUEST_DEFAULTS as DEFAULTS,
  type NormalizedCrawlRequest,
  normalizeRender,
  normalizeWebhook,
} from '../crawler/crawl-request.js';
import { DEFAULT_EXTRACTION_METHOD } from '../crawler/extract/index.js';
import { parseKeywordQuery } from '../crawler/score/keyword-query.js';
import { rejectTextSettingsWithQuery } from '../crawler/text/word-model.js';
import type { CrawlStrategy, DocumentFetchType, TopicCap } from '../crawler/vocabulary.js';
import { InputError } from '../errors.js';
import type { CrawlRequest } from '../schemas/crawls.js';

/**
 * The request with every default filled in: what the crawl really runs with, stored and shown back. The one
 * place defaults are applied (app.ts leaves bodies as sent); the values come from CRAWL_REQUEST_DEFAULTS,
 * which the schema shows as its `default`s.
 */
export function normalizeCrawlRequest(
  request: CrawlRequest,
  defaultUserAgent: string,
): NormalizedCrawlRequest {
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
    webhook: request.webhook ? normalizeWebhook(request.webhook) : null,
    render: normalizeRender(request.render),
  };
}

/**
 * A crawl's stored request (crawls.request, written by normalizeCrawlRequest) read back: the one reader, so
 * a row stored before a field existed gets that field's default rather than undefined. Normalizing a
 * normalized request changes nothing.
 */
export function storedCrawlRequest(stored: Record<string, unknown>): NormalizedCrawlRequest {
  const request = stored as unknown as CrawlRequest;
  return normalizeCrawlRequest(request, request.politeness?.userAgent ?? '');
}

/** The checks a schema cannot express; each names its field. */
export function validateFocus(request: NormalizedCrawlRequest): void {
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
