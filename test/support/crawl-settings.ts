// The crawl settings the engine's unit tests start from: one site (http://site.test), robots obeyed, nothing
// stored, no retries; a test overrides what it is about.
import { randomUUID } from 'node:crypto';
import { DEFAULT_DOCUMENT_TYPES } from '../../src/crawler/crawl-request.js';
import type { CrawlSettings } from '../../src/crawler/engine/ports.js';

export const TEST_ORIGIN = 'http://site.test';

export function testCrawlSettings(overrides: Partial<CrawlSettings> = {}): CrawlSettings {
  return {
    crawlId: randomUUID(),
    seeds: [`${TEST_ORIGIN}/`],
    maxPages: 100,
    maxDepth: null,
    scope: {},
    delayMs: 0,
    maxCrawlDelayMs: 10_000,
    perHostConcurrency: 1,
    respectRobots: true,
    respectNofollow: true,
    userAgent: 'trawl-test/1.0',
    concurrency: 4,
    timeoutMs: 5000,
    maxBytes: 1024 * 1024,
    retries: 0,
    storeHtml: false,
    mainText: null,
    storeHeaders: false,
    storeEveryBody: false,
    sitemaps: false,
    strategy: 'bfs',
    relevance: null,
    maxResults: null,
    ignoreInternal: false,
    topics: [],
    topicOptions: { mainTextStartsAtFirstParagraph: false, skipLinksWithHashOrColon: false },
    maxDiscovered: null,
    raiseOnRediscovery: false,
    inheritPriority: false,
    documents: { fetch: true, types: [...DEFAULT_DOCUMENT_TYPES], maxBytes: 1024 * 1024 },
    ...overrides,
  };
}
