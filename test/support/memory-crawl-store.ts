// The engine's CrawlStore port in memory, for unit tests of the runner's decisions without a database
// (platformatic/job-queue keeps a memory storage beside its PostgreSQL one for the same reason). Each method
// mirrors the SQL statement PgCrawlStore runs (named beside it); test/contract/crawl-store.contract.ts runs
// the same behaviours against both stores, so this double cannot drift from the real claim/lease/cap rules.

import type { CrawlProblem, SeedReport } from '../../src/crawler/engine/crawl-outcome.js';
import { linksToQueue } from '../../src/crawler/engine/link-selection.js';
import type {
  ChangeRecord,
  ClaimedPage,
  ClaimResult,
  CrawlEndNotes,
  CrawlStore,
  DiscoveredUrl,
  FrontierLimits,
  PageOutcome,
  PageType,
  RecordedDisallowed,
  StoredRobots,
} from '../../src/crawler/engine/ports.js';
import type { PreviousLink, PreviousVisit } from '../../src/crawler/engine/recrawl.js';

interface MemoryCrawl {
  status: string;
  error: string | null;
  problem?: CrawlProblem | null;
  warnings?: string[];
  maxPages: number;
  maxResults: number | null;
  claimedPages: number;
  relevantPages: number;
}

interface MemorySlot {
  nextFetchAt: number;
  leasedUntil: number | null;
  leasedBy: string | null;
}

interface MemorySite {
  id: number;
  crawlId: string;
  origin: string;
  robots: StoredRobots | null;
  crawlDelayMs: number | null;
  sitemaps: string[];
  slots: MemorySlot[];
}

/** A page row, as a test reads it back. */
export interface MemoryPage {
  id: number;
  crawlId: string;
  siteId: number;
  url: string;
  depth: number;
  priority: number;
  type: PageType;
  status: number | null;
  error: string | null;
  duplicateOf: number | null;
  discoveredFrom: number | null;
  finalUrl: string | null;
  score: number | null;
  result: boolean;
  queuedAt: Date;
  fetchedAt: Date | null;
  leasedUntil: number | null;
  leasedBy: string | null;
  attempts: number;
  leaseExpiries: number;
  outcome: PageOutcome | null;
}

/** A lease is live while its end is still ahead (the SQL's `leased_until >= now()`). */
function live(leasedUntil: number | null, now: number): boolean {
  return leasedUntil !== null && leasedUntil >= now;
}

export class MemoryCrawlStore implements CrawlStore {
  private readonly crawls = new Map<string, MemoryCrawl>();
  private readonly sites = new Map<number, MemorySite>();
  private readonly pageRows = new Map<number, MemoryPage>();
  /** "<crawl> <canonical url>" → page id: the closed set (the unique index of pages). */
  private readonly byUrl = new Map<string, number>();
  /** "<crawl> <sha256>" → the first page with that body (content_hashes). */
  private readonly hashes = new Map<string, number>();
  /** "<from> <to>" → anchor (links). */
  readonly links = new Map<string, string>();
  private nextSiteId = 1;
  private nextPageId = 1;

  /** A crawl as CrawlsRepository.create makes it: queued, its seeds' sites and FRONTIER pages. */
  async createCrawl(crawl: {
    id: string;
    seeds: string[];
    maxPages: number;
    maxResults?: number | null;
    slotsPerHost?: number;
  }): Promise<void> {
    this.crawls.set(crawl.id, {
      status: 'queued',
      error: null,
      maxPages: crawl.maxPages,
      maxResults: crawl.maxResults ?? null,
      claimedPages: 0,
      relevantPages: 0,
    });
    const seeds = crawl.seeds.map((url) => ({
      url,
      origin: new URL(url).origin,
      depth: 0,
      priority: 0,
      anchor: '',
    }));
    await this.enqueue(crawl.id, null, seeds, { slots: crawl.slotsPerHost ?? 1, maxDiscovered: null });
  }

  /** crawl_cancel.sql then crawl_release_leases.sql (CrawlsRepository.cancel). */
  async cancel(crawlId: string): Promise<boolean> {
    const crawl = this.crawls.get(crawlId);
    if (!crawl || (crawl.status !== 'queued' && crawl.status !== 'running')) return false;
    crawl.status = 'cancelled';
    for (const page of this.pagesOf(crawlId)) {
      if (page.leasedUntil !== null) Object.assign(page, { leasedUntil: null, leasedBy: null });
    }
    for (const slot of this.slotsOf(crawlId)) {
      if (slot.leasedUntil !== null) Object.assign(slot, { leasedUntil: null, leasedBy: null });
    }
    return true;
  }

  crawl(crawlId: string): Readonly<MemoryCrawl> | undefined {
    return this.crawls.get(crawlId);
  }

  /** The crawl's pages in id order. */
  pages(crawlId: string): MemoryPage[] {
    return this.pagesOf(crawlId);
  }

  site(siteId: number): Readonly<MemorySite> | undefined {
    return this.sites.get(siteId);
  }

  private pagesOf(crawlId: string): MemoryPage[] {
    return [...this.pageRows.values()].filter((page) => page.crawlId === crawlId);
  }

  private sitesOf(crawlId: string): MemorySite[] {
    return [...this.sites.values()].filter((site) => site.crawlId === crawlId);
  }

  private slotsOf(crawlId: string): MemorySlot[] {
    return this.sitesOf(crawlId).flatMap((site) => site.slots);
  }

  /** A slot the claim or a hop may lease: delay passed, no live lease, slot 0 only until robots.txt is known. */
  private slotFree(site: MemorySite, index: number, now: number): boolean {
    const slot = site.slots[index]!;
    return slot.nextFetchAt <= now && !live(slot.leasedUntil, now) && (site.robots !== null || index === 0);
  }

  /** Milliseconds until the earliest unleased slot's delay has passed (null: every slot is leased). */
  private retryIn(slots: MemorySlot[], now: number): number | null {
    const waits = slots.filter((slot) => !live(slot.leasedUntil, now)).map((slot) => slot.nextFetchAt - now);
    return waits.length === 0 ? null : Math.max(0, Math.min(...waits));
  }

  private budget(crawl: MemoryCrawl): number {
    if (crawl.maxResults !== null && crawl.relevantPages >= crawl.maxResults) return 0;
    return Math.max(crawl.maxPages - crawl.claimedPages, 0);
  }

  /** claim_frontier.sql, then frontier_state.sql when nothing was leased. */
  async claim(
    crawlId: string,
    workerId: string,
    max: number,
    leaseSecs: number,
    checkFinished = true,
  ): Promise<ClaimResult> {
    const crawl = this.crawls.get(crawlId);
    if (!crawl) return { crawlStatus: 'missing', pages: [], finished: false, retryInMs: null };
    const now = Date.now();
    const budget = this.budget(crawl);
    const candidates: Array<{ page: MemoryPage; slot: number; suspect: boolean }> = [];
    if (crawl.status === 'running') {
      for (const site of this.sitesOf(crawlId)) {
        const free = site.slots.map((_, index) => index).filter((index) => this.slotFree(site, index, now));
        if (free.length === 0) continue;
        const waiting = this.pagesOf(crawlId)
          .filter(
            (page) => page.siteId === site.id && page.type === 'FRONTIER' && !live(page.leasedUntil, now),
          )
          .sort((a, b) => b.priority - a.priority || a.id - b.id)
          .slice(0, free.length);
        waiting.forEach((page, rank) => {
          candidates.push({ page, slot: free[rank]!, suspect: page.leasedUntil !== null });
        });
      }
    }
    candidates.sort(
      (a, b) =>
        Number(b.suspect) - Number(a.suspect) || b.page.priority - a.page.priority || a.page.id - b.page.id,
    );
    const limit = max > 0 && candidates.some((c) => c.suspect) ? 1 : Math.min(max, budget);
    const pages: ClaimedPage[] = [];
    for (const { page, slot, suspect } of candidates.slice(0, Math.max(limit, 0))) {
      const site = this.sites.get(page.siteId)!;
      Object.assign(site.slots[slot]!, { leasedUntil: now + leaseSecs * 1000, leasedBy: workerId });
      page.leasedUntil = now + leaseSecs * 1000;
      page.leasedBy = workerId;
      page.attempts += 1;
      page.leaseExpiries += Number(suspect);
      if (page.attempts === 1) crawl.claimedPages += 1;
      pages.push({
        id: page.id,
        url: page.url,
        depth: page.depth,
        priority: page.priority,
        siteId: site.id,
        origin: site.origin,
        slot,
        queuedAt: page.queuedAt,
        attempts: page.attempts,
        suspect,
        leaseExpiries: page.leaseExpiries,
      });
    }
    if (pages.length > 0 || crawl.status !== 'running' || !checkFinished) {
      return { crawlStatus: crawl.status, pages, finished: false, retryInMs: null };
    }
    const frontier = this.pagesOf(crawlId).filter((page) => page.type === 'FRONTIER');
    const waiting = frontier.some((page) => !live(page.leasedUntil, now));
    const inFlight = frontier.some((page) => live(page.leasedUntil, now));
    return {
      crawlStatus: crawl.status,
      pages,
      finished: !inFlight && (!waiting || budget === 0),
      retryInMs: this.retryIn(this.slotsOf(crawlId), now),
    };
  }

  /** pages_renew_leases.sql */
  async renewLeases(_crawlId: string, workerId: string, pageIds: number[], leaseSecs: number): Promise<void> {
    const until = Date.now() + leaseSecs * 1000;
    const siteIds = new Set<number>();
    for (const id of pageIds) {
      const page = this.pageRows.get(id);
      if (!page || page.leasedBy !== workerId || page.type !== 'FRONTIER') continue;
      page.leasedUntil = until;
      siteIds.add(page.siteId);
    }
    for (const siteId of siteIds) {
      for (const slot of this.sites.get(siteId)!.slots) {
        if (slot.leasedBy === workerId && slot.leasedUntil !== null) slot.leasedUntil = until;
      }
    }
  }

  /** robots_load.sql */
  async loadRobots(siteId: number): Promise<StoredRobots | null> {
    return this.sites.get(siteId)?.robots ?? null;
  }

  /** robots_save.sql */
  async saveRobots(siteId: number, robots: StoredRobots, crawlDelayMs: number | null, sitemaps: string[]) {
    const site = this.sites.get(siteId);
    if (site) Object.assign(site, { robots, crawlDelayMs, sitemaps });
  }

  /** sites_by_origin.sql + sites_ensure.sql */
  async ensureSites(crawlId: string, origins: string[], slots: number): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    const now = Date.now();
    for (const origin of [...new Set(origins)].sort()) {
      let site = this.sitesOf(crawlId).find((s) => s.origin === origin);
      if (!site) {
        site = {
          id: this.nextSiteId++,
          crawlId,
          origin,
          robots: null,
          crawlDelayMs: null,
          sitemaps: [],
          slots: Array.from({ length: slots }, () => ({
            nextFetchAt: now,
            leasedUntil: null,
            leasedBy: null,
          })),
        };
        this.sites.set(site.id, site);
      }
      ids.set(origin, site.id);
    }
    return ids;
  }

  private insertPage(
    crawlId: string,
    fields: Pick<MemoryPage, 'siteId' | 'url' | 'depth' | 'priority' | 'type' | 'error' | 'duplicateOf'> & {
      discoveredFrom: number | null;
    },
  ): MemoryPage | null {
    const key = `${crawlId} ${fields.url}`;
    if (this.byUrl.has(key)) return null;
    const page: MemoryPage = {
      id: this.nextPageId++,
      crawlId,
      status: null,
      finalUrl: null,
      score: null,
      result: false,
      queuedAt: new Date(),
      fetchedAt: fields.type === 'FRONTIER' ? null : new Date(),
      leasedUntil: null,
      leasedBy: null,
      attempts: 0,
      leaseExpiries: 0,
      outcome: null,
      ...fields,
    };
    this.pageRows.set(page.id, page);
    this.byUrl.set(key, page.id);
    return page;
  }

  /** redirect_reserve.sql */
  async reserveRedirectTarget(
    crawlId: string,
    fromPageId: number,
    target: { url: string; origin: string; depth: number },
    slots: number,
  ): Promise<{ reserved: true } | { reserved: false; existingPageId: number }> {
    const sites = await this.ensureSites(crawlId, [target.origin], slots);
    const inserted = this.insertPage(crawlId, {
      siteId: sites.get(target.origin)!,
      url: target.url,
      depth: target.depth,
      priority: 0,
      type: 'DUPLICATE',
      error: null,
      duplicateOf: fromPageId,
      discoveredFrom: fromPageId,
    });
    if (inserted) return { reserved: true };
    const existing = this.pageRows.get(this.byUrl.get(`${crawlId} ${target.url}`)!)!;
    if (existing.type === 'FRONTIER' && !live(existing.leasedUntil, Date.now())) {
      Object.assign(existing, {
        type: 'DUPLICATE',
        duplicateOf: fromPageId,
        fetchedAt: new Date(),
        error: 'reached by redirect',
      });
      return { reserved: true };
    }
    return { reserved: false, existingPageId: existing.id };
  }

  /** host_slot_lease.sql */
  async leaseHostSlot(
    siteId: number,
    workerId: string,
    leaseSecs: number,
  ): Promise<{ slot: number } | { slot: null; retryInMs: number | null }> {
    const site = this.sites.get(siteId);
    if (!site) return { slot: null, retryInMs: null };
    const now = Date.now();
    const free = site.slots.findIndex((_, index) => this.slotFree(site, index, now));
    if (free >= 0) {
      Object.assign(site.slots[free]!, { leasedUntil: now + leaseSecs * 1000, leasedBy: workerId });
      return { slot: free };
    }
    return { slot: null, retryInMs: this.retryIn(site.slots, now) };
  }

  /** host_slot_release.sql */
  async releaseHostSlot(siteId: number, slot: number, delayMs: number): Promise<void> {
    const held = this.sites.get(siteId)?.slots[slot];
    if (held) Object.assign(held, { leasedUntil: null, leasedBy: null, nextFetchAt: Date.now() + delayMs });
  }

  /** request_done.sql */
  async requestDone(
    crawlId: string,
    page: ClaimedPage,
    nextFetchDelayMs: number,
    sha256: string | null,
  ): Promise<number | null> {
    await this.releaseHostSlot(page.siteId, page.slot, nextFetchDelayMs);
    if (sha256 === null) return null;
    const key = `${crawlId} ${sha256}`;
    if (!this.hashes.has(key)) this.hashes.set(key, page.id);
    const holder = this.hashes.get(key)!;
    return holder === page.id ? null : holder;
  }

  /** A recrawl's earlier pages, by the id of the page revisiting them (a test sets them: recrawl_enqueue.sql). */
  readonly previousVisits = new Map<number, Omit<PreviousVisit, 'links'>>();
  /** The links a recrawl's earlier pages recorded, by the id of the page revisiting them (a test sets them). */
  readonly previousLinksOf = new Map<number, PreviousLink[]>();
  /** Change classes recorded, by page id (page_record_change.sql). */
  readonly changes = new Map<number, ChangeRecord>();
  /** The main texts stored for a recrawl's earlier pages, by the id of the page revisiting them (a test sets them). */
  readonly earlierTexts = new Map<number, string>();

  /** page_previous_visit.sql. */
  async previousVisit(_crawlId: string, pageId: number): Promise<PreviousVisit | null> {
    const visit = this.previousVisits.get(pageId);
    return visit ? { ...visit, links: this.previousLinksOf.get(pageId) ?? [] } : null;
  }

  /** page_earlier_main_text.sql. */
  async earlierMainText(_crawlId: string, pageId: number): Promise<string | null> {
    return this.earlierTexts.get(pageId) ?? null;
  }

  /** page_record_change.sql. */
  async recordChange(_crawlId: string, pageId: number, change: ChangeRecord): Promise<void> {
    this.changes.set(pageId, change);
  }

  /** pages_enqueue*.sql for the new links, then page_complete.sql. */
  async completePage(
    crawlId: string,
    page: ClaimedPage,
    outcome: PageOutcome,
    frontier: FrontierLimits,
  ): Promise<RecordedDisallowed[]> {
    const toQueue = linksToQueue([...outcome.links, ...outcome.queuedImages], frontier);
    const disallowed = toQueue.length > 0 ? await this.enqueue(crawlId, page.id, toQueue, frontier) : [];
    const row = this.pageRows.get(page.id);
    const crawl = this.crawls.get(crawlId);
    if (!row || !crawl) return disallowed;
    const room = outcome.relevant && crawl.relevantPages < (crawl.maxResults ?? 2147483647);
    Object.assign(row, {
      type: outcome.type,
      status: outcome.status,
      error: outcome.error,
      duplicateOf: outcome.duplicateOf,
      finalUrl: outcome.finalUrl,
      fetchedAt: outcome.fetchedAt,
      score: outcome.score,
      result: room,
      leasedUntil: null,
      leasedBy: null,
      outcome,
    });
    for (const link of outcome.links) {
      const to = this.byUrl.get(`${crawlId} ${link.url}`);
      const key = `${row.id} ${to}`;
      if (to !== undefined && to !== row.id && !this.links.has(key)) this.links.set(key, link.anchor);
    }
    if (!outcome.requested) crawl.claimedPages = Math.max(crawl.claimedPages - 1, 0);
    if (room) crawl.relevantPages += 1;
    return disallowed;
  }

  /** page_release.sql */
  async releasePage(_crawlId: string, workerId: string, page: ClaimedPage): Promise<void> {
    const row = this.pageRows.get(page.id);
    if (row && row.leasedBy === workerId && row.type === 'FRONTIER') {
      Object.assign(row, { leasedUntil: null, leasedBy: null });
    }
  }

  /** runner_release_leases.sql */
  async releaseLeases(crawlId: string, workerId: string): Promise<void> {
    for (const page of this.pagesOf(crawlId)) {
      if (page.type === 'FRONTIER' && page.leasedBy === workerId) {
        Object.assign(page, { leasedUntil: null, leasedBy: null });
      }
    }
    for (const slot of this.slotsOf(crawlId)) {
      if (slot.leasedBy === workerId) Object.assign(slot, { leasedUntil: null, leasedBy: null });
    }
  }

  /** pages_enqueue.sql, pages_enqueue_raising.sql with raiseOnRediscovery, or pages_enqueue_capped.sql under maxDiscovered. */
  async enqueue(
    crawlId: string,
    fromPageId: number | null,
    urls: DiscoveredUrl[],
    frontier: FrontierLimits,
  ): Promise<RecordedDisallowed[]> {
    if (urls.length === 0) return [];
    const sites = await this.ensureSites(
      crawlId,
      urls.map((url) => url.origin),
      frontier.slots,
    );
    let rows: DiscoveredUrl[];
    if (frontier.maxDiscovered === null) {
      // URL order, as the SQL inserts them: ids follow it within one batch
      rows = [...urls].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
    } else {
      const counted = this.pagesOf(crawlId).filter(
        (page) =>
          page.type !== 'DISALLOWED' &&
          !(page.type === 'DUPLICATE' && page.status === null && page.duplicateOf !== null),
      ).length;
      const room = Math.max(frontier.maxDiscovered - counted, 0);
      // new URLs; the k-th one that may be crawled goes in while k fits in the room (document order)
      let k = 0;
      rows = urls.filter((url) => {
        if (this.byUrl.has(`${crawlId} ${url.url}`)) return false;
        if ((url.disallowed ?? null) !== null) return room > 0;
        k += 1;
        return room > 0 && k <= room;
      });
    }
    const recorded: RecordedDisallowed[] = [];
    for (const url of rows) {
      const known = this.byUrl.get(`${crawlId} ${url.url}`);
      if (known !== undefined) {
        const row = this.pageRows.get(known)!;
        if (frontier.raiseOnRediscovery && row.type === 'FRONTIER' && row.priority < url.priority)
          row.priority = url.priority;
        continue;
      }
      const page = this.insertPage(crawlId, {
        siteId: sites.get(url.origin)!,
        url: url.url,
        depth: url.depth,
        priority: url.priority,
        type: (url.disallowed ?? null) !== null ? 'DISALLOWED' : 'FRONTIER',
        error: url.disallowed ?? null,
        duplicateOf: null,
        discoveredFrom: fromPageId,
      });
      if (page?.type === 'DISALLOWED') recorded.push({ id: page.id, url: page.url, error: page.error ?? '' });
    }
    return recorded;
  }

  /** crawl_mark_running.sql */
  async markRunning(crawlId: string): Promise<void> {
    const crawl = this.crawls.get(crawlId);
    if (crawl && (crawl.status === 'queued' || crawl.status === 'running')) crawl.status = 'running';
  }

  /** crawl_finish.sql */
  async finishCrawl(
    crawlId: string,
    status: 'completed' | 'failed',
    error: string | null,
    notes: CrawlEndNotes = { problem: null, warnings: [] },
  ): Promise<void> {
    const crawl = this.crawls.get(crawlId);
    if (crawl && (crawl.status === 'queued' || crawl.status === 'running')) {
      Object.assign(crawl, { status, error, problem: notes.problem, warnings: notes.warnings });
    }
  }

  /** crawl_seed_report.sql */
  async seedReport(crawlId: string, seedUrls: string[]): Promise<SeedReport> {
    const pages = [...this.pageRows.values()].filter((page) => page.crawlId === crawlId);
    const seeds = new Set(seedUrls);
    return {
      seeds: pages
        .filter((page) => seeds.has(page.url))
        .map(({ url, type, status, error }) => ({ url, type, status, error })),
      anyResponse: pages.some((page) => page.status !== null),
    };
  }
}
