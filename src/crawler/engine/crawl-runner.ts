// One runner drives a crawl from one worker: it leases frontier URLs from the shared store (politeness slots
// keep per-host limits across every worker), fetches them, parses HTML, and writes each outcome back with the
// links it found. Several runners, in one process or many, work on one crawl at once; a crashed runner's
// leases expire and others pick its URLs up. Layers: robots → fetch → parse → record (crawlee's habit).
import { setMaxListeners } from 'node:events';
import { InputError } from '../../errors.js';
import { DEFAULT_MAX_BODY_BYTES, fetchesImages } from '../crawl-request.js';
import { plainMainText } from '../extract/index.js';
import {
  type BodyBudget,
  type BudgetHold,
  encodeText,
  type Fetcher,
  type FetchResult,
} from '../fetch/index.js';
import { canonicalizeUrl } from '../frontier/canonicalize.js';
import { CrawlScope, type ScopeVerdict } from '../frontier/scope.js';
import { LruMap } from '../lru-map.js';
import { LINK_FORMS_REMEMBERED, type ParsedPage, parseHtml } from '../parse/parse-html.js';
import { textPage } from '../parse/text-page.js';
import type { PageRenderer } from '../render/port.js';
import { productToken } from '../robots/index.js';
import { pgSafeText } from '../text/pg-safe.js';
import { compareTexts, type TextComparison } from '../text/simhash.js';
import { crawlEnding } from './crawl-outcome.js';
import { type HeldSlot, HostTurns } from './host-turns.js';
import { type LinkRules, originOf, selectLinks } from './link-selection.js';
import {
  blankOutcome,
  bodyWanted,
  documentOutcome,
  type HtmlPageReading,
  htmlOutcome,
  type RedirectRefusal,
  readFetch,
  settleOutcome,
} from './page-outcome.js';
import { PageRendering } from './page-render.js';
import type {
  ClaimedPage,
  CrawlEventSink,
  CrawlSettings,
  CrawlStore,
  DiscoveredUrl,
  DocumentTextReader,
  FrontierLimits,
  HtmlPageReader,
  PageOutcome,
  StoredResponse,
  TextComparer,
} from './ports.js';
import {
  changeOf,
  conditionalHeaders,
  notModifiedOutcome,
  type PreviousVisit,
  previousLinksPage,
} from './recrawl.js';
import { checkRedirectTarget } from './redirect-guard.js';
import { type CorpusSource, PageRelevance } from './relevance.js';
import { SiteFiles, type SiteRobots } from './site-files.js';

export interface RunnerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface RunnerOptions {
  workerId: string;
  leaseSecs: number;
  fetcher: Pick<Fetcher, 'fetch'>;
  store: CrawlStore;
  log: RunnerLogger;
  /** Fetches this runner keeps in flight (its share of the crawl's concurrency). */
  concurrency: number;
  /**
   * Aborted when this process shuts down: the runner claims nothing more, gives its in-flight pages
   * `graceMs` to finish, then aborts the rest (their URLs go back to the frontier) and returns 'aborted'.
   */
  signal: AbortSignal;
  /** How long in-flight pages may still run after `signal` is aborted; default 0 (abort them at once). */
  graceMs?: number;
  /** Stored TF-IDF corpora, for crawls that name one. */
  corpora?: CorpusSource;
  /** Told of every page written and of the crawl's end. */
  events?: CrawlEventSink;
  /** The process's budget of body bytes in memory: each page holds its body's share until it is stored. */
  bodyBudget?: BodyBudget;
  /** Reads the text of downloaded documents (PDF, DOCX, PPTX, ODT); without it they are hashed, not read. */
  documentText?: DocumentTextReader;
  /**
   * Reads stored HTML pages in one walk, for their links and their main text (settings.mainText), off the
   * event loop; without it pages are parsed on the event loop and the text job reads each main text from its
   * stored body.
   */
  pageReader?: HtmlPageReader;
  /** Compares a recrawl's changed pages' main texts off the event loop; without it they are compared on it. */
  textComparer?: TextComparer;
  /** Headless Chromium, for crawls that render (absent: such a crawl fails at its start, saying why). */
  renderer?: PageRenderer;
}

export type RunnerExit = 'finished' | 'stopped' | 'aborted';

/** The verdict on every URL of a crawl whose stored scope cannot be built (it fails before any fetch). */
const NO_SCOPE: ScopeVerdict = Object.freeze({ inScope: false, reason: 'domain' });
const IDLE_POLL_MS = { min: 20, max: 1000 };
const BUSY_POLL_MS = 100;
const HEARTBEAT_MS = 5000;
const MAX_REMEMBERED_URLS = 500_000;
/**
 * HTML past its first 10 MiB (the default fetch.maxBytes) is stored but not parsed for links, text or score:
 * a parse holds the decoded text, its words and its links, several times the bytes parsed, so a crawl that
 * raises maxBytes to 100 MiB must not multiply that by ten. Search engines stop earlier (Googlebot: 15 MB).
 */
export const PARSE_MAX_BYTES = DEFAULT_MAX_BODY_BYTES;
/** A document's text is kept and scored up to this many characters, for the same reason. */
export const DOCUMENT_TEXT_MAX_CHARS = DEFAULT_MAX_BODY_BYTES;
/**
 * A page whose lease ran out this many times is recorded INVALID ("worker-lost") instead of being fetched
 * again: once, a page in flight beside a poison page may have been an innocent bystander, so it is retried
 * alone; twice, alone the second time, it is what kills workers.
 */
export const MAX_LEASE_EXPIRIES = 2;
export const WORKER_LOST = 'worker-lost';
/** The error of a page given up after repeated faults of our own: the details are logged, never shown. */
export const INTERNAL_FAULT = 'internal';

export { originOf } from './link-selection.js';

export class CrawlRunner {
  private readonly settings: CrawlSettings;
  private readonly options: RunnerOptions;
  private readonly scope: CrawlScope | null = null;
  /** Why the stored scope cannot be used (a crawl stored before scope patterns were RE2): it fails at start. */
  private readonly scopeFault: string | null = null;
  /** robots.txt and sitemaps of each origin, each request in its host's turn. */
  private readonly siteFiles: SiteFiles;
  /** The host slots this runner holds and the turns it waits for. */
  private readonly turns: HostTurns;
  private readonly siteIds = new Map<string, number>();
  private readonly linkForms = new LruMap<string, string | null>(LINK_FORMS_REMEMBERED);
  private readonly inFlight = new Set<Promise<void>>();
  /** Pages this runner holds leases on, with when each lease was last taken or renewed (ms). */
  private readonly leased = new Map<number, number>();
  private lastRenewalMs = Date.now();
  /** The last renewal failed: the next turn of the loop tries again. */
  private renewalFailing = false;
  /** A page retaken from a dead worker, waiting for this runner's other pages to finish before it runs alone. */
  private pendingSuspect: ClaimedPage | null = null;
  /** The suspect page is in flight: nothing else is claimed until it is done. */
  private isolating = false;
  /** Aborts in-flight fetches: when a shutdown's grace runs out and when the crawl stops being `running`. */
  private readonly halt = new AbortController();
  private lastStatusCheckMs = 0;
  private lastHeartbeatMs = Date.now();
  private wakeUp: (() => void) | null = null;
  private relevance: PageRelevance | null = null;
  /** How HTML pages are rendered, when the crawl renders them (set at the start of run()). */
  private rendering: PageRendering | null = null;
  /**
   * URLs this runner has already handed to the frontier: most links of a site point at pages queued long
   * ago, and skipping them spares the database a conflicting insert. Bounded; the database stays the
   * authority (its unique index), this only saves work.
   */
  private readonly queuedUrls = new Set<string>();

  constructor(settings: CrawlSettings, options: RunnerOptions) {
    this.settings = settings;
    this.options = options;
    // every in-flight fetch listens on this signal; concurrency may exceed Node's default listener warning
    setMaxListeners(0, this.halt.signal);
    this.turns = new HostTurns({
      store: options.store,
      workerId: options.workerId,
      leaseSecs: options.leaseSecs,
      signal: this.halt.signal,
      minDelayMs: settings.delayMs,
      onRelease: () => this.wake(),
    });
    this.siteFiles = new SiteFiles({
      settings,
      store: options.store,
      fetcher: options.fetcher,
      turns: this.turns,
      log: options.log,
      ...(options.events ? { events: options.events } : {}),
      siteIdsFor: (origins) => this.siteIdsFor(origins),
      inScope: (url, depth) => this.inScope(url, depth),
      fetchOptions: () => this.fetchOptions(),
      frontierLimits: () => this.frontierLimits,
    });
    try {
      this.scope = new CrawlScope({ seeds: settings.seeds, ...settings.scope, maxDepth: settings.maxDepth });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      this.scopeFault = `the crawl's stored scope cannot be used: ${error.message}`;
    }
  }

  /** Runs until the crawl is finished (by any runner), stopped (cancelled) or this runner is aborted. */
  async run(): Promise<RunnerExit> {
    const { signal } = this.options;
    // On shutdown: stop claiming at once (the loop wakes and ends), abort what still runs after the grace.
    let graceTimer: NodeJS.Timeout | undefined;
    const onShutdown = () => {
      graceTimer = setTimeout(() => this.halt.abort(), this.options.graceMs ?? 0);
      this.wake();
    };
    if (signal.aborted) onShutdown();
    else signal.addEventListener('abort', onShutdown, { once: true });
    try {
      return await this.runLoop();
    } finally {
      signal.removeEventListener('abort', onShutdown);
      clearTimeout(graceTimer);
    }
  }

  private async runLoop(): Promise<RunnerExit> {
    const { store, signal, workerId, leaseSecs, concurrency } = this.options;
    const { crawlId } = this.settings;
    await store.markRunning(crawlId);
    if (this.scopeFault !== null) {
      await store.finishCrawl(crawlId, 'failed', this.scopeFault);
      this.options.events?.crawlEnded({ crawlId, status: 'failed', error: this.scopeFault });
      return 'stopped';
    }
    if (this.settings.render && this.settings.render.mode !== 'never') {
      // a worker that cannot render fails the crawl once, at its start, rather than each page
      const fault = await this.startRendering().then(
        () => null,
        (error: unknown) => `render: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (signal.aborted) return 'aborted';
      if (fault !== null) {
        await store.finishCrawl(crawlId, 'failed', fault);
        this.options.events?.crawlEnded({ crawlId, status: 'failed', error: fault });
        return 'stopped';
      }
    }
    if (this.settings.relevance) {
      try {
        this.relevance = await PageRelevance.create(this.settings.relevance, {
          fetcher: this.options.fetcher,
          ...(this.options.corpora ? { corpora: this.options.corpora } : {}),
          userAgent: this.settings.userAgent,
          timeoutMs: this.settings.timeoutMs,
          signal: this.halt.signal,
        });
      } catch (error) {
        if (signal.aborted) return 'aborted';
        const message = `relevance scorer: ${error instanceof Error ? error.message : String(error)}`;
        await store.finishCrawl(crawlId, 'failed', message);
        this.options.events?.crawlEnded({ crawlId, status: 'failed', error: message });
        return 'stopped';
      }
    }
    while (!signal.aborted) {
      if (this.pendingSuspect !== null && this.inFlight.size === 0) {
        const suspect = this.pendingSuspect;
        this.pendingSuspect = null;
        this.isolating = true;
        this.track(this.process(suspect).finally(() => (this.isolating = false)));
      }
      await this.renewLeases();
      const room = this.pendingSuspect || this.isolating ? 0 : concurrency - this.inFlight.size;
      let claim = null;
      // With every fetch slot busy, still look at the crawl's status once a second so a cancel stops us.
      // a heartbeat: the orphan sweeper re-queues running crawls whose runners stopped reporting
      if (Date.now() - this.lastHeartbeatMs > HEARTBEAT_MS) {
        this.lastHeartbeatMs = Date.now();
        await store.markRunning(crawlId);
      }
      if (room > 0 || Date.now() - this.lastStatusCheckMs > 1000) {
        this.lastStatusCheckMs = Date.now();
        claim = await store.claim(crawlId, workerId, Math.max(room, 0), leaseSecs, this.inFlight.size === 0);
        if (claim.crawlStatus !== 'running') {
          this.halt.abort();
          await this.drain();
          if (
            claim.crawlStatus === 'completed' ||
            claim.crawlStatus === 'failed' ||
            claim.crawlStatus === 'cancelled'
          ) {
            this.options.events?.crawlEnded({ crawlId, status: claim.crawlStatus, error: null });
          }
          return 'stopped';
        }
        for (const page of claim.pages) {
          this.leased.set(page.id, Date.now());
          // A suspect comes alone; it waits for this runner's other pages unless it is only to be recorded.
          if (page.suspect && page.leaseExpiries < MAX_LEASE_EXPIRIES) this.pendingSuspect = page;
          else this.track(this.process(page));
        }
        if (claim.pages.length > 0) continue;
        if (claim.finished && this.inFlight.size === 0 && this.pendingSuspect === null) {
          const ending = crawlEnding(await store.seedReport(crawlId, this.canonicalSeeds()));
          await store.finishCrawl(crawlId, ending.status, ending.error, ending);
          this.options.events?.crawlEnded({ crawlId, status: ending.status, error: ending.error });
          return 'finished';
        }
      }
      // Our own pages finishing and slots we free wake us at once; the timer covers other runners' slots
      // and politeness delays running out.
      const fallbackMs = this.inFlight.size > 0 ? BUSY_POLL_MS : IDLE_POLL_MS.min;
      const waitMs = Math.min(IDLE_POLL_MS.max, Math.max(IDLE_POLL_MS.min, claim?.retryInMs ?? fallbackMs));
      await this.waitForProgress(waitMs);
    }
    // Shutdown: the pages in flight finish (or are aborted when the grace runs out, and give their URLs
    // back); then whatever this runner still leases is released, so the next runner need not wait for it.
    await this.drain();
    // a database fault here costs only the wait for those leases to expire, never the crawl
    await store
      .releaseLeases(crawlId, workerId)
      .catch((error: unknown) => this.options.log.warn({ err: error, crawlId }, 'releasing leases failed'));
    return 'aborted';
  }

  /** The seeds as the crawl's pages hold them. */
  private canonicalSeeds(): string[] {
    return this.settings.seeds.flatMap((seed) => canonicalizeUrl(seed) ?? []);
  }

  /** Starts the browser (lazily launched by the first crawl that renders) and the crawl's request rules. */
  private async startRendering(): Promise<void> {
    const { renderer } = this.options;
    const render = this.settings.render;
    if (!renderer || !render)
      throw new Error('this worker has no renderer (Chromium was not found at its start)');
    await renderer.ready();
    this.rendering = new PageRendering({
      render,
      userAgent: this.settings.userAgent,
      maxBytes: this.settings.maxBytes,
      renderer,
      fetcher: this.options.fetcher,
      refusal: (url) => this.subresourceRefusal(url),
    });
  }

  /**
   * Why a request of a rendered page may not be made: robots.txt of its host (read once per crawl, in a turn
   * of the host's like any robots.txt) disallows it, or the SSRF guard refused the host when robots.txt was
   * asked of it. The request itself is made off the host's turns (part of one page view).
   */
  private async subresourceRefusal(url: string): Promise<string | null> {
    if (!this.settings.respectRobots) return null;
    const origin = originOf(url);
    const sites = await this.siteIdsFor([origin]);
    const robots = await this.siteFiles.robotsFor(sites.get(origin) ?? -1, origin);
    if (robots.fetchError?.startsWith('blocked-address')) return robots.fetchError;
    return this.disallowedBecause(robots, url);
  }

  /** The crawl's scope verdict; nothing is in scope when the scope could not be built (the crawl fails). */
  private scopeVerdict(url: string, depth: number, foundOn?: string): ScopeVerdict {
    return this.scope?.check(url, depth, foundOn) ?? NO_SCOPE;
  }

  private inScope(url: string, depth: number, foundOn?: string): boolean {
    return this.scopeVerdict(url, depth, foundOn).inScope;
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      this.options.log.error({ err: error }, 'page processing failed');
    });
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }

  /** Ends a waitForProgress early: a politeness slot was freed, so there may be something to claim. */
  private wake(): void {
    // A wake that arrives while the loop is claiming is dropped on purpose: the claim in progress, or the
    // next poll, picks the slot up, and waking for every freed slot costs a claim per page: database CPU
    // that slows the crawl rather than speeding it.
    this.wakeUp?.();
  }

  /** Waits until one in-flight page completes, a slot is freed, or `ms` pass, whichever is first. */
  private async waitForProgress(ms: number): Promise<void> {
    if (this.options.signal.aborted) return;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const sleep = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      this.wakeUp = resolve;
      onAbort = resolve;
      this.halt.signal.addEventListener('abort', onAbort, { once: true });
    });
    await Promise.race([sleep, ...this.inFlight]);
    this.wakeUp = null;
    clearTimeout(timer);
    if (onAbort) this.halt.signal.removeEventListener('abort', onAbort);
  }

  private async drain(): Promise<void> {
    const suspect = this.pendingSuspect;
    this.pendingSuspect = null;
    if (suspect) {
      // never started: given back untouched, so its lease does not run out as if this worker had died
      this.leased.delete(suspect.id);
      await this.options.store
        .releasePage(this.settings.crawlId, this.options.workerId, suspect)
        .catch(() => {});
      await this.options.store.requestDone(this.settings.crawlId, suspect, 0, null).catch(() => {});
    }
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Keeps the leases of pages still in progress (a body waiting for the budget, a slow server) from running
   * out: a lease that runs out marks its page as one a worker died on. A renewal that failed (the database
   * unreachable) is tried again on every turn of the loop, so leases are renewed as soon as the connection is
   * back, not an interval later, when they may have run out.
   */
  private async renewLeases(): Promise<void> {
    const { leaseSecs, store, workerId } = this.options;
    const everyMs = (leaseSecs * 1000) / 3;
    const now = Date.now();
    if (!this.renewalFailing && now - this.lastRenewalMs < everyMs) return;
    this.lastRenewalMs = now;
    const due = [...this.leased].filter(([, sinceMs]) => now - sinceMs >= everyMs).map(([id]) => id);
    if (due.length === 0) {
      this.renewalFailing = false;
      return;
    }
    try {
      await store.renewLeases(this.settings.crawlId, workerId, due, leaseSecs);
      for (const id of due) if (this.leased.has(id)) this.leased.set(id, now);
      if (this.renewalFailing) this.options.log.info({ pages: due.length }, 'page leases renewed again');
      this.renewalFailing = false;
    } catch (error) {
      // once per run of failures: the loop retries at every turn
      if (!this.renewalFailing) this.options.log.warn({ err: error }, 'renewing page leases failed');
      this.renewalFailing = true;
    }
  }

  private async process(page: ClaimedPage): Promise<void> {
    // the page's body stays covered by the budget until its row is written (or the page is given back)
    const hold = this.options.bodyBudget?.hold();
    try {
      await this.processHolding(page, hold);
    } finally {
      hold?.release();
      this.leased.delete(page.id);
    }
  }

  private async processHolding(page: ClaimedPage, hold: BudgetHold | undefined): Promise<void> {
    const { store, workerId } = this.options;
    const { crawlId } = this.settings;
    // The host's politeness slot is freed as soon as its request is over, not after the page is parsed
    // and written: the delay counts from the end of the request, and the host's next URL need not wait
    // for our database writes. A redirect to another host trades this slot for one of that host's
    // (HostTurns.awaitHopTurn), so `held` is the slot held now, whichever host it belongs to.
    const held: { current: HeldSlot | null } = {
      current: { siteId: page.siteId, slot: page.slot, delayMs: 0 },
    };
    this.turns.hold(page.siteId);
    let slotReleased = false;
    /** `requested`: a request was made, so the host waits its delay; else the slot is free at once. */
    const requestDone = async (sha256: string | null, requested = true): Promise<number | null> => {
      if (slotReleased) return null;
      slotReleased = true;
      const slot = held.current;
      held.current = null;
      if (slot) this.turns.unhold(slot.siteId);
      // with no slot held (a redirect's wait for one was cut short) only the body's hash is registered
      const where = slot ? { ...page, siteId: slot.siteId, slot: slot.slot } : { ...page, siteId: -1 };
      const duplicateOf = await store.requestDone(
        crawlId,
        where,
        requested ? (slot?.delayMs ?? 0) : 0,
        sha256,
      );
      this.wake();
      return duplicateOf;
    };
    const releaseSlot = async (requested: boolean) => {
      await requestDone(null, requested);
    };
    try {
      const { policy: robots, fetchError } = await this.siteFiles.robotsFor(page.siteId, page.origin);
      if (held.current) held.current.delayMs = this.siteFiles.delayFor(robots);
      // a recrawl asks for a page it fetched before conditionally, and classifies what it finds; a page it
      // does not request keeps no class, so its earlier visit is not read
      let previous: PreviousVisit | null = null;
      const readPrevious = () =>
        this.settings.recrawlOf ? store.previousVisit(crawlId, page.id) : Promise.resolve(null);
      let outcome: PageOutcome;
      if (page.leaseExpiries >= MAX_LEASE_EXPIRIES) {
        previous = await readPrevious();
        // its workers died with it in hand, alone the last time: it is not fetched again
        await releaseSlot(false);
        outcome = blankOutcome('INVALID', { error: WORKER_LOST });
      } else if (fetchError?.startsWith('blocked-address')) {
        // the SSRF guard refused the host itself: say so, rather than blaming robots.txt
        await releaseSlot(false);
        outcome = blankOutcome('INVALID', { error: fetchError, requested: false });
      } else if (this.disallowedBecause({ policy: robots, fetchError }, page.url) !== null) {
        await releaseSlot(false);
        const error = this.disallowedBecause({ policy: robots, fetchError }, page.url);
        outcome = blankOutcome('DISALLOWED', { error, requested: false });
      } else {
        // robots.txt may have just been asked of this host: the page request waits the host's delay after it
        await this.turns.paceAfterLastRequest(page.origin, this.siteFiles.delayFor(robots));
        previous = await readPrevious();
        outcome = await this.fetchAndParse(page, held, (sha256) => requestDone(sha256), hold, previous);
      }
      if (this.halt.signal.aborted && outcome.type === 'INVALID' && outcome.error?.startsWith('aborted')) {
        await store.releasePage(crawlId, workerId, page);
        await releaseSlot(true);
        return;
      }
      // A capped crawl's graph holds only URLs it may crawl: robots.txt of each new host is read before
      // its links take room (docs/reference.md#strategies), rather than when they are leased.
      if (this.settings.maxDiscovered !== null) outcome.links = await this.withRobotsVerdicts(outcome.links);
      // the page's slot is free: sitemaps of the hosts whose robots.txt this page read may wait for turns
      await this.siteFiles.discoverPendingSitemaps();
      const disallowed = await store.completePage(crawlId, page, outcome, this.frontierLimits);
      const change = this.settings.recrawlOf ? changeOf(outcome, previous) : null;
      const text = change === 'changed' ? await this.compareWithEarlier(crawlId, page.id, outcome) : null;
      if (this.settings.recrawlOf) {
        await store.recordChange(crawlId, page.id, {
          change,
          notModified: previous !== null && outcome.status === 304,
          ...(text ? { text } : {}),
        });
      }
      for (const refused of disallowed) {
        this.options.events?.pageRecorded({
          crawlId,
          pageId: refused.id,
          url: refused.url,
          type: 'DISALLOWED',
          status: null,
          loadMs: null,
          bytes: null,
          score: null,
          queueWaitMs: 0,
          fetchedAt: outcome.fetchedAt,
        });
      }
      this.options.events?.pageRecorded({
        crawlId,
        pageId: page.id,
        url: page.url,
        type: outcome.type,
        status: outcome.status,
        loadMs: outcome.loadMs,
        bytes: outcome.bytes,
        score: outcome.score,
        queueWaitMs: Math.max(0, outcome.fetchedAt.getTime() - page.queuedAt.getTime()),
        fetchedAt: outcome.fetchedAt,
        ...(change ? { change } : {}),
        ...(text ? { text } : {}),
      });
      // remembered only once they are surely in the frontier (a failed write is retried with its links)
      for (const link of [...outcome.links, ...outcome.queuedImages]) {
        if (this.queuedUrls.size >= MAX_REMEMBERED_URLS) break;
        this.queuedUrls.add(link.url);
      }
    } catch (error) {
      if (this.halt.signal.aborted) {
        await store.releasePage(crawlId, workerId, page).catch(() => {});
        await releaseSlot(true).catch(() => {});
        return;
      }
      // A fault of ours or of the database (not of the network): give the URL back so it is tried again,
      // and after a few tries record it, so one bad page can neither be lost nor stall the crawl. The page
      // says only `internal`: what went wrong (a database message, say) is for the log, under its id.
      this.options.log.error(
        { err: error, crawlId, pageId: page.id, url: page.url, attempts: page.attempts },
        'crawl step failed',
      );
      await releaseSlot(true).catch(() => {});
      if (page.attempts < 3) {
        await store.releasePage(crawlId, workerId, page).catch(() => {});
        return;
      }
      await store.completePage(
        crawlId,
        page,
        blankOutcome('INVALID', { error: INTERNAL_FAULT, requested: false }),
        this.frontierLimits,
      );
    }
  }

  private get frontierLimits(): FrontierLimits {
    return {
      slots: this.settings.perHostConcurrency,
      maxDiscovered: this.settings.maxDiscovered,
      raiseOnRediscovery: this.settings.raiseOnRediscovery,
    };
  }

  /** Why robots.txt forbids `url` (RFC 9309), or null when it may be fetched. */
  private disallowedBecause(robots: SiteRobots, url: string): string | null {
    if (!this.settings.respectRobots || robots.policy.isAllowed(url, this.settings.userAgent)) return null;
    const { policy, fetchError } = robots;
    if (fetchError) return `robots.txt unreachable, so nothing may be fetched (RFC 9309): ${fetchError}`;
    if (policy.kind === 'disallow-all' && policy.status !== null && policy.status >= 500) {
      return `robots.txt answered ${policy.status}, so nothing may be fetched (RFC 9309)`;
    }
    return 'disallowed by robots.txt';
  }

  /**
   * A link's verdict when this runner already holds its host's robots.txt: a disallowed URL goes into the
   * crawl as DISALLOWED at once instead of being queued, leased and turned away. Unknown hosts: null.
   */
  private knownDisallowance(url: string): string | null {
    const robots = this.siteFiles.known(originOf(url));
    if (!robots || robots.fetchError?.startsWith('blocked-address')) return null;
    return this.disallowedBecause(robots, url);
  }

  /** `links` with the robots.txt verdict of every new link, its host's robots.txt fetched when unknown. */
  private async withRobotsVerdicts(links: DiscoveredUrl[]): Promise<DiscoveredUrl[]> {
    if (!this.settings.respectRobots) return links;
    const unknown = [
      ...new Set(
        links.filter((link) => !link.known && !this.siteFiles.known(link.origin)).map((l) => l.origin),
      ),
    ];
    if (unknown.length > 0) {
      const sites = await this.siteIdsFor(unknown);
      // a host whose robots.txt cannot be had is judged when its URLs are leased, as before
      await Promise.all(
        unknown.map((origin) => this.siteFiles.robotsFor(sites.get(origin) ?? -1, origin).catch(() => null)),
      );
    }
    return links.map((link) =>
      link.known || link.disallowed ? link : { ...link, disallowed: this.knownDisallowance(link.url) },
    );
  }

  private fetchOptions() {
    return {
      userAgent: this.settings.userAgent,
      timeoutMs: this.settings.timeoutMs,
      maxBytes: this.settings.maxBytes,
      retry: { attempts: this.settings.retries + 1, baseDelayMs: 500, maxDelayMs: 10_000 },
      signal: this.halt.signal,
    };
  }

  /**
   * Fetches and reads one page. `requestDone` must be called once the request is over (it frees the host's
   * slot) with the SHA-256 of an HTML body, and answers with the earlier page of the same body, if any.
   */
  private async fetchAndParse(
    page: ClaimedPage,
    held: { current: HeldSlot | null },
    requestDone: (sha256: string | null) => Promise<number | null>,
    hold: BudgetHold | undefined,
    previous: PreviousVisit | null,
  ): Promise<PageOutcome> {
    const { store } = this.options;
    const { crawlId, perHostConcurrency, userAgent } = this.settings;
    // Why a redirect stopped, when it did: the hop was refused by scope, robots.txt or deduplication.
    let refusal: RedirectRefusal | null = null;

    const options = this.fetchOptions();
    const result: FetchResult = await this.options.fetcher.fetch(page.url, {
      ...options,
      // a retry is a request to the host too
      retry: { ...options.retry, minDelayMs: held.current?.delayMs ?? this.settings.delayMs },
      ...(hold ? { budgetHold: hold } : {}),
      ...(previous ? { headers: conditionalHeaders(previous) } : {}),
      maxTextBytes: PARSE_MAX_BYTES,
      acceptBody: bodyWanted(this.settings.documents),
      beforeRedirect: async (_from, to) => {
        const checked = checkRedirectTarget(to, page.depth, (url, depth) => this.inScope(url, depth));
        if ('refusal' in checked) {
          refusal = checked.refusal;
          return { follow: false, reason: checked.refusal.reason };
        }
        const { target } = checked;
        const origin = originOf(target);
        const sites = await this.siteIdsFor([origin]);
        const siteId = sites.get(origin);
        if (siteId === undefined) throw new Error(`no site row for ${origin}`);
        // the hop's turn first: the new host's robots.txt, if this runner must read it, is a request too
        await this.turns.awaitHopTurn(held, siteId, origin, async () => {
          const { policy } = await this.siteFiles.robotsFor(siteId, origin);
          return this.siteFiles.delayFor(policy);
        });
        const { policy: robots } = await this.siteFiles.robotsFor(siteId, origin);
        if (this.settings.respectRobots && !robots.isAllowed(target, userAgent)) {
          refusal = { type: 'DISALLOWED', reason: `redirect to a URL robots.txt disallows: ${target}` };
          return { follow: false, reason: refusal.reason };
        }
        const reservation = await store.reserveRedirectTarget(
          crawlId,
          page.id,
          { url: target, origin, depth: page.depth },
          perHostConcurrency,
        );
        if (!reservation.reserved) {
          refusal = {
            type: 'DUPLICATE',
            reason: `redirects to a page already in the crawl: ${target}`,
            duplicateOf: reservation.existingPageId,
          };
          return { follow: false, reason: refusal.reason };
        }
        return { follow: true };
      },
    });

    const reading = readFetch(result, this.settings.documents);
    const stopped = refusal as RedirectRefusal | null;
    if (previous && !stopped && !result.error && result.status === 304) {
      // not modified: no body to hash or read; the page points at the earlier one's
      await requestDone(null);
      const notModified = notModifiedOutcome(reading.base, previous);
      // their weights came from the text, which a 304 does not send: they are queued at the least weight
      const selected = selectLinks(
        previousLinksPage(previous.links),
        {
          finalUrl: previous.finalUrl ?? previous.url,
          depth: page.depth,
          priority: page.priority,
          score: null,
        },
        { ...this.linkRules(), strategy: 'bfs' },
      );
      notModified.links = selected.links;
      notModified.skipped = selected.skipped;
      return { ...notModified, response: this.storedResponse(result, notModified) };
    }
    const original = await requestDone(
      !stopped && reading.ok && reading.read !== null ? reading.sha256 : null,
    );
    const settled = settleOutcome(result, reading, stopped, original);
    const threshold = this.settings.relevance?.threshold ?? 1;
    if (settled) {
      // kept for a WARC export before the body is handed to the document reader
      const withResponse = { ...settled, response: this.storedResponse(result, settled) };
      // the host's slot is free by now: a slow document keeps no other request of its host waiting
      if (settled.type !== 'BINARY' || reading.read !== 'document' || !result.body) return withResponse;
      const body = result.body;
      result.body = null;
      return this.readDocument(withResponse, body, hold, threshold);
    }
    // a text/plain page has no DOM to build; an HTML page of a crawl that renders is read in the browser
    if (this.rendering && reading.read !== 'text') return this.renderAndParse(page, result, reading, hold);
    // Read in a function of its own: the parse (text, words, links) is garbage before the awaits below, and
    // so is the decoded text, so a page in flight holds little more than its body and its main text. A
    // text/plain page is recorded as HTML (parsed, scored, counted) with its own content type: words, no links.
    const html = result.text ?? '';
    result.text = null;
    const { read, mainText } =
      reading.read === 'text'
        ? {
            read: this.readText(html),
            mainText: this.settings.mainText === null ? null : plainMainText(html),
          }
        : await this.readHtmlPage(html, result.finalUrl, page);
    const outcome = htmlOutcome(
      result,
      reading,
      read,
      this.settings.storeHtml ? result.body : null,
      threshold,
    );
    return { ...outcome, text: mainText, response: this.storedResponse(result, outcome) };
  }

  /**
   * What a WARC export writes of the response, when the crawl keeps it: its headers, and with storeEveryBody
   * the body of a page that is not HTML (an HTML body is the outcome's body; a copy's body is its original's).
   */
  private storedResponse(result: FetchResult, outcome: PageOutcome): StoredResponse | null {
    if (!this.settings.storeHeaders || result.status === null) return null;
    const keepBody =
      this.settings.storeEveryBody &&
      result.body !== null &&
      outcome.body === null &&
      outcome.type !== 'DUPLICATE';
    return {
      headers: Object.entries(result.headers),
      body: keepBody ? result.body : null,
    };
  }

  /** A text/plain page: its words scored, no title, links or images. */
  private readText(text: string) {
    const score = this.relevance ? this.relevance.score(textPage(text)) : null;
    return { title: null, score, links: [], images: [], queuedImages: [], skipped: [] };
  }

  /**
   * A downloaded document's text, read by the document reader (in processes of its own), and its score. The text takes the
   * body's place in the page's share of the memory budget (growing it when the text is the larger), beside the
   * body when a WARC export keeps it, until the page is stored; text the budget cannot cover is cut.
   */
  private async readDocument(
    binary: PageOutcome,
    body: Buffer,
    hold: BudgetHold | undefined,
    threshold: number,
  ): Promise<PageOutcome> {
    const reader = this.options.documentText;
    const dataType = binary.document?.dataType ?? null;
    if (!reader || dataType === null || !reader.reads(dataType)) return binary;
    const read = await reader.read(dataType, body, {
      maxChars: DOCUMENT_TEXT_MAX_CHARS,
      signal: this.halt.signal,
    });
    if ('error' in read) return documentOutcome(binary, { text: null, error: read.error }, null, threshold);
    let text = read.text;
    let error: string | null = read.truncated
      ? `document text cut at ${DOCUMENT_TEXT_MAX_CHARS} characters`
      : null;
    if (hold) {
      // a body kept for a WARC export stays in memory beside the text until the page is stored
      const keptBytes = binary.response?.body?.length ?? 0;
      const needBytes = keptBytes + Buffer.byteLength(text);
      if (needBytes <= hold.heldBytes) hold.shrinkTo(needBytes);
      else if (!(await hold.grow(needBytes - hold.heldBytes, this.halt.signal))) {
        // a character takes up to 3 bytes in UTF-8: this many surely fit in what is held
        text = text.slice(0, Math.floor((hold.heldBytes - keptBytes) / 3));
        error = `document text cut at ${text.length} characters: the worker's memory budget for bodies was full`;
      }
    }
    const score = this.relevance ? this.relevance.score(textPage(text)) : null;
    return documentOutcome(binary, { text, error }, score, threshold);
  }

  /**
   * An HTML page of a crawl that renders: rendered when the crawl says so (the fetch above stays the page's
   * record: status, headers, bytes, hash), and then its rendered DOM is what is parsed and stored (so text
   * extraction reads it too). loadMs is the fetch and the render together.
   */
  private async renderAndParse(
    page: ClaimedPage,
    result: FetchResult,
    reading: ReturnType<typeof readFetch>,
    hold: BudgetHold | undefined,
  ): Promise<PageOutcome> {
    const rendering = this.rendering!;
    const read = await rendering.read(result, hold, this.halt.signal);
    const html = read.html ?? result.text ?? '';
    result.text = null;
    const parsed = await this.readHtmlPage(html, read.finalUrl, page);
    const body = read.html !== null ? encodeText(read.html, result.charset) : result.body;
    const stored = this.settings.storeHtml ? body : null;
    const outcome = htmlOutcome(
      result,
      reading,
      parsed.read,
      stored,
      this.settings.relevance?.threshold ?? 1,
    );
    outcome.text = parsed.mainText;
    outcome.finalUrl = read.finalUrl;
    outcome.loadMs = read.record.fetchMs + (read.record.renderMs ?? 0);
    if (read.problem !== null)
      outcome.error = outcome.error ? `${outcome.error}; ${read.problem}` : read.problem;
    outcome.render = read.record;
    return { ...outcome, response: this.storedResponse(result, outcome) };
  }

  /**
   * A recrawl's changed page's main text against the earlier page's, when the earlier one is stored, as the page
   * is recorded: so its page.changed event can say whether its words changed. Null otherwise, and when the
   * comparer cannot: the text job compares the stored texts later (the same texts: both as stored).
   */
  private async compareWithEarlier(
    crawlId: string,
    pageId: number,
    outcome: PageOutcome,
  ): Promise<TextComparison | null> {
    if (outcome.text === null) return null;
    const earlier = await this.options.store.earlierMainText(crawlId, pageId);
    if (earlier === null) return null;
    const after = pgSafeText(outcome.text);
    const comparer = this.options.textComparer;
    return comparer ? comparer.compare(earlier, after) : compareTexts(earlier, after);
  }

  /**
   * An HTML page's reading (its first PARSE_MAX_BYTES, decoded) and its main text by the crawl's method. A crawl
   * that reads main text has the page reader walk the page once for both, off this thread; the page is parsed
   * here when the crawl reads none, or when the reader could not read it (its main text is then left to the
   * text job, which reads the stored body).
   */
  private async readHtmlPage(
    html: string,
    finalUrl: string,
    page: Pick<ClaimedPage, 'depth' | 'priority'>,
  ): Promise<{ read: HtmlPageReading; mainText: string | null }> {
    const method = this.settings.mainText;
    const reader = this.options.pageReader;
    const options = {
      robotsToken: productToken(this.settings.userAgent),
      // words are for scoring pages and weighing links by them; a plain crawl is spared their memory
      words: this.relevance !== null || this.settings.strategy === 'topic',
    };
    if (method !== null && reader && html.length > 0) {
      const read = await reader.read(html, finalUrl, { ...options, method });
      if (read) return { read: this.readParsed(read.parsed, finalUrl, page), mainText: read.mainText };
    }
    const parsed = parseHtml(html, finalUrl, {
      ...options,
      normalizeUrl: (absolute) => canonicalizeUrl(absolute),
      linkForms: this.linkForms,
    });
    return { read: this.readParsed(parsed, finalUrl, page), mainText: null };
  }

  /** An HTML page's title, score, links to queue and images, from its parse. */
  private readParsed(
    parsed: ParsedPage,
    finalUrl: string,
    page: Pick<ClaimedPage, 'depth' | 'priority'>,
  ): HtmlPageReading {
    const score = this.relevance ? this.relevance.score(parsed) : null;
    const { links, images, queuedImages, skipped } = selectLinks(
      parsed,
      { finalUrl, depth: page.depth, priority: page.priority, score },
      this.linkRules(),
    );
    const title = parsed.title ? parsed.title.slice(0, 1000) : null;
    return { title, score, links, images, queuedImages, skipped };
  }

  /** The rules link selection applies to this crawl's pages. */
  private linkRules(): LinkRules {
    return {
      ...this.settings,
      scope: (url, linkDepth, foundOn) => this.scopeVerdict(url, linkDepth, foundOn),
      known: (url) => this.queuedUrls.has(url),
      disallowed: (url) => this.knownDisallowance(url),
      // a crawl capped by pages discovered holds its first maxPages pages of the link graph: images would
      // take their room without being vertices of it
      fetchImages: fetchesImages(this.settings.documents) && this.settings.maxDiscovered === null,
    };
  }

  private async siteIdsFor(origins: string[]): Promise<Map<string, number>> {
    const missing = origins.filter((origin) => !this.siteIds.has(origin));
    if (missing.length > 0) {
      const created = await this.options.store.ensureSites(
        this.settings.crawlId,
        missing,
        this.settings.perHostConcurrency,
      );
      for (const [origin, id] of created) this.siteIds.set(origin, id);
    }
    return new Map(origins.map((origin) => [origin, this.siteIds.get(origin) ?? -1]));
  }
}
