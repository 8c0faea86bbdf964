// Use cases of the crawl resource: start a crawl, list them, cancel one; its status (crawl-status.ts), its
// pages (crawl-pages.ts) and its link graph (crawl-graph.ts) are read by parts of their own, which this
// service puts behind the one object routes and other services call. Knows nothing of HTTP.

import { randomUUID } from 'node:crypto';
import {
  type GivenCrawlRequest,
  normalizeCrawlRequest,
  recrawlRequest,
  validateCrawlRequest,
} from '../../crawler/crawl-request.js';
import { REVISIT_PRIORITY } from '../../crawler/engine/recrawl.js';
import type { GraphBuilderOptions } from '../../crawler/rank/graph.js';
import { type TextSettingsRecord, WordModel } from '../../crawler/text/word-model.js';
import { isFinished } from '../../crawler/vocabulary.js';
import { ActiveCrawlLimitError, type CrawlRow, type CrawlsRepository } from '../../db/crawls-repo.js';
import { listScope, scopeOwner, type TenantScope, tenantScope } from '../../db/tenant-scope.js';
import { InputError, TrawlError } from '../../errors.js';
import { queueCrawlRunners } from '../../jobs/producers.js';
import type { JobBackend } from '../../jobs/queues.js';
import type { CrawlRequest, MissingPagesQuery, PageListQuery } from '../../schemas/crawls.js';
import type { StoredPageContent } from '../content/page-content.js';
import {
  type CreatedAtCursor,
  type NewestFirstQuery,
  paginateNewestFirst,
} from '../presentation/pagination.js';
import { type CrawlStatusView, crawlLinkFields, crawlSummaryView } from '../presentation/views.js';
import { requireMatchingTextSettings } from './corpora.js';
import { CrawlChangeReads } from './crawl-changes.js';
import { CrawlGraphReads } from './crawl-graph.js';
import { CrawlPageReads, type CrawlPageReadsOptions } from './crawl-pages.js';
import { type CrawlGraph, type CrawlReader, requireCrawl } from './crawl-reader.js';
import { CrawlStatusReads } from './crawl-status.js';
import type { RunningCap } from './quotas.js';

export interface CrawlServiceOptions {
  repository: CrawlsRepository;
  jobs: JobBackend;
  defaultUserAgent: string;
  /** Per API key: crawls it may have queued or running at once (0 or unset: no cap; open mode: no cap). */
  maxRunningCrawlsPerKey?: number;
  /** Per-key quotas: a 403 over a monthly or storage limit, and the running cap a start is held to. */
  quotas?: { beforeStart(owner: string | null): Promise<RunningCap> };
  /** CRAWL_RETENTION_DAYS: ended crawls are purged this long after; a request may ask for fewer days only. */
  retentionDays?: number | null;
  /** Whether a live worker can render pages: a crawl asking to render is refused (422) when none can. */
  renderers?: { anyCanRender(): Promise<boolean> };
  /** Main text of a page for ?include=text (CrawlStatsService: stored by the text job, or extracted now). */
  mainText?: CrawlPageReadsOptions['mainText'];
  /** Stored bodies, texts and Markdown of pages (page-content.ts, which the export reads through too). */
  content?: StoredPageContent;
  /** Stored corpora, to check that `relevance.corpus` names one the caller may read. */
  corpora?: {
    get(id: string, scope: TenantScope): Promise<{ text_settings: TextSettingsRecord | null } | null>;
  };
  /** Told when a crawl is cancelled (webhooks: a crawl cancelled while queued has no runner to tell). */
  onCancelled?: (crawlId: string) => void;
}

/**
 * Retry-After of a start refused by the running-crawls cap: when a crawl ends cannot be known, so this is a
 * polite interval to ask again at (crawls run for minutes), not a promise.
 */
const RUNNING_CAP_RETRY_AFTER_SECS = 30;

// Tenancy: every method takes the caller's `scope` (tenant-scope.ts: a request's tenantScope, or INTERNAL_SCOPE
// for workers and jobs), required so that no call can forget it. A crawl of another owner is "not found", never
// "forbidden", so ids do not leak.
export class CrawlService implements CrawlReader {
  readonly #status: CrawlStatusReads;
  readonly #pages: CrawlPageReads;
  readonly #graph: CrawlGraphReads;
  readonly #changes: CrawlChangeReads;

  constructor(private readonly options: CrawlServiceOptions) {
    const { repository, content, mainText } = options;
    this.#status = new CrawlStatusReads({ repository, retentionDays: options.retentionDays ?? null });
    this.#pages = new CrawlPageReads({
      repository,
      ...(content ? { content } : {}),
      ...(mainText ? { mainText } : {}),
    });
    this.#graph = new CrawlGraphReads({ repository });
    this.#changes = new CrawlChangeReads({ repository, ...(mainText ? { mainText } : {}) });
  }

  /** `scheduleId`: the schedule whose run this crawl is (schedules.ts). */
  async create(request: CrawlRequest, scope: TenantScope, made: { scheduleId?: string } = {}) {
    const given = request.recrawl ? await this.#recrawlRequest(request, scope) : request;
    const { normalized, seeds } = await this.#checked(given, scope);
    // a crawl no live worker could render would only fail at its start: refused now, naming the field
    if (normalized.render.mode !== 'never' && this.options.renderers) {
      if (!(await this.options.renderers.anyCanRender())) {
        throw new TrawlError(
          'unprocessable',
          'no live worker can render pages (none found Chromium at its start): use render "never", or start a worker with Chromium',
          { field: 'render' },
        );
      }
    }
    const id = randomUUID();
    const owner = scopeOwner(scope);
    const cap: RunningCap = this.options.quotas
      ? await this.options.quotas.beforeStart(owner)
      : { value: this.options.maxRunningCrawlsPerKey ?? 0, source: 'server' };
    let row: CrawlRow;
    try {
      row = await this.options.repository.create({
        id,
        request: normalized,
        strategy: normalized.strategy,
        maxPages: normalized.maxPages,
        seeds,
        slotsPerHost: normalized.politeness.perHostConcurrency,
        recrawl: normalized.recrawl ? { of: normalized.recrawl.of, priority: REVISIT_PRIORITY } : null,
        owner,
        maxActivePerOwner: cap.value,
        scheduleId: made.scheduleId ?? null,
      });
    } catch (error) {
      if (!(error instanceof ActiveCrawlLimitError)) throw error;
      const whose =
        cap.source === 'key' ? 'its runningCrawls limit' : 'the limit is MAX_RUNNING_CRAWLS_PER_KEY';
      throw new TrawlError(
        'rate_limited',
        `this API key already has ${error.active} crawls queued or running (${whose}, ${cap.value}); wait for one to finish or cancel one`,
        {
          detail: {
            limit: 'runningCrawls',
            value: cap.value,
            used: error.active,
            retryAfterSecs: RUNNING_CAP_RETRY_AFTER_SECS,
          },
        },
      );
    }
    try {
      await queueCrawlRunners(this.options.jobs, id, normalized.workers);
    } catch (error) {
      // Undo the crawl, so it neither counts against the key's running crawls nor surprises a client told
      // 503 by running later. If the database fails too, the orphan sweeper queues its runners later.
      await this.options.repository.deleteQueued(id).catch(() => {});
      throw new TrawlError('unavailable', 'the job queue is not answering; the crawl was not started', {
        cause: error,
      });
    }
    return { id: row.id, status: 'queued' as const, ...crawlLinkFields(row.id) };
  }

  /**
   * A request as the crawl would run it, checked (each fault a 400 or 404 naming its field): normalized, its
   * seeds canonical, its corpus one `scope`'s owner may read. Whether a worker can render is left to create.
   */
  async check(request: CrawlRequest, scope: TenantScope): Promise<void> {
    await this.#checked(request, scope);
  }

  async #checked(given: GivenCrawlRequest, scope: TenantScope) {
    const normalized = normalizeCrawlRequest(given, this.options.defaultUserAgent);
    // checked here so a bad request is a 400, not a failed crawl later
    const seeds = validateCrawlRequest(normalized);
    const serverDays = this.options.retentionDays ?? null;
    if (normalized.retention && serverDays !== null && normalized.retention.days > serverDays) {
      throw new InputError(
        `retention.days is at most ${serverDays} on this server (CRAWL_RETENTION_DAYS), got ${normalized.retention.days}`,
        'retention.days',
        { limit: serverDays },
      );
    }
    const corpusId = normalized.relevance?.corpus;
    // another tenant's corpus is "not found", as on every other route: neither read nor confirmed to exist.
    // Seen with the scope of the crawl's owner, so a crawl made internally (owned by no key) needs a keyless corpus.
    if (corpusId && this.options.corpora) {
      const corpus = await this.options.corpora.get(corpusId, tenantScope(scopeOwner(scope)));
      if (!corpus)
        throw new TrawlError('not_found', `no corpus with id ${corpusId}`, { field: 'relevance.corpus' });
      // a corpus counts words one way: the crawl must make them the same way (a 409 naming the difference)
      requireMatchingTextSettings(
        { id: corpusId, textSettings: corpus.text_settings },
        WordModel.of(normalized.relevance ?? {}),
        'relevance.corpus',
      );
    }
    return { normalized, seeds };
  }

  /**
   * A recrawl's request: the earlier crawl's, each field given overriding (crawl-request.ts recrawlRequest). The
   * earlier crawl must be one the caller sees (else 404, as any other crawl of another owner) and finished
   * (409): a running crawl's pages are not all known yet.
   */
  async #recrawlRequest(request: CrawlRequest, scope: TenantScope): Promise<GivenCrawlRequest> {
    const of = request.recrawl?.of ?? '';
    const earlier = await this.options.repository.get(of, scope);
    if (!earlier) throw new TrawlError('not_found', `no crawl with id ${of}`, { field: 'recrawl.of' });
    if (!isFinished(earlier.status)) {
      throw new TrawlError(
        'conflict',
        `crawl ${of} is ${earlier.status}: only a finished crawl can be recrawled`,
        {
          field: 'recrawl.of',
        },
      );
    }
    return recrawlRequest(earlier.request, request);
  }

  /** Throws not_found unless the crawl exists and `scope` may see it (for services acting on a crawl). */
  async requireVisible(id: string, scope: TenantScope): Promise<void> {
    await requireCrawl(this.options.repository, id, scope);
  }

  /** What the crawl stores (crawl-status.ts: kept once finished, measured at most every few seconds before). */
  storage(
    id: string,
    row: Pick<CrawlRow, 'status' | 'storage'> & { request?: Pick<CrawlRow['request'], 'extract'> },
  ) {
    return this.#status.storage(id, row);
  }

  /** Drops what this process keeps of the crawl's status (it is being purged). */
  forgetStatus(id: string): void {
    this.#status.forget(id);
  }

  /** The crawl's status view (crawl-status.ts: kept once finished, its timings refreshed while it runs). */
  status(id: string, scope: TenantScope): Promise<CrawlStatusView> {
    return this.#status.status(id, scope);
  }

  /** A page of the list `scope` sees; `query.owner` narrows it to one tenant's (tenant-scope.ts listScope). */
  async list(query: NewestFirstQuery, scope: TenantScope) {
    const listed = listScope(scope, query.owner?.toLowerCase());
    const read = (after: CreatedAtCursor | null, rows: number) =>
      this.options.repository.list(rows, after, listed);
    return paginateNewestFirst('/v1/crawls', query, read, crawlSummaryView);
  }

  async cancel(id: string, scope: TenantScope) {
    const row = await requireCrawl(this.options.repository, id, scope);
    if (!(await this.options.repository.cancel(id))) {
      throw new TrawlError('conflict', `crawl ${id} has already ended (${row.status})`);
    }
    this.options.onCancelled?.(id);
    return this.status(id, scope);
  }

  /** A page of the crawl's pages, with their text or Markdown when asked (crawl-pages.ts). */
  pages(id: string, query: PageListQuery, scope: TenantScope) {
    return this.#pages.pages(id, query, scope);
  }

  /** One page in full (crawl-pages.ts). */
  page(id: string, pageId: number, include: string | undefined, scope: TenantScope) {
    return this.#pages.page(id, pageId, include, scope);
  }

  /** A recrawled page's main text against its earlier version (crawl-changes.ts). */
  diff(id: string, pageId: number, scope: TenantScope) {
    return this.#changes.diff(id, pageId, scope);
  }

  /** The earlier pages a recrawl never reached (crawl-changes.ts). */
  missing(id: string, query: MissingPagesQuery, scope: TenantScope) {
    return this.#changes.missing(id, query, scope);
  }

  /** The PNG of a rendered page (crawl-pages.ts). */
  screenshot(id: string, pageId: number, scope: TenantScope): Promise<Buffer> {
    return this.#pages.screenshot(id, pageId, scope);
  }

  /** The per-host view of a crawl (crawl-pages.ts). */
  hosts(id: string, limit: number, scope: TenantScope) {
    return this.#pages.hosts(id, limit, scope);
  }

  /** The crawl's link graph in typed arrays (crawl-graph.ts). */
  linkGraph(id: string, scope: TenantScope, options: GraphBuilderOptions = {}): Promise<CrawlGraph> {
    return this.#graph.linkGraph(id, scope, options);
  }

  /** The crawl's link graph as the edges file, in chunks (crawl-graph.ts). */
  edgesFile(id: string, scope: TenantScope): Promise<AsyncIterable<string>> {
    return this.#graph.edgesFile(id, scope);
  }
}
