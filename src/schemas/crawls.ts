// POST /v1/crawls and the crawl resources: the one source of validation, TypeScript types and OpenAPI.
import { type Static, Type } from 'typebox';
import {
  CRAWL_REQUEST_DEFAULTS as DEFAULTS,
  MAX_NEAR_DUPLICATE_DISTANCE,
  RENDER_DEFAULTS,
} from '../crawler/crawl-request.js';
import { DEFAULT_EXTRACTION_METHOD } from '../crawler/extract/index.js';
import {
  CHANGE_CLASSES,
  CRAWL_STATUSES,
  CRAWL_STRATEGIES,
  DOCUMENT_FETCH_TYPES,
  PAGE_TYPES,
  RENDER_BLOCKABLE,
  RENDER_MODES,
  RENDER_WAITS,
  TOPIC_CAPS,
  WEBHOOK_EVENTS,
} from '../crawler/vocabulary.js';
import {
  Cursor,
  commaListPattern,
  Defaulted,
  httpUrl,
  type IncludePart,
  IsoDate,
  ListPage,
  Nullable,
  OwnedListQuery,
  Owner,
  PageQueryLimit,
  RowId,
  TextSettingsProperties,
  Uuid,
} from './common.js';
import { Method as ExtractionMethod } from './extract.js';

const HttpUrl = httpUrl();

/** What GET /v1/crawls/:id/pages and GET /v1/crawls/:id/pages/:pageId may `include`. */
export const PAGE_LIST_INCLUDES = ['text', 'markdown'] as const satisfies readonly IncludePart[];
export const PAGE_DETAIL_INCLUDES = [
  'html',
  'text',
  'markdown',
  'model',
] as const satisfies readonly IncludePart[];

export const Scope = Type.Object(
  {
    allowedDomains: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 260 }), {
        maxItems: 1000,
        description:
          'hosts (optionally host:port) whose pages, and their subdomains, are in scope; default: the seed hosts',
      }),
    ),
    sameHost: Type.Optional(
      Type.Boolean({
        default: DEFAULTS.scope.sameHost,
        description: 'follow a link only when it stays on the host of its page',
      }),
    ),
    include: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
        maxItems: 100,
        description:
          'RE2 regular expressions over the canonical URL (no lookaround or backreferences); when given, a URL must match one',
      }),
    ),
    exclude: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
        maxItems: 100,
        description:
          'RE2 regular expressions over the canonical URL (no lookaround or backreferences); a URL matching one is skipped',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Politeness = Type.Object(
  {
    delayMs: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 600_000,
        default: DEFAULTS.politeness.delayMs,
        description: 'minimum delay between requests to one host',
      }),
    ),
    maxCrawlDelayMs: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 3_600_000,
        default: DEFAULTS.politeness.maxCrawlDelayMs,
        description: 'robots.txt Crawl-delay wins over delayMs when larger, up to this cap',
      }),
    ),
    perHostConcurrency: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 16, default: DEFAULTS.politeness.perHostConcurrency }),
    ),
    respectRobots: Type.Optional(Type.Boolean({ default: DEFAULTS.politeness.respectRobots })),
    respectNofollow: Type.Optional(
      Type.Boolean({
        default: DEFAULTS.politeness.respectNofollow,
        description: 'honour rel=nofollow links and <meta name=robots content=nofollow>',
      }),
    ),
    userAgent: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9_-]+',
        description: 'defaults to the USER_AGENT setting; its product token picks the robots.txt group',
      }),
    ),
  },
  { additionalProperties: false },
);

const SimilarDocument = Type.Object(
  {
    text: Type.Optional(Type.String({ minLength: 1, maxLength: 1_000_000 })),
    html: Type.Optional(Type.String({ minLength: 1, maxLength: 5_000_000 })),
    url: Type.Optional(httpUrl('with html: the page URL')),
  },
  { additionalProperties: false },
);

export const Relevance = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description:
          'keyword query: words ANDed, (a b) groups ORed, "quoted phrases" (docs/reference.md#keyword-query)',
      }),
    ),
    similarTo: Type.Optional(
      Type.Object(
        {
          urls: Type.Optional(Type.Array(httpUrl(), { maxItems: 100 })),
          documents: Type.Optional(Type.Array(SimilarDocument, { maxItems: 100 })),
        },
        { additionalProperties: false, description: 'TF-IDF similarity set (docs/reference.md#tfidf)' },
      ),
    ),
    corpus: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'stored corpus for document frequencies (POST /v1/corpora)',
      }),
    ),
    threshold: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        default: DEFAULTS.relevanceThreshold,
        description: 'a page scoring at least this is relevant',
      }),
    ),
    ...TextSettingsProperties,
  },
  {
    additionalProperties: false,
    description:
      'how pages are scored: exactly one of query or similarTo; stopWords and stem apply to similarTo (TF-IDF)',
  },
);

const RenderMode = Type.String({
  enum: [...RENDER_MODES],
  default: RENDER_DEFAULTS.mode,
  description:
    'never: parse the fetched HTML; always: render every HTML page in headless Chromium; auto: render pages whose HTML looks built by scripts (docs/reference.md#rendering)',
});

export const Render = Type.Union(
  [
    RenderMode,
    Type.Object(
      {
        mode: Type.Optional(RenderMode),
        waitUntil: Type.Optional(
          Type.Union(
            [
              Type.String({ enum: [...RENDER_WAITS] }),
              Type.Object(
                { selector: Type.String({ minLength: 1, maxLength: 500, description: 'a CSS selector' }) },
                { additionalProperties: false },
              ),
            ],
            {
              default: RENDER_DEFAULTS.waitUntil,
              description:
                'what the DOM is read after: the load event, network idle (no request for 500 ms), or an element matching a selector',
            },
          ),
        ),
        timeoutMs: Type.Optional(
          Type.Integer({
            minimum: 500,
            maximum: 120_000,
            default: RENDER_DEFAULTS.timeoutMs,
            description: "the page's render deadline: its DOM is read as it stands then",
          }),
        ),
        block: Type.Optional(
          Type.Array(Type.String({ enum: [...RENDER_BLOCKABLE] }), {
            maxItems: RENDER_BLOCKABLE.length,
            default: [...RENDER_DEFAULTS.block],
            description: 'request types the rendered page may not load',
          }),
        ),
        screenshot: Type.Optional(
          Type.Boolean({
            default: RENDER_DEFAULTS.screenshot,
            description:
              'store a PNG of each rendered page (at most 1280×2000): GET /v1/crawls/{id}/pages/{pageId}/screenshot',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  ],
  {
    description:
      "render pages in headless Chromium before they are parsed; every request the page makes goes through the crawl's rules (docs/reference.md#rendering)",
  },
);

export const CrawlRequest = Type.Object(
  {
    seeds: Type.Optional(
      Type.Array(HttpUrl, {
        minItems: 1,
        maxItems: 1000,
        description: 'absolute http(s) URLs to start from; required unless `recrawl` is given',
      }),
    ),
    recrawl: Type.Optional(
      Type.Object(
        {
          of: Type.String({
            format: 'uuid',
            description: 'the id of an earlier, finished crawl of the same owner',
          }),
        },
        {
          additionalProperties: false,
          description:
            "revisit an earlier crawl's pages (its seeds, then the pages it fetched, in its order) with conditional requests, and classify each page as new, unchanged, changed or gone; the earlier request's settings apply, each field given here overriding (docs/guide.md#recrawls-what-changed)",
        },
      ),
    ),
    strategy: Type.Optional(
      Type.String({
        enum: [...CRAWL_STRATEGIES],
        default: DEFAULTS.strategy,
        description:
          'bfs: breadth-first; best-first: links weighted by the score of their page (needs relevance); topic: links weighted by the words around them (topics), docs/reference.md#topic-weights',
      }),
    ),
    relevance: Type.Optional(Relevance),
    maxResults: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: 'stop once this many relevant pages were found',
      }),
    ),
    ignoreInternal: Type.Optional(
      Type.Boolean({
        default: DEFAULTS.ignoreInternal,
        description: 'drop links to the host of the page they were found on',
      }),
    ),
    topics: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 100,
        description:
          'topic strategy: words or phrases ("grand slam"); empty = every link weighs 0 (plain BFS)',
      }),
    ),
    topic: Type.Optional(
      Type.Object(
        {
          mainTextStartsAtFirstParagraph: Type.Optional(
            Type.Boolean({
              default: DEFAULTS.topic.mainTextStartsAtFirstParagraph,
              description: 'only links after the first <p> count (Wikipedia)',
            }),
          ),
          skipLinksWithHashOrColon: Type.Optional(
            Type.Boolean({
              default: DEFAULTS.topic.skipLinksWithHashOrColon,
              description: 'skip links with # or : in their path',
            }),
          ),
          cap: Type.Optional(
            Type.String({
              enum: [...TOPIC_CAPS],
              default: DEFAULTS.topic.cap,
              description:
                "what maxPages caps: fetched (pages fetched, as in every strategy; discovery goes on and the link weights choose what is fetched, a waiting page at the best weight of the links to it found so far) or discovered (the reference's reading: the graph holds the first maxPages pages discovered)",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    maxPages: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        default: DEFAULTS.maxPages,
        description: 'pages fetched at most',
      }),
    ),
    // Null first: query-string coercion would otherwise turn a JSON null into 0 through the integer branch
    maxDepth: Type.Optional(
      Type.Union([Type.Null(), Type.Integer({ minimum: 0, maximum: 1000 })], { default: null }),
    ),
    scope: Type.Optional(Scope),
    politeness: Type.Optional(Politeness),
    concurrency: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 256,
        default: DEFAULTS.concurrency,
        description: 'fetches in flight for the whole crawl',
      }),
    ),
    workers: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 32,
        default: DEFAULTS.workers,
        description: 'runner jobs the crawl is split into; each may run on a different worker process',
      }),
    ),
    sitemaps: Type.Optional(
      Type.Boolean({
        default: DEFAULTS.sitemaps,
        description: 'also seed from robots.txt Sitemap: lines and /sitemap.xml',
      }),
    ),
    fetch: Type.Optional(
      Type.Object(
        {
          timeoutMs: Type.Optional(
            Type.Integer({ minimum: 100, maximum: 300_000, default: DEFAULTS.fetch.timeoutMs }),
          ),
          maxBytes: Type.Optional(
            Type.Integer({ minimum: 1024, maximum: 104_857_600, default: DEFAULTS.fetch.maxBytes }),
          ),
          retries: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 5,
              default: DEFAULTS.fetch.retries,
              description: 'for 429, 503 and network errors',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    store: Type.Optional(
      Type.Object(
        {
          html: Type.Optional(
            Type.Boolean({
              default: DEFAULTS.store.html,
              description:
                "keep HTML page bodies (gzip-compressed) and every response's status and headers (a WARC export's response records)",
            }),
          ),
          warc: Type.Optional(
            Type.Boolean({
              default: DEFAULTS.store.warc,
              description:
                'keep what a WARC export needs of every response: headers and body as read (error pages, text files too; implies html). Documents not downloaded (PDF, images) stay headers only',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    extract: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(
            Type.Boolean({
              default: DEFAULTS.extract.enabled,
              description:
                'extract the main text of each HTML page after it is stored (a background job) and count its words',
            }),
          ),
          method: Type.Optional(
            Type.Union(ExtractionMethod.anyOf, {
              default: DEFAULT_EXTRACTION_METHOD,
              description: 'main-content extraction method, as for POST /v1/extract',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    duplicates: Type.Optional(
      Type.Object(
        {
          near: Type.Optional(
            Type.Boolean({
              default: DEFAULTS.duplicates.near,
              description:
                "mark a page whose main text's simhash is within maxDistance bits of an earlier page's as nearDuplicateOf it (kept and scored, not dropped); needs extract.enabled and store.html (docs/reference.md#near-duplicates)",
            }),
          ),
          maxDistance: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: MAX_NEAR_DUPLICATE_DISTANCE,
              default: DEFAULTS.duplicates.maxDistance,
              description:
                'bits in which two simhashes may differ and still be near-duplicates (at most 3: the band index finds every pair within 3 bits exactly)',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    documents: Type.Optional(
      Type.Object(
        {
          fetch: Type.Optional(
            Type.Boolean({
              default: DEFAULTS.documents.fetch,
              description:
                'download the documents of `types` (false: record them by type and size only, as images are by default)',
            }),
          ),
          types: Type.Optional(
            Type.Array(Type.String({ enum: [...DOCUMENT_FETCH_TYPES] }), {
              uniqueItems: true,
              maxItems: DOCUMENT_FETCH_TYPES.length,
              default: [...DEFAULTS.documents.types],
              description:
                "documents downloaded and hashed (a copy is a DUPLICATE); pdf, docx, pptx and odt also have their text read, scored and counted (doc and ppt: no text, no well-kept reader exists); txt reads text/plain pages as text (recorded HTML with content type text/plain); image downloads images, linked as pages and shown by them (<img src> in the crawl's scope, one link step below their page, never links of the graph), so copies among them are DUPLICATEs (the report's duplicates.images)",
            }),
          ),
          maxBytes: Type.Optional(
            Type.Integer({
              minimum: 1024,
              maximum: 104_857_600,
              description:
                'largest document downloaded and read; default and at most fetch.maxBytes (a larger one is recorded by type and size only)',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    webhook: Type.Optional(
      Type.Object(
        {
          url: httpUrl('receiver of POSTed JSON events; the SSRF guard applies'),
          events: Type.Optional(
            Type.Array(Type.String({ enum: [...WEBHOOK_EVENTS] }), {
              minItems: 1,
              maxItems: WEBHOOK_EVENTS.length,
              description:
                "events to send; default all (page: written pages, batched at most once a second; page.changed: a recrawl's new, changed and gone pages, at most 100 an event)",
            }),
          ),
          headers: Type.Optional(
            Type.Record(
              Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" }),
              Type.String({ maxLength: 4096 }),
              {
                maxProperties: 20,
                description:
                  'extra request headers: not content-type, user-agent or x-trawl-* (trawl sets them), nor the ones the HTTP client manages (connection, keep-alive, upgrade, expect, transfer-encoding, host, content-length); a value is HTAB, space, visible ASCII or U+0080-U+00FF (no CR, LF or NUL)',
              },
            ),
          ),
          secret: Type.Optional(
            Type.String({
              minLength: 8,
              maxLength: 256,
              description:
                'signs each delivery: x-trawl-signature = sha256=HMAC-SHA256(secret, "<x-trawl-timestamp>.<body>"); never shown back',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    render: Type.Optional(Render),
    retention: Type.Optional(
      Type.Object(
        {
          days: Type.Integer({
            minimum: 1,
            maximum: 36_500,
            description:
              'purge the crawl this many days after it ends (at most CRAWL_RETENTION_DAYS when the server sets it; without it, the server’s setting, or kept until deleted)',
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, $id: 'CrawlRequest' },
);
export type CrawlRequest = Static<typeof CrawlRequest>;

const Counts = Type.Object(
  Object.fromEntries(PAGE_TYPES.map((type) => [type, Type.Integer()])) as Record<
    (typeof PAGE_TYPES)[number],
    ReturnType<typeof Type.Integer>
  >,
);

export const CrawlLinks = Type.Object({ self: Type.String(), pages: Type.String(), graph: Type.String() });
/** `links`, the crawl's links' first name: `_links` now everywhere (`links` of a status is a count). */
const DeprecatedCrawlLinks = Type.Object(CrawlLinks.properties, {
  deprecated: true,
  description: 'the same as _links, under its former name; removed in the next release',
});

/** What a crawl stores (docs/operations.md#usage). */
export const CrawlStorage = Type.Object(
  {
    bytes: Type.Integer({ description: 'bodyBytes + warcBodyBytes + screenshotBytes' }),
    bodyBytes: Type.Integer({
      description: 'page bodies as stored: after PostgreSQL compressed them (lz4 or pglz)',
    }),
    warcBodyBytes: Type.Integer({
      description: 'bodies kept only for a WARC export (store.warc: error pages, text files), as stored',
    }),
    screenshotBytes: Type.Integer({ description: 'PNG screenshots of rendered pages' }),
    pageRows: Type.Integer({ description: 'page rows, the frontier included' }),
    linkRows: Type.Integer({ description: 'links between its pages' }),
    measuredAt: Type.String({
      format: 'date-time',
      description:
        'when it was measured: once after a crawl ends (kept), at most every 10 s per server while it runs',
    }),
  },
  { description: 'what the crawl stores' },
);

/** A recrawl's pages by change class: the status and the report count them alike. */
export const ChangeCounts = Type.Object(
  Object.fromEntries(CHANGE_CLASSES.map((change) => [change, Type.Integer()])) as Record<
    (typeof CHANGE_CLASSES)[number],
    ReturnType<typeof Type.Integer>
  >,
);

export const CrawlStatus = Type.Object(
  {
    id: Uuid,
    status: Type.String({ enum: [...CRAWL_STATUSES] }),
    request: Type.Any(),
    counts: Counts,
    statusCodes: Type.Record(Type.String(), Type.Integer()),
    pagesFetched: Type.Integer({ description: 'pages requested (every type but FRONTIER and DISALLOWED)' }),
    duplicates: Type.Integer({
      description: 'pages (and documents, images) whose body is an earlier page’s',
    }),
    links: Type.Integer({ description: 'links recorded between the crawl’s pages' }),
    images: Type.Integer({ description: 'images shown by the crawl’s pages (<img>), one per page and URL' }),
    documents: Type.Integer({
      description:
        'binary documents recorded (PDF, Office, …), byte-identical copies included (the report’s found.documents counts each body once)',
    }),
    frontier: Type.Integer({ description: 'URLs queued and not fetched yet' }),
    pagesPerSecond: Type.Number(),
    elapsedMs: Nullable(Type.Integer()),
    loadMs: Type.Object({
      p50: Nullable(Type.Number()),
      p95: Nullable(Type.Number()),
    }),
    queueWaitMs: Type.Object({
      p50: Nullable(Type.Number()),
      p95: Nullable(Type.Number()),
    }),
    createdAt: Type.String({ format: 'date-time' }),
    startedAt: IsoDate,
    finishedAt: IsoDate,
    error: Nullable(Type.String()),
    problem: Nullable(
      Type.Object(
        {
          type: Type.String(),
          title: Type.String(),
          detail: Type.String(),
          seeds: Type.Array(Type.Object({ url: Type.String(), reason: Type.String() })),
        },
        { additionalProperties: true },
      ),
      {
        description:
          'RFC 9457 problem details of a crawl that failed because no seed could be fetched (blocked address, DNS, connection refused, robots.txt unreachable), with the reason for each seed',
      },
    ),
    warnings: Type.Array(Type.String(), {
      description:
        'why a completed crawl fetched nothing (robots.txt disallowed its seeds, …); empty otherwise',
    }),
    strategy: Type.Optional(Type.String()),
    recrawlOf: Type.Optional(
      Type.String({ format: 'uuid', description: 'the earlier crawl this one recrawls' }),
    ),
    nearDuplicates: Type.Optional(
      Type.Integer({
        description:
          'with duplicates.near: pages marked nearDuplicateOf an earlier page so far (the text job marks them, and may go on after the crawl ends)',
      }),
    ),
    scheduleId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'the schedule whose run started it (docs/guide.md#schedules)',
      }),
    ),
    changes: Type.Optional(
      Nullable(ChangeCounts, {
        description: "a recrawl's pages by change class (docs/reference.md#change-classes)",
      }),
    ),
    relevantPages: Type.Optional(
      Type.Integer({
        description:
          'results: pages scored at or above the threshold, at most maxResults (the first ones recorded)',
      }),
    ),
    harvestRate: Type.Optional(Type.Number({ description: 'relevant pages / pages fetched' })),
    scoring: Type.Optional(
      Type.Object({
        scorer: Type.String(),
        threshold: Type.Number(),
        corpus: Nullable(Type.String()),
      }),
    ),
    stopReason: Nullable(
      Type.String({
        enum: ['quota'],
        description:
          'quota: the crawl stopped (completed, everything stored kept) because its API key reached its pagesPerMonth or storedBytes limit; null otherwise',
      }),
    ),
    storage: CrawlStorage,
    expiresAt: Nullable(
      Type.String({
        format: 'date-time',
        description:
          'when the retention sweeper purges the ended crawl (its retention.days, else CRAWL_RETENTION_DAYS); null: kept until deleted, or not ended yet',
      }),
    ),
    _links: CrawlLinks,
  },
  { $id: 'CrawlStatus' },
);
export type CrawlStatus = Static<typeof CrawlStatus>;

export const CrawlCreated = Type.Object({
  id: Uuid,
  status: Type.Literal('queued'),
  _links: CrawlLinks,
  links: DeprecatedCrawlLinks,
});
export type CrawlCreated = Static<typeof CrawlCreated>;

export const CrawlListQuery = OwnedListQuery;

export const CrawlDeleteQuery = Type.Object(
  {
    purge: Defaulted(
      Type.Boolean({
        default: false,
        description:
          'true: remove the crawl and everything it stored (a queued or running crawl is cancelled first): answers 202 with status `purging`, its pages, exports and reports are 404 from then on, and the crawl itself once the purge is over. false: cancel it',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CrawlSummary = Type.Object({
  id: Uuid,
  owner: Owner,
  status: Type.String(),
  seeds: Type.Array(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  finishedAt: IsoDate,
  pagesFetched: Type.Integer({ description: 'as in the crawl’s status' }),
  error: Nullable(Type.String()),
  warnings: Type.Array(Type.String(), { description: 'why a completed crawl fetched nothing' }),
  _links: CrawlLinks,
  links: DeprecatedCrawlLinks,
});

export type CrawlSummary = Static<typeof CrawlSummary>;

export const CrawlList = ListPage(CrawlSummary);
export type CrawlList = Static<typeof CrawlList>;

export const PageListQuery = Type.Object(
  {
    limit: Defaulted(PageQueryLimit),
    cursor: Type.Optional(Cursor),
    type: Type.Optional(Type.String({ enum: [...PAGE_TYPES] })),
    change: Type.Optional(
      Type.String({ enum: [...CHANGE_CLASSES], description: "a recrawl's pages of one change class" }),
    ),
    status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
    host: Type.Optional(Type.String({ minLength: 1, maxLength: 260, description: 'host or host:port' })),
    minScore: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: 'pages scored at least this' }),
    ),
    result: Type.Optional(
      Type.Boolean({
        description:
          "true: the crawl's results only (its first maxResults relevant pages, in the order they were recorded)",
      }),
    ),
    sort: Defaulted(
      Type.String({
        enum: ['id', '-score'],
        default: 'id',
        description: 'id: discovery order; -score: best first',
      }),
    ),
    include: Type.Optional(
      Type.String({
        pattern: commaListPattern(PAGE_LIST_INCLUDES),
        description:
          "comma list: text (each page's main text, as the crawl-text job stored it; null before it reached the page), markdown (the main content as Markdown, as on a single page); with include, limit is at most 100",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PageListQuery = Static<typeof PageListQuery>;

/** How a page was read in a crawl that renders (docs/reference.md#rendering). */
const PageRenderFields = {
  rendered: Type.Boolean({ description: 'its DOM came from headless Chromium (the crawl asked to render)' }),
  renderReason: Nullable(Type.String(), {
    description:
      'always, auto:<rule> (app-root, little-text, many-scripts), or why not: auto:static, render-failed; null when the crawl never renders',
  }),
  fetchMs: Nullable(
    Type.Integer({ description: 'the fetch of the main document (loadMs = fetchMs + renderMs)' }),
  ),
  renderMs: Nullable(Type.Integer({ description: 'the render, from when the browser took the page' })),
  renderNote: Nullable(Type.String({ description: 'what the render ran into: a timeout, requests refused' })),
  navigatedFrom: Nullable(
    Type.String({ description: 'the page navigated itself away from this URL (finalUrl is where it ended)' }),
  ),
  screenshot: Nullable(
    Type.String({ description: 'link to its PNG (render.screenshot), when one was stored' }),
  ),
};

/** What a recrawl found of a page against the earlier crawl (docs/reference.md#change-classes). */
const PageChangeFields = {
  previousPage: Nullable(
    Type.Integer({ description: "a recrawl's page: the earlier crawl's page of its URL; null otherwise" }),
  ),
  bodyOf: Nullable(
    Type.Integer({
      description:
        'the page whose stored body this page has (a 304 Not Modified stores none of its own); null: its own',
    }),
  ),
  change: Nullable(
    Type.String({
      enum: [...CHANGE_CLASSES],
      description:
        "a recrawl's page: new (the earlier crawl did not fetch it), unchanged (304, or the same body), changed (another body), gone (404/410, another error status, unreachable, or a redirect elsewhere); null: not a recrawl, or not requested",
    }),
  ),
  textChanged: Nullable(
    Type.Boolean({
      description:
        'a changed page: whether its main text differs from the earlier one; null until the text job has both texts',
    }),
  ),
  similarity: Nullable(
    Type.Number({
      description:
        'a changed page: 0–1, how alike the two main texts are (simhash, docs/reference.md#change-classes); null until the text job has both texts',
    }),
  ),
};

/** A page's main-text simhash and the earlier page it nearly duplicates (docs/reference.md#near-duplicates). */
const PageNearDuplicateFields = {
  simhash: Nullable(
    Type.String({
      pattern: '^[0-9a-f]{16}$',
      description:
        "64-bit simhash of the page's main text (word shingles of its kept words), 16 hex digits; null until the text job has its text, or for a text without a kept word",
    }),
  ),
  nearDuplicateOf: Nullable(
    Type.Integer({
      description:
        "with duplicates.near: the lowest-id page of the crawl whose simhash is within duplicates.maxDistance bits of this page's, when it has a lower id; the page is kept and scored as any other",
    }),
  ),
};

export const PageSummary = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  canonicalUrl: Type.String(),
  finalUrl: Nullable(Type.String()),
  type: Type.String(),
  status: Nullable(Type.Integer()),
  contentType: Nullable(Type.String()),
  bytes: Nullable(Type.Integer()),
  depth: Type.Integer(),
  sha256: Nullable(Type.String()),
  loadMs: Nullable(Type.Integer()),
  queueWaitMs: Nullable(Type.Integer()),
  queuedAt: Type.String({ format: 'date-time' }),
  fetchedAt: IsoDate,
  duplicateOf: Nullable(Type.Integer()),
  discoveredFrom: Nullable(Type.Integer()),
  title: Nullable(Type.String()),
  error: Nullable(Type.String()),
  score: Nullable(Type.Number(), {
    description: 'relevance in [0, 1], when the crawl scores pages',
  }),
  result: Type.Boolean({
    description:
      "one of the crawl's results: relevant and among its first maxResults relevant pages (pages fetched in parallel past that point keep their score but are not results)",
  }),
  priority: Type.Number({
    description:
      'the weight the page was queued with (docs/reference.md#weighted-queue): best-first, the score of the page that linked to it; topic, its link weight (with topic.cap fetched: the best, each link’s weight averaged with the priority of the page holding it); bfs, 0. The frontier fetches the highest first',
  }),
  ...PageRenderFields,
  ...PageChangeFields,
  ...PageNearDuplicateFields,
});
export type PageSummary = Static<typeof PageSummary>;

/** A page as GET /v1/crawls/:id/pages lists it: its summary, with the parts `include` asked for. */
export const PageListItem = Type.Object({
  ...PageSummary.properties,
  text: Type.Optional(
    Nullable(Type.String(), { description: 'include=text: the main text; null when not extracted yet' }),
  ),
  markdown: Type.Optional(
    Nullable(Type.String(), {
      description: 'include=markdown: the main content as Markdown; null when no HTML body is stored',
    }),
  ),
});
export type PageListItem = Static<typeof PageListItem>;

export const PageList = ListPage(PageListItem);
export type PageList = Static<typeof PageList>;

/** GET /v1/crawls/:id/changes/missing: a page of the earlier pages a recrawl never reached. */
export const MissingPagesQuery = Type.Object(
  { limit: Defaulted(PageQueryLimit), cursor: Type.Optional(Cursor) },
  { additionalProperties: false },
);
export type MissingPagesQuery = Static<typeof MissingPagesQuery>;

export const MissingPage = Type.Object({
  id: Type.Integer({
    description: "this crawl's page of the URL (FRONTIER: never reached; DISALLOWED: refused)",
  }),
  url: Type.String(),
  type: Type.String(),
  error: Nullable(Type.String()),
  previousPage: Type.Integer({ description: "the earlier crawl's page of the URL" }),
  previousCrawl: Uuid,
  previousType: Type.String(),
  previousStatus: Nullable(Type.Integer()),
  previousFetchedAt: IsoDate,
});
export const MissingPageList = ListPage(MissingPage);
export type MissingPageList = Static<typeof MissingPageList>;

/** GET /v1/crawls/:id/pages/:pageId/diff: a recrawled page's main text against its earlier version. */
export const PageDiff = Type.Object({
  pageId: Type.Integer(),
  previousPage: Type.Integer({ description: "the earlier crawl's page of the URL" }),
  change: Nullable(Type.String({ enum: [...CHANGE_CLASSES] })),
  textChanged: Type.Boolean({ description: 'the kept words differ (digits alone never count)' }),
  similarity: Type.Number({
    description: '0–1 from the two texts’ simhash (docs/reference.md#change-classes)',
  }),
  unified: Type.String({ description: 'unified diff of the two main texts, a sentence a line' }),
  summary: Type.Object({
    addedWords: Type.Integer(),
    removedWords: Type.Integer(),
    added: Type.Array(Type.String(), { description: 'the words added, in order (at most 200)' }),
    removed: Type.Array(Type.String(), { description: 'the words removed, in order (at most 200)' }),
  }),
  truncated: Type.Boolean({
    description: 'a text was longer than 200,000 characters: only its beginning was compared',
  }),
});
export type PageDiff = Static<typeof PageDiff>;

export const PageParams = Type.Object(
  { id: Uuid, pageId: RowId({ minimum: 1 }) },
  { additionalProperties: false },
);
export const PageDetailQuery = Type.Object(
  {
    include: Type.Optional(
      Type.String({
        pattern: commaListPattern(PAGE_DETAIL_INCLUDES),
        description:
          'comma list: html (the stored body), text (the main text, extracted now if not yet), markdown (the main content as Markdown: headings, lists, tables, code, absolute links, images), model (the reference Document the scorers read: docs/reference.md#document-model)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PageDetail = Type.Object({
  ...PageSummary.properties,
  redirects: Nullable(Type.Array(Type.Object({ url: Type.String(), status: Type.Integer() }))),
  truncated: Type.Boolean(),
  outlinks: Type.Array(Type.Object({ pageId: Type.Integer(), url: Type.String(), anchor: Type.String() })),
  images: Type.Array(Type.Object({ url: Type.String(), alt: Type.String() })),
  skipped: Type.Array(
    Type.Object({
      kind: Type.String({ enum: ['link', 'image'] }),
      url: Type.String({ description: 'the first 300 characters of the URL' }),
      reason: Type.String(),
    }),
    {
      description:
        'links and images not crawled nor listed above because their URL is too long: to crawl, or (reason too-long-for-patterns) for the scope patterns to be run on',
    },
  ),
  document: Nullable(
    Type.Object({
      dataType: Type.String(),
      contentType: Nullable(Type.String()),
      bytes: Nullable(Type.Integer()),
    }),
  ),
  html: Type.Optional(Nullable(Type.String())),
  markdown: Type.Optional(
    Nullable(Type.String(), {
      description: 'include=markdown: the main content as Markdown; null when no HTML body is stored',
    }),
  ),
  model: Type.Optional(
    Nullable(
      Type.Object({
        url: Type.String({ description: 'the final URL, after redirects' }),
        title: Type.String(),
        h1: Type.Array(Type.String()),
        h2: Type.Array(Type.String()),
        words: Type.Array(Type.String(), {
          description:
            "title and visible text, wholly alphabetic, without stop words (the crawl's TF-IDF settings)",
        }),
        outwardLinks: Type.Array(Type.String(), {
          description: 'absolute and canonical, each once, in page order',
        }),
      }),
      { description: 'include=model: why the page scored what it did; null when no HTML body is stored' },
    ),
  ),
  text: Type.Optional(
    Nullable(Type.String(), {
      description:
        'main text (include=text): of an HTML page its extracted main text, of a document (PDF, DOCX, PPTX, ODT) the text read from it; null when there is neither a stored HTML body nor a read document',
    }),
  ),
});
export type PageDetail = Static<typeof PageDetail>;

export const HostListQuery = Type.Object(
  { limit: Defaulted(Type.Integer({ minimum: 1, maximum: 10_000, default: 100 })) },
  { additionalProperties: false },
);

const NullableNumber = Nullable(Type.Number());

export const HostList = Type.Object({
  items: Type.Array(
    Type.Object({
      origin: Type.String(),
      robots: Type.Object({
        status: Nullable(Type.Integer(), {
          description: 'null: not fetched, or unreachable',
        }),
        error: Nullable(Type.String()),
        crawlDelayMs: Nullable(Type.Integer()),
      }),
      pages: Type.Integer(),
      counts: Type.Record(Type.String(), Type.Integer()),
      requests: Type.Integer({ description: 'pages requested from this host' }),
      requestsPerSecond: NullableNumber,
      loadMs: Type.Object({ p50: NullableNumber, p95: NullableNumber }),
      lastFetchedAt: Nullable(Type.String({ format: 'date-time' })),
    }),
  ),
});
export type HostList = Static<typeof HostList>;
