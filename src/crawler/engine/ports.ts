// The crawl engine's ports: what it needs from storage, described in domain terms. db/crawl-store.ts
// implements them on PostgreSQL; nothing here knows SQL, HTTP frameworks or queues.

import type { ExtractionMethod } from '../extract/index.js';
import type { PageReading } from '../extract/page-reading.js';
import type { TextComparison } from '../text/simhash.js';
import type { TextSettings } from '../text/word-model.js';
import type {
  ChangeClass,
  CrawlStrategy,
  DocumentFetchType,
  PageType,
  RenderBlockable,
  RenderMode,
  RenderWait,
} from '../vocabulary.js';
import type { CrawlProblem, SeedReport } from './crawl-outcome.js';
import type { PreviousVisit } from './recrawl.js';

export type { PageType };

/** The request's `documents`: maxBytes caps a document's download (fetch.maxBytes when absent). */
export interface DocumentSettings {
  fetch: boolean;
  types: DocumentFetchType[];
  maxBytes: number;
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

/** How a crawl renders its pages: the request's `render` with every default filled in. */
export interface RenderSettings {
  mode: RenderMode;
  waitUntil: RenderWait;
  /** The render's deadline (the page's time budget): its wait and every request it makes. */
  timeoutMs: number;
  block: RenderBlockable[];
  screenshot: boolean;
}

export interface CrawlSettings extends PolitenessSettings, FetchSettings {
  crawlId: string;
  seeds: string[];
  /**
   * The earlier crawl this one revisits: each page it fetched is asked for conditionally and every page gets a
   * change class (engine/recrawl.ts). Null: a crawl from its seeds alone.
   */
  recrawlOf?: string | null;
  maxPages: number;
  maxDepth: number | null;
  scope: { allowedDomains?: string[]; sameHost?: boolean; include?: string[]; exclude?: string[] };
  concurrency: number;
  storeHtml: boolean;
  /**
   * How each stored HTML page's main text is read as the page is fetched, from the same decoded text its
   * links come from (extract.enabled with store.html; null: not read, as when the crawl keeps no bodies).
   */
  mainText: ExtractionMethod | null;
  /** Keep each response's headers (a WARC export's header blocks). */
  storeHeaders: boolean;
  /** Keep every body read, not only HTML pages' (store.warc): 404 pages, text files. */
  storeEveryBody: boolean;
  sitemaps: boolean;
  /** bfs: all links weigh the same; best-first: a link weighs its page's score; topic: docs/reference.md#topic-weights. */
  strategy: CrawlStrategy;
  /** How pages are scored (any strategy; best-first needs it). A page at or above threshold is relevant. */
  relevance: {
    query?: string;
    similarTo?: { urls: string[]; documents: Array<{ text?: string; html?: string; url?: string }> };
    corpusId?: string;
    threshold: number;
    /** TF-IDF's stop words and stemming (the similarity set, the corpus and every page alike); default when absent */
    text?: TextSettings;
  } | null;
  /** Stop once this many relevant pages were found. */
  maxResults: number | null;
  /** Drop links to the host of the page they were found on. */
  ignoreInternal: boolean;
  topics: string[];
  topicOptions: { mainTextStartsAtFirstParagraph: boolean; skipLinksWithHashOrColon: boolean };
  /** Pages the crawl may discover at most (the topic crawl's graph: its first maxPages pages). */
  maxDiscovered: number | null;
  /**
   * A link to a URL still waiting in the frontier raises its priority when it weighs more, so a queued page
   * carries the best weight any fetched page gave it (the topic crawl capped by pages fetched); otherwise the
   * first weight stays (docs/reference.md#weighted-queue).
   */
  raiseOnRediscovery: boolean;
  /**
   * A topic link's priority is the mean of its weight and the priority of the page holding it (a seed's: 1),
   * so the path to a page counts beside the words around its link (the topic crawl capped by pages fetched);
   * otherwise a link's priority is its weight (docs/reference.md#topic-weights).
   */
  inheritPriority: boolean;
  /** Which documents are downloaded, hashed and read (the request's `documents`). */
  documents: DocumentSettings;
  /** Rendering in headless Chromium; absent: never. */
  render?: RenderSettings;
}

/** A frontier URL leased to this worker together with one politeness slot of its host. */
export interface ClaimedPage {
  id: number;
  url: string;
  depth: number;
  /** Its frontier weight when claimed (docs/reference.md#weighted-queue). */
  priority: number;
  siteId: number;
  origin: string;
  slot: number;
  queuedAt: Date;
  attempts: number;
  /** Its last lease ran out (the worker holding it died): it is processed alone, nothing else in flight. */
  suspect: boolean;
  /** Leases on it that ran out, this one included. */
  leaseExpiries: number;
}

export interface ClaimResult {
  crawlStatus: string;
  pages: ClaimedPage[];
  /** Nothing queued or in flight anywhere, or the page budget is spent and nothing is in flight. */
  finished: boolean;
  /** When nothing could be claimed: how long until a host slot frees up (politeness), if known. */
  retryInMs: number | null;
}

export interface StoredRobots {
  status: number | null;
  body: string | null;
  error: string | null;
  fetchedAt: Date;
}

export interface DiscoveredUrl {
  url: string;
  origin: string;
  depth: number;
  priority: number;
  anchor: string;
  /** This runner queued the URL before: record the link, skip the insert into the frontier. */
  known?: boolean;
  /** robots.txt already forbids it (the reason): it enters the crawl as DISALLOWED, never queued. */
  disallowed?: string | null;
}

export interface PageOutcome {
  type: Exclude<PageType, 'FRONTIER'>;
  status: number | null;
  contentType: string | null;
  bytes: number | null;
  truncated: boolean;
  sha256: string | null;
  loadMs: number | null;
  fetchedAt: Date;
  finalUrl: string | null;
  title: string | null;
  error: string | null;
  redirects: Array<{ url: string; status: number }> | null;
  duplicateOf: number | null;
  /** Counted against maxPages: false for pages never requested (robots.txt said no). */
  requested: boolean;
  /** Relevance in [0, 1] when the crawl scores pages; `relevant` when at or above its threshold. */
  score: number | null;
  relevant: boolean;
  /**
   * The HTML body as read (Content-Encoding undone), kept when the crawl stores HTML: raw bytes, which the
   * store compresses (PostgreSQL does, on the server). Null: not stored.
   */
  body: Buffer | null;
  /** The response as a WARC export writes it, when the crawl keeps it (storeHeaders); null without one. */
  response: StoredResponse | null;
  /** Links to record (and queue when new), in document order, one per target. */
  links: DiscoveredUrl[];
  images: Array<{ url: string; alt: string }>;
  /**
   * The images it shows that the crawl fetches (documents.types has `image`): queued like links, to be fetched,
   * hashed and deduplicated as any page, but never recorded as links (no outlink, no PageRank edge).
   */
  queuedImages: DiscoveredUrl[];
  /** Links and images the crawl cannot keep (their URL is too long), each with the reason. */
  skipped: SkippedUrl[];
  document: { dataType: string; contentType: string | null; bytes: number | null } | null;
  /**
   * The page's main text, stored for the word statistics, corpora and ?include=text: a document's (BINARY)
   * text as read, an HTML or text page's as the crawl read it (settings.mainText). Null: not read (unread
   * documents; HTML pages whose text the text job reads from the stored body).
   */
  text: string | null;
  /** How an HTML page of a crawl that renders was read (absent: the crawl never renders). */
  render?: PageRenderRecord;
}

/** A response's headers as received (names lower-case), and its body when it is not the HTML body above. */
export interface StoredResponse {
  headers: Array<[string, string]>;
  /** The body as read (Content-Encoding undone), raw; null: the HTML body (PageOutcome.body) or none kept. */
  body: Buffer | null;
}

/** Whether an HTML page was rendered, why, and what it cost (docs/reference.md#rendering). */
export interface PageRenderRecord {
  rendered: boolean;
  /** always, auto:<rule>, or why it was not rendered (auto:static, render-failed) */
  reason: string;
  /** The main document's fetch (loadMs = fetchMs + renderMs). */
  fetchMs: number;
  renderMs: number | null;
  /** The page navigated itself away: the URL it left (finalUrl is where it ended). */
  navigatedFrom: string | null;
  /** What the render ran into: a timeout, requests the crawl's rules refused. */
  note: string | null;
  /** The rendered page's PNG (render.screenshot), at most 1280×2000. */
  screenshot: Buffer | null;
}

/** A link or image of a page that is neither crawled nor recorded as such; `url` is its first few hundred bytes. */
export interface SkippedUrl {
  kind: 'link' | 'image';
  url: string;
  reason: string;
}

/** A discovered URL recorded straight away as a DISALLOWED page. */
export interface RecordedDisallowed {
  id: number;
  url: string;
  error: string;
}

/** How new hosts and pages enter the frontier: politeness slots per new host, and the discovery cap. */
export interface FrontierLimits {
  slots: number;
  maxDiscovered: number | null;
  /** CrawlSettings.raiseOnRediscovery; absent: the first weight stays. */
  raiseOnRediscovery?: boolean;
}

/** Why a crawl ended as it did: the problem that failed every seed, or warnings on one that fetched nothing. */
export interface CrawlEndNotes {
  problem: CrawlProblem | null;
  warnings: string[];
}

export interface CrawlStore {
  /**
   * Leases up to `max` frontier pages. `checkFinished` also asks whether the crawl has run out of work
   * (a costlier question, only worth asking when the caller has nothing in flight).
   */
  claim(
    crawlId: string,
    workerId: string,
    max: number,
    leaseSecs: number,
    checkFinished?: boolean,
  ): Promise<ClaimResult>;
  /** Extends this worker's leases on pages it still processes, so they are not taken for a dead worker's. */
  renewLeases(crawlId: string, workerId: string, pageIds: number[], leaseSecs: number): Promise<void>;
  loadRobots(siteId: number): Promise<StoredRobots | null>;
  saveRobots(
    siteId: number,
    robots: StoredRobots,
    crawlDelayMs: number | null,
    sitemaps: string[],
  ): Promise<void>;
  /** The site row of an origin in this crawl, created (with its politeness slots) when new. */
  ensureSites(crawlId: string, origins: string[], slots: number): Promise<Map<string, number>>;
  /**
   * Before following a redirect from `fromPageId` to `canonicalUrl`: claims that URL for this fetch, so it is
   * never fetched again. Returns the id of an existing page when the URL was already fetched or in flight.
   */
  reserveRedirectTarget(
    crawlId: string,
    fromPageId: number,
    target: { url: string; origin: string; depth: number },
    slots: number,
  ): Promise<{ reserved: true } | { reserved: false; existingPageId: number }>;
  /**
   * Leases a free politeness slot of a site (a redirect hop to that host), or says how long until one of its
   * unleased slots' delay has passed (null: all are leased, ask again soon).
   */
  leaseHostSlot(
    siteId: number,
    workerId: string,
    leaseSecs: number,
  ): Promise<{ slot: number } | { slot: null; retryInMs: number | null }>;
  /** Frees a politeness slot mid-fetch (the redirect goes on to another host): usable again after `delayMs`. */
  releaseHostSlot(siteId: number, slot: number, delayMs: number): Promise<void>;
  /**
   * A request is over: frees the page's politeness slot until `nextFetchDelayMs` from now and, for an HTML
   * body, registers its hash. Returns the earlier page with the same body, when there is one.
   */
  requestDone(
    crawlId: string,
    page: ClaimedPage,
    nextFetchDelayMs: number,
    sha256: string | null,
  ): Promise<number | null>;
  /**
   * Records a page's outcome, queues and records its links, and ends its lease. Returns the links that
   * entered the crawl as DISALLOWED pages (robots.txt already said no), so they can be reported too.
   */
  completePage(
    crawlId: string,
    page: ClaimedPage,
    outcome: PageOutcome,
    frontier: FrontierLimits,
  ): Promise<RecordedDisallowed[]>;
  /** A recrawl's page: the earlier crawl's page of its URL, or null when the earlier crawl never fetched it. */
  previousVisit(crawlId: string, pageId: number): Promise<PreviousVisit | null>;
  /**
   * A recrawl's page: the main text stored for the earlier crawl's page of its URL (for an earlier 304, the
   * page holding its body), or null when none is stored (not read yet, or a page without text).
   */
  earlierMainText(crawlId: string, pageId: number): Promise<string | null>;
  /**
   * A recrawl's page was recorded: its change class (null: not reached), with `notModified` (a 304) the
   * earlier page whose body it is, since it stores none of its own, and with `text` how a changed page's main
   * text compares with the earlier one, when both were at hand as it was recorded.
   */
  recordChange(crawlId: string, pageId: number, change: ChangeRecord): Promise<void>;
  /** Gives a leased page back to the frontier untouched (shutdown, cancellation); its slot is freed apart. */
  releasePage(crawlId: string, workerId: string, page: ClaimedPage): Promise<void>;
  /** Gives back every page and politeness slot `workerId` still leases in the crawl (a runner shutting down). */
  releaseLeases(crawlId: string, workerId: string): Promise<void>;
  enqueue(
    crawlId: string,
    fromPageId: number | null,
    urls: DiscoveredUrl[],
    frontier: FrontierLimits,
  ): Promise<RecordedDisallowed[]>;
  /** queued → running; called again every few seconds as the runner's heartbeat. */
  markRunning(crawlId: string): Promise<void>;
  /**
   * Ends a queued or running crawl (later calls change nothing); `notes` say why a crawl failed for each seed,
   * or why one that completed fetched nothing.
   */
  finishCrawl(
    crawlId: string,
    status: 'completed' | 'failed',
    error: string | null,
    notes?: CrawlEndNotes,
  ): Promise<void>;
  /** The pages of `seedUrls` (canonical) as they stand, and whether any page of the crawl got a response. */
  seedReport(crawlId: string, seedUrls: string[]): Promise<SeedReport>;
}

/**
 * Reads the text of a downloaded document off the event loop, within limits (time, memory, uncompressed
 * size): services/pools/document-pool.ts runs it in reader processes.
 */
export interface DocumentTextReader {
  /** Whether documents of this data type (PDF, DOCX, …) have a reader: DOC and PPT have none. */
  reads(dataType: string): boolean;
  /** The document's text, at most maxChars of it; `error` when it cannot be read (broken, hostile, too costly). */
  read(
    dataType: string,
    body: Buffer,
    limits: { maxChars: number; signal?: AbortSignal },
  ): Promise<{ text: string; truncated: boolean } | { error: string }>;
}

/**
 * Reads a stored HTML page where the crawl's event loop is not held, in one walk over its decoded text: what
 * parseHtml gives (links, title, words) and its main text by `method` (docs/reference.md#content-extraction-by-text-density).
 * Null when it could not be read there (a page too costly for the reader's deadline, a reader shutting down):
 * the crawl parses the page itself, and the text job reads its main text from the stored body later.
 */
export interface HtmlPageReader {
  read(
    html: string,
    pageUrl: string,
    options: { method: ExtractionMethod; robotsToken: string; words: boolean },
  ): Promise<PageReading | null>;
}

/** A recrawl page's change as the engine records it (CrawlStore.recordChange). */
export interface ChangeRecord {
  change: ChangeClass | null;
  notModified: boolean;
  text?: TextComparison | null;
}

/**
 * Compares a recrawl's changed page's main text with the earlier one (docs/reference.md#change-classes) where
 * the crawl's event loop is not held: two long texts take milliseconds to tokenize and hash. Null when it could
 * not (past its deadline, shutting down): the text job compares the stored texts later.
 */
export interface TextComparer {
  compare(before: string, after: string): Promise<TextComparison | null>;
}

/** What the engine tells the outside world as it goes (metrics, live progress, webhooks); all optional. */
export interface CrawlEventSink {
  /** A page's outcome was written. */
  pageRecorded(event: {
    crawlId: string;
    pageId: number;
    url: string;
    type: PageOutcome['type'];
    status: number | null;
    loadMs: number | null;
    bytes: number | null;
    score: number | null;
    /** Milliseconds between queueing and fetching. */
    queueWaitMs: number;
    fetchedAt: Date;
    /** A recrawl's page: its change class (engine/recrawl.ts); absent otherwise. */
    change?: ChangeClass | null;
    /** A recrawl's changed page: how its main text compares with the earlier one, when compared as recorded. */
    text?: TextComparison;
  }): void;
  /** This runner saw the crawl end (it may be one of several runners that see it). */
  crawlEnded(event: {
    crawlId: string;
    status: 'completed' | 'failed' | 'cancelled';
    error: string | null;
  }): void;
  /** robots.txt of an origin was fetched (status null: unreachable). */
  robotsFetched?(event: { crawlId: string; origin: string; status: number | null }): void;
}
