// The public shapes of trawl's test web: options, the running server, its request log and the ground truth a
// correct crawl must reproduce. Kept apart from the code so tests and benchmarks can import types only.

/** Each feature is one generator module under features/; all are on unless switched off. */
export type Feature =
  | 'robots'
  | 'sitemaps'
  | 'redirects'
  | 'errors'
  | 'duplicates'
  | 'binaries'
  | 'bigBinary'
  | 'documents'
  | 'charsets'
  | 'malformed'
  | 'slow'
  | 'oversize'
  | 'trap'
  | 'canonicalization'
  | 'nofollow'
  | 'hostile'
  | 'images'
  /** Pages built by JavaScript (rendering); off unless asked for, unlike every other feature. */
  | 'scripted';

export const ALL_FEATURES: readonly Feature[] = [
  'robots',
  'sitemaps',
  'redirects',
  'errors',
  'duplicates',
  'binaries',
  'bigBinary',
  'documents',
  'charsets',
  'malformed',
  'slow',
  'oversize',
  'trap',
  'canonicalization',
  'nofollow',
  'hostile',
  'images',
];

export interface TestWebOptions {
  seed?: number;
  /** Loopback hosts 127.0.0.2 … ; default 5: one per robots.txt variant (see features/robots.ts). */
  hosts?: number;
  /** Plain pages per host, home page included; default 40. */
  pagesPerHost?: number;
  features?: Partial<Record<Feature, boolean>>;
  /** Delay of /slow/page.html before its headers; default 1500. */
  slowPageDelayMs?: number;
  /** Links on a plain page (tree children plus links to pages already discovered); default 8. */
  linksPerPage?: number;
  /**
   * `plain` (default): small pages, links first, a few paragraphs. `realistic` (benchmarks only): pages of
   * 30–120 KB with 50–150 links as real sites have them — a menu and a footer repeated on every page of a
   * host, a related-pages box, inline scripts and styles, long articles with headings and lists. The extra
   * links point only to pages that exist, so what is reachable does not change (link depths do).
   */
  profile?: 'plain' | 'realistic';
  /**
   * Conditional requests to pages: `honour` (pages carry ETag and Last-Modified, and a request whose
   * If-None-Match or If-Modified-Since matches gets 304 Not Modified), `ignore` (the validators are sent but
   * every request gets the page: a server that ignores conditional headers) or `none` (no validators). Default
   * `honour` with the realistic profile, else `none`.
   */
  conditional?: ConditionalRequests;
  /** Every answer waits this long after the request arrives, as over a real network (benchmarks); default 0. */
  latencyMs?: number;
  /**
   * The addresses the hosts listen on, one per host (default 127.0.0.2 …): a benchmark that crawls from other
   * network namespaces serves the web on addresses they can reach.
   */
  addresses?: string[];
  /** Body size of /big/page.html; default 1 MiB (pass > 10 MiB to exceed the crawler's default cap). */
  oversizePageBytes?: number;
  /** Size of /files/big.pdf; default 5 MiB. */
  bigBinaryBytes?: number;
  /** Crawl-delay written in the `trawl` group of the agent-groups host; default 1 (seconds). */
  crawlDelaySeconds?: number;
  /** Port shared by all hosts; default 0 (an ephemeral one). With 80 the default-port links use ":80". */
  port?: number;
}

export type ConditionalRequests = 'honour' | 'ignore' | 'none';

export interface RequestLogEntry {
  /** Origin + the request target exactly as received. */
  url: string;
  method: string;
  status: number;
  /** Date.now() when the request arrived. */
  at: number;
  /** The origin (address and port) the request arrived on. */
  host: string;
  /** Body bytes written (0 for HEAD). */
  bytes: number;
  /** False when the client went away before the whole body was written. */
  completed: boolean;
  /** The client's address. */
  from: string;
}

export type ExpectedType = 'HTML' | 'BINARY' | 'DUPLICATE' | 'INVALID' | 'DISALLOWED';

export interface ExpectedPage {
  /** Status of the final response; null when there was none (disallowed, loop, too many redirects). */
  status: number | null;
  type: ExpectedType;
  /** Canonical URL where the redirect chain ended (the last hop, even when it was not requested). */
  redirectsTo?: string;
  /** Content type of the final response, when there was one. */
  contentType?: string;
  /** Words that the decoded text must contain (the charset pages). */
  words?: string[];
}

export interface GroundTruthOptions {
  maxDepth: number | null;
  maxPages?: number;
  respectRobots?: boolean;
  /** Read the sitemaps named in robots.txt of each host reached; default true. */
  sitemaps?: boolean;
  /** Honour rel=nofollow links and <meta name=robots content=nofollow>; default true. */
  honourNofollow?: boolean;
  /** Product token matched against robots.txt User-agent lines; default 'trawl'. */
  userAgent?: string;
  /** Redirects followed in one fetch; default 5 (a 6th is too many). */
  maxRedirects?: number;
  /** Body cap of the crawler; default 10 MiB. */
  maxBodyBytes?: number;
  /** What the crawler does with an HTML body over the cap: keep the first maxBodyBytes (default) or reject. */
  oversize?: 'truncate' | 'reject';
  /** Links whose canonical URL is longer are not followed; default 2048 (trawl's cap). */
  maxUrlBytes?: number;
}

export interface GroundTruth {
  /**
   * Every URL a correct crawl requests (page URLs and redirect hops; not robots.txt or sitemaps). Exact when
   * maxPages is not given; with maxPages it is the superset any capped crawl stays within.
   */
  fetched: Set<string>;
  /** The subset of `fetched` requested only as redirect hops (no page record of their own). */
  redirectHops: Set<string>;
  /** Discovered URLs robots.txt forbids: never to be requested. */
  disallowed: Set<string>;
  /** Groups of fetched page URLs with byte-identical bodies: exactly one of each is HTML, the others DUPLICATE. */
  duplicateGroups: string[][];
  /** One record per page URL the crawl dequeues (hops excluded); for duplicates see duplicateGroups. */
  expected: Map<string, ExpectedPage>;
  /** Depth at which each page URL is dequeued (shortest link distance from a seed or sitemap). */
  depth: Map<string, number>;
  /** True when the sets are exact (no maxPages). */
  exact: boolean;
  /** With maxPages: at most this many pages are requested (redirect hops and DISALLOWED not counted). */
  fetchedUpperBound?: number;
}

export interface TestWeb {
  /** Origins, e.g. "http://127.0.0.2:41234", host 0 first. */
  hosts: string[];
  /** Where a crawl starts: the home page of host 0. */
  seeds: string[];
  port: number;
  /** Every request received, robots.txt and sitemaps included, in arrival order. */
  log: RequestLogEntry[];
  groundTruth(opts: GroundTruthOptions): GroundTruth;
  /** Empties the log and re-arms per-run state (the 503-then-OK page answers 503 again). */
  resetLog(): void;
  close(): Promise<void>;
  /** Whether robots.txt of the URL's host forbids it for `userAgent` (default 'trawl'). */
  isDisallowed(url: string, userAgent?: string): boolean;
  /** robots.txt and sitemap files: requests a crawler makes besides pages. */
  isAuxiliary(url: string): boolean;
  /** Changes how pages answer conditional requests from now on (see TestWebOptions.conditional). */
  setConditional(mode: ConditionalRequests): void;
  /**
   * Edits, removes and adds plain pages, as a site changes between two crawls (mutation.ts), and answers with
   * the change class a recrawl must give each page.
   */
  mutate(options: MutationOptions): Mutation;
}

/** Shares of the web's plain pages (home pages and robots-disallowed ones aside) to change, each 0–1. */
export interface MutationOptions {
  /** Pages given a new paragraph (a new body, ETag and Last-Modified); the added pages are linked from them. */
  edit: number;
  /** Pages that now answer 404 or 410. */
  remove: number;
  /** New pages, as many as this share of the plain pages, each linked from an edited page. */
  add: number;
  /** Which pages: default 1. */
  seed?: number;
}

export type ExpectedChange = 'new' | 'changed' | 'unchanged' | 'gone';

export interface Mutation {
  /** Canonical URLs of the pages edited, removed and added. */
  edited: string[];
  removed: string[];
  added: string[];
  /**
   * The change class a recrawl of a crawl made before the mutation must give `url` (canonical): null for a URL
   * that is no page of the web, before or after, or that robots.txt forbids to "trawl" (never requested).
   */
  expected(url: string): ExpectedChange | null;
}
