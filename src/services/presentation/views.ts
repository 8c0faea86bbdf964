// The resources as the API shows them: rows of the repositories (crawls, pages, hosts, webhook deliveries,
// corpora, rankings) turned into response documents, pure and in one place. The crawl status is computed here once; live
// progress events and webhook bodies are projections of it, not copies of its fields.
import type { NormalizedCrawlRequest } from '../../crawler/crawl-request.js';
import { formatEvery } from '../../crawler/schedule-timing.js';
import { isFinished, PAGE_TYPES, type PageType } from '../../crawler/vocabulary.js';
import type { CorpusListRow, CorpusRow } from '../../db/corpora-repo.js';
import type {
  CrawlCountRow,
  CrawlFound,
  CrawlListRow,
  CrawlRow,
  CrawlStorage,
  CrawlsRepository,
  CrawlTimings,
  PageRow,
} from '../../db/crawls-repo.js';
import type { LivePageRow } from '../../db/live-repo.js';
import type { RankingListRow, RankingRow, RankingVertexRow } from '../../db/rankings-repo.js';
import type { ScheduleRow } from '../../db/schedules-repo.js';
import { tenantName } from '../../db/tenant-scope.js';
import type { WebhookDeliveryRow } from '../../db/webhooks-repo.js';
import { iso } from './pagination.js';

type Rows<K extends keyof CrawlsRepository> = CrawlsRepository[K] extends (...args: never[]) => infer R
  ? Awaited<R>
  : never;

export function crawlLinks(id: string) {
  return { self: `/v1/crawls/${id}`, pages: `/v1/crawls/${id}/pages`, graph: `/v1/crawls/${id}/graph` };
}

/** A crawl's links as POST /v1/crawls and the list show them: `_links`, and for one more release `links` too. */
export function crawlLinkFields(id: string) {
  const links = crawlLinks(id);
  return { _links: links, links };
}

/** Milliseconds to a tenth, as timings are shown. */
function tenths(value: number | null): number | null {
  return value === null ? null : Math.round(value * 10) / 10;
}

/** The stored request as shown back: a webhook's secret is never echoed. */
function shownRequest(request: NormalizedCrawlRequest): NormalizedCrawlRequest {
  const { webhook } = request;
  if (!webhook?.secret) return request;
  return { ...request, webhook: { ...webhook, secret: '(set)' } };
}

/** Relevant pages, harvest rate and how pages are scored, for crawls that score pages. */
function focusStatus(row: CrawlRow, pagesFetched: number) {
  const { request } = row;
  const relevance = request.relevance;
  if (!relevance) return { strategy: request.strategy };
  return {
    strategy: request.strategy,
    relevantPages: row.relevant_pages,
    harvestRate: pagesFetched > 0 ? Math.round((row.relevant_pages / pagesFetched) * 10_000) / 10_000 : 0,
    scoring: {
      scorer: relevance.query !== undefined ? 'keyword' : 'tfidf',
      threshold: relevance.threshold,
      corpus:
        relevance.query !== undefined
          ? null
          : relevance.corpus
            ? `stored corpus ${relevance.corpus}`
            : 'built from the similarity set plus the pages fetched so far',
    },
  };
}

/**
 * Pages fetched: a request was made. DISALLOWED pages and the redirect targets reached inside another page's
 * fetch (DUPLICATE without a status) are not requests of their own.
 */
function pagesFetchedOf(countRows: CrawlCountRow[]): number {
  return countRows
    .filter(
      ({ type, status }) =>
        type !== 'FRONTIER' && type !== 'DISALLOWED' && !(type === 'DUPLICATE' && status === null),
    )
    .reduce((sum, { n }) => sum + n, 0);
}

/** GET /v1/crawls/:id: status, counters and timing, from the crawl row and its page counts and totals. */
export function crawlStatusView(
  row: CrawlRow,
  countRows: CrawlCountRow[],
  totals: CrawlFound & CrawlTimings,
  lifecycle: { storage: CrawlStorage; expiresAt: Date | null },
) {
  const counts = Object.fromEntries(PAGE_TYPES.map((type) => [type, 0])) as Record<PageType, number>;
  const statusCodes: Record<string, number> = {};
  for (const { type, status, n } of countRows) {
    counts[type as PageType] += n;
    if (status !== null) statusCodes[String(status)] = (statusCodes[String(status)] ?? 0) + n;
  }
  const pagesFetched = pagesFetchedOf(countRows);
  const end = row.finished_at ?? (isFinished(row.status) ? totals.last_fetched_at : new Date());
  const elapsedMs = row.started_at && end ? Math.max(0, end.getTime() - row.started_at.getTime()) : null;
  return {
    id: row.id,
    status: row.status,
    request: shownRequest(row.request),
    counts,
    statusCodes,
    pagesFetched,
    duplicates: counts.DUPLICATE,
    ...(row.request.duplicates.near ? { nearDuplicates: totals.nearDuplicates ?? 0 } : {}),
    links: totals.links,
    images: totals.images,
    documents: totals.documents,
    frontier: counts.FRONTIER,
    pagesPerSecond: elapsedMs ? Math.round((pagesFetched / (elapsedMs / 1000)) * 100) / 100 : 0,
    elapsedMs,
    loadMs: { p50: tenths(totals.load_p50), p95: tenths(totals.load_p95) },
    queueWaitMs: { p50: tenths(totals.wait_p50), p95: tenths(totals.wait_p95) },
    createdAt: row.created_at.toISOString(),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    error: row.error,
    problem: row.problem,
    warnings: row.warnings,
    ...focusStatus(row, pagesFetched),
    ...(row.request.recrawl ? { recrawlOf: row.request.recrawl.of, changes: totals.changes ?? null } : {}),
    stopReason: row.stop_reason ?? null,
    storage: storageView(lifecycle.storage),
    expiresAt: iso(lifecycle.expiresAt),
    ...(row.schedule_id ? { scheduleId: row.schedule_id } : {}),
    _links: crawlLinks(row.id),
  };
}

/** A crawl's `storage`: bytes as stored, by what holds them, and rows. */
export function storageView(storage: CrawlStorage) {
  return {
    bytes: storage.body_bytes + storage.warc_body_bytes + storage.screenshot_bytes,
    bodyBytes: storage.body_bytes,
    warcBodyBytes: storage.warc_body_bytes,
    screenshotBytes: storage.screenshot_bytes,
    pageRows: storage.page_rows,
    linkRows: storage.link_rows,
    measuredAt: storage.measured_at.toISOString(),
  };
}

export type CrawlStatusView = ReturnType<typeof crawlStatusView>;

/** The counters a crawl's progress is told by: a live `progress` event and a webhook's `crawl` carry them. */
function progressCounters(status: CrawlStatusView) {
  return {
    status: status.status,
    counts: status.counts,
    pagesFetched: status.pagesFetched,
    pagesPerSecond: status.pagesPerSecond,
    frontier: status.frontier,
    ...(status.relevantPages !== undefined
      ? { relevantPages: status.relevantPages, harvestRate: status.harvestRate }
      : {}),
  };
}

/** `event: progress` of GET /v1/crawls/:id/events. */
export function crawlProgressView(status: CrawlStatusView) {
  return { id: status.id, ...progressCounters(status), elapsedMs: status.elapsedMs };
}

/** The `crawl` object of a webhook body: the crawl at the moment its event happened. */
export function webhookCrawlView(status: CrawlStatusView) {
  return {
    ...progressCounters(status),
    // a recrawl's pages by change class: what its completed event sums up
    ...(status.changes !== undefined ? { changes: status.changes } : {}),
    error: status.error,
    _links: status._links,
    links: status._links,
  };
}

/** One item of GET /v1/crawls. */
export function crawlSummaryView(row: CrawlListRow) {
  return {
    id: row.id,
    owner: tenantName(row.owner),
    status: row.status,
    seeds: row.request.seeds.slice(0, 10),
    createdAt: row.created_at.toISOString(),
    finishedAt: iso(row.finished_at),
    pagesFetched: pagesFetchedOf(row.counts),
    error: row.error,
    warnings: row.warnings,
    ...crawlLinkFields(row.id),
  };
}

/** One item of GET /v1/crawls/:id/pages, and the head of a page's detail. */
export type PageSummaryView = ReturnType<typeof pageSummaryView>;

export function pageSummaryView(row: PageRow) {
  return {
    id: row.id,
    url: row.url,
    canonicalUrl: row.canonical_url,
    finalUrl: row.final_url,
    type: row.type,
    status: row.status,
    contentType: row.content_type,
    bytes: row.bytes,
    depth: row.depth,
    sha256: row.sha256,
    loadMs: row.load_ms,
    queueWaitMs: row.fetched_at ? Math.max(0, row.fetched_at.getTime() - row.queued_at.getTime()) : null,
    queuedAt: row.queued_at.toISOString(),
    fetchedAt: iso(row.fetched_at),
    duplicateOf: row.duplicate_of,
    discoveredFrom: row.discovered_from,
    title: row.title,
    error: row.error,
    score: row.score,
    result: row.result,
    priority: row.priority,
    rendered: row.rendered,
    renderReason: row.render_reason,
    // a page of a crawl that never renders: its whole load was its fetch
    fetchMs: row.fetch_ms ?? row.load_ms,
    renderMs: row.render_ms,
    renderNote: row.render_note,
    navigatedFrom: row.navigated_from,
    screenshot: row.has_screenshot ? `/v1/crawls/${row.crawl_id}/pages/${row.id}/screenshot` : null,
    previousPage: row.previous_page,
    bodyOf: row.body_of,
    change: row.change,
    textChanged: row.text_changed,
    similarity: row.similarity,
    simhash: row.simhash,
    nearDuplicateOf: row.near_duplicate_of,
  };
}

/** A page's reference Document (docs/reference.md#document-model), as `?include=model` shows it. */
export interface DocumentModelView {
  url: string;
  title: string;
  h1: string[];
  h2: string[];
  words: string[];
  outwardLinks: string[];
}

/** GET /v1/crawls/:id/pages/:pageId: the summary, links, images, document and (when asked) body and text. */
export function pageDetailView(
  row: NonNullable<Rows<'page'>>,
  related: {
    outlinks: Rows<'pageOutlinks'>;
    images: Rows<'pageImages'>;
    document: Rows<'pageDocument'>;
    html: string | null | undefined;
    text: string | null | undefined;
    /** include=model: the reference Document (CrawlService) */
    model?: DocumentModelView | null | undefined;
    markdown?: string | null | undefined;
  },
) {
  const { outlinks, images, document, html, text, model, markdown } = related;
  return {
    ...pageSummaryView(row),
    redirects: row.redirects,
    truncated: row.truncated,
    outlinks: outlinks.map((link) => ({ pageId: link.to_page, url: link.url, anchor: link.anchor })),
    images,
    skipped: row.skipped ?? [],
    document: document
      ? { dataType: document.data_type, contentType: document.content_type, bytes: document.bytes }
      : null,
    ...(html !== undefined ? { html } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(markdown !== undefined ? { markdown } : {}),
    ...(text !== undefined ? { text } : {}),
  };
}

/** `event: page` of GET /v1/crawls/:id/events?pages=true. */
export function pageEventView(row: LivePageRow) {
  return {
    id: row.id,
    url: row.url,
    type: row.type,
    status: row.status,
    contentType: row.content_type,
    bytes: row.bytes,
    loadMs: row.load_ms,
    depth: row.depth,
    score: row.score,
    title: row.title,
    fetchedAt: iso(row.fetched_at),
  };
}

/** One host of GET /v1/crawls/:id/hosts. */
export function hostView(row: Rows<'hosts'>[number]) {
  const seconds =
    row.first_fetched_at && row.last_fetched_at
      ? (row.last_fetched_at.getTime() - row.first_fetched_at.getTime()) / 1000
      : 0;
  return {
    origin: row.origin,
    robots: { status: row.robots_status, error: row.robots_error, crawlDelayMs: row.crawl_delay_ms },
    pages: row.pages,
    counts: {
      HTML: row.html,
      BINARY: row.binary,
      DUPLICATE: row.duplicate,
      INVALID: row.invalid,
      DISALLOWED: row.disallowed,
      FRONTIER: row.frontier,
    },
    requests: row.requests,
    requestsPerSecond: seconds > 0 ? Math.round((row.requests / seconds) * 100) / 100 : null,
    loadMs: { p50: tenths(row.load_p50), p95: tenths(row.load_p95) },
    lastFetchedAt: iso(row.last_fetched_at),
  };
}

/** One attempt of GET /v1/crawls/:id/webhooks. */
export function webhookDeliveryView(row: WebhookDeliveryRow) {
  return {
    id: row.id,
    eventId: row.event_id,
    event: row.event,
    attempt: row.attempt,
    status: row.status,
    outcome: row.outcome,
    error: row.error,
    durationMs: row.duration_ms,
    attemptedAt: row.attempted_at.toISOString(),
  };
}

export function corpusLinks(id: string) {
  return { self: `/v1/corpora/${id}` };
}

/** One item of GET /v1/corpora. */
export function corpusSummaryView(row: CorpusListRow) {
  return {
    id: row.id,
    owner: tenantName(row.owner),
    name: row.name,
    status: row.status,
    documentCount: row.document_count,
    termCount: row.term_count,
    createdAt: row.created_at.toISOString(),
    finishedAt: iso(row.finished_at),
    links: corpusLinks(row.id),
  };
}

/** GET /v1/corpora/:id: the list item, the build's progress and error, and the top terms once completed. */
export function corpusStatusView(
  row: CorpusRow,
  topTerms: Array<{ term: string; document_frequency: number }>,
) {
  return {
    ...corpusSummaryView(row),
    progress: row.progress,
    textSettings: row.text_settings,
    topTerms: topTerms.map(({ term, document_frequency }) => ({
      term,
      documentFrequency: document_frequency,
    })),
    error: row.error,
  };
}

export function rankingLinks(id: string) {
  return { self: `/v1/rankings/${id}`, vertices: `/v1/rankings/${id}/vertices` };
}

/** A completed ranking's document, or the state of a queued, running or failed one (no results yet). */
export function rankingView(row: RankingRow) {
  const { params } = row;
  const options = {
    damping: params.damping,
    epsilon: params.epsilon,
    maxIterations: params.maxIterations,
    topK: params.topK,
    jaccardK: params.jaccardK,
    personalization: params.personalization ?? null,
  };
  if (row.status !== 'completed' || row.summary === null) {
    return {
      id: row.id,
      status: row.status as 'queued' | 'running' | 'failed',
      crawlId: row.crawl_id,
      ...options,
      error: row.error,
      createdAt: row.created_at.toISOString(),
      links: rankingLinks(row.id),
    };
  }
  return {
    id: row.id,
    status: 'completed' as const,
    crawlId: row.crawl_id,
    ...row.summary,
    // a summary stored before unnamed vertices were counted had none (they were not ranked)
    unnamedVertices: row.summary.unnamedVertices ?? 0,
    graph: row.graph,
    ...options,
    createdAt: row.created_at.toISOString(),
    links: rankingLinks(row.id),
  };
}

/** A ranking in GET /v1/rankings: its state and size (the top lists are on its own document). */
export function rankingSummaryView(row: RankingListRow) {
  return {
    id: row.id,
    owner: tenantName(row.owner),
    status: row.status,
    crawlId: row.crawl_id,
    vertices: row.vertices,
    edges: row.edges,
    iterations: row.iterations,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    links: rankingLinks(row.id),
  };
}

/** One vertex of a ranking: GET /v1/rankings/:id/vertices. */
export function rankedVertexView(row: RankingVertexRow) {
  return {
    vertex: row.vertex,
    pageRank: row.page_rank,
    inDegree: row.in_degree,
    outDegree: row.out_degree,
    clustering: row.clustering,
    weakComponent: row.weak_component,
    strongComponent: row.strong_component,
  };
}

/** A schedule as GET /v1/schedules/:id and the list show it; `nextRunMs` is its job scheduler's next run. */
export function scheduleView(row: ScheduleRow, nextRunMs: number | null) {
  const webhook = row.request.webhook as { secret?: string | null } | undefined;
  return {
    id: row.id,
    owner: tenantName(row.owner),
    name: row.name,
    // a webhook's secret is never echoed
    crawl: webhook?.secret ? { ...row.request, webhook: { ...webhook, secret: '(set)' } } : row.request,
    every: row.every_ms === null ? null : formatEvery(row.every_ms),
    cron: row.cron,
    timezone: row.timezone,
    nextRunAt: nextRunMs === null ? null : new Date(nextRunMs).toISOString(),
    runs: row.runs,
    skippedRuns: row.skipped_runs,
    lastCrawlId: row.last_crawl_id,
    lastRunAt: iso(row.last_run_at),
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    _links: {
      self: `/v1/schedules/${row.id}`,
      lastCrawl: row.last_crawl_id ? `/v1/crawls/${row.last_crawl_id}` : null,
    },
  };
}
