// One runner drives a crawl from one worker: it leases frontier URLs from the shared store (politeness slots
// keep per-host limits across every worker), fetches them, parses HTML, and writes each outcome back with the
// links it found. Several runners, in one process or many, work on one crawl at once; a crashed runner's
// leases expire and others pick its URLs up. Layers: robots → fetch → parse → record (crawlee's habit).
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Fetcher, FetchResult } from '../fetch/index.js';
import { canonicalizeUrl, urlTooLong } from '../frontier/canonicalize.js';
import { CrawlScope } from '../frontier/scope.js';
import { documentTypeFor } from '../frontier/url-kind.js';
import { type ParsedPage, parseHtml } from '../parse/parse-html.js';
import { fetchRobots, productToken, RobotsPolicy, robotsUrlFor } from '../robots/index.js';
import { topicLinkWeights } from '../score/index.js';
import { discoverSitemapUrls } from '../sitemap/index.js';
import type {
  ClaimedPage,
  CrawlEventSink,
  CrawlSettings,
  CrawlStore,
  DiscoveredUrl,
  FrontierLimits,
  PageOutcome,
  SkippedUrl,
} from './ports.js';
import { type CorpusSource, PageRelevance } from './relevance.js';

const gzip = promisify(gzipCallback);

export interface RunnerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface RunnerOptions {
  workerId: string;
  leaseSecs: number;
  fetcher: Fetcher;
  store: CrawlStore;
  log: RunnerLogger;
  /** Fetches this runner keeps in flight (its share of the crawl's concurrency). */
  concurrency: number;
  /** Aborted on shutdown or cancellation: in-flight pages go back to the frontier. */
  signal: AbortSignal;
  /** Stored TF-IDF corpora, for crawls that name one. */
  corpora?: CorpusSource;
  /** Told of every page written and of the crawl's end. */
  events?: CrawlEventSink;
}

export type RunnerExit = 'finished' | 'stopped' | 'aborted';

interface SiteRobots {
  policy: RobotsPolicy;
  /** Why robots.txt could not be read ("code: message"), when it could not. */
  fetchError: string | null;
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)\b/i;
const IDLE_POLL_MS = { min: 20, max: 1000 };
const BUSY_POLL_MS = 100;
const HEARTBEAT_MS = 5000;
const MAX_REMEMBERED_URLS = 500_000;
/** The error of a page given up after repeated faults of our own: the details are logged, never shown. */
export const INTERNAL_FAULT = 'internal';
/** Characters of a skipped URL kept to show it by (canonical URLs are ASCII, so a cut splits nothing). */
const SKIPPED_URL_HEAD = 300;

export function originOf(url: string): string {
  return new URL(url).origin;
}

export class CrawlRunner {
  private readonly settings: CrawlSettings;
  private readonly options: RunnerOptions;
  private readonly scope: CrawlScope;
  private readonly robotsBySite = new Map<number, Promise<SiteRobots>>();
  /** The robots.txt verdicts this runner has in hand, by origin (filled as robotsFor resolves). */
  private readonly knownRobots = new Map<string, SiteRobots>();
  private readonly siteIds = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Aborts in-flight fetches: on shutdown (options.signal) and when the crawl stops being `running`. */
  private readonly halt = new AbortController();
  private lastStatusCheckMs = 0;
  private lastHeartbeatMs = Date.now();
  private wakeUp: (() => void) | null = null;
  private relevance: PageRelevance | null = null;
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
    if (options.signal.aborted) this.halt.abort();
    options.signal.addEventListener('abort', () => this.halt.abort(), { once: true });
    this.scope = new CrawlScope({
      seeds: settings.seeds,
      ...settings.scope,
      maxDepth: settings.maxDepth,
    });
  }

  /** Runs until the crawl is finished (by any runner), stopped (cancelled) or this runner is aborted. */
  async run(): Promise<RunnerExit> {
    const { store, signal, workerId, leaseSecs, concurrency } = this.options;
    const { crawlId } = this.settings;
    await store.markRunning(crawlId);
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
      const room = concurrency - this.inFlight.size;
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
        for (const page of claim.pages) this.track(this.process(page));
        if (claim.pages.length > 0) continue;
        if (claim.finished && this.inFlight.size === 0) {
          await store.finishCrawl(crawlId, 'completed', null);
          this.options.events?.crawlEnded({ crawlId, status: 'completed', error: null });
          return 'finished';
        }
      }
      // Our own pages finishing and slots we free wake us at once; the timer covers other runners' slots
      // and politeness delays running out.
      const fallbackMs = this.inFlight.size > 0 ? BUSY_POLL_MS : IDLE_POLL_MS.min;
      const waitMs = Math.min(IDLE_POLL_MS.max, Math.max(IDLE_POLL_MS.min, claim?.retryInMs ?? fallbackMs));
      await this.waitForProgress(waitMs);
    }
    await this.drain();
    return 'aborted';
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
    // next poll, picks the slot up, and waking for every freed slot costs a claim per page (measured: more
    // database CPU, fewer pages/s on the crawl benchmark).
    this.wakeUp?.();
  }

  /** Waits until one in-flight page completes, a slot is freed, or `ms` pass, whichever is first. */
  private async waitForProgress(ms: number): Promise<void> {
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
    await Promise.allSettled([...this.inFlight]);
  }

  private async process(page: ClaimedPage): Promise<void> {
    const { store, workerId } = this.options;
    const { crawlId } = this.settings;
    // The host's politeness slot is freed as soon as its request is over, not after the page is parsed
    // and written: the delay counts from the end of the request, and the host's next URL need not wait
    // for our database writes.
    let slotReleased = false;
    const requestDone = async (delayMs: number, sha256: string | null): Promise<number | null> => {
      if (slotReleased) return null;
      slotReleased = true;
      const duplicateOf = await store.requestDone(crawlId, page, delayMs, sha256);
      this.wake();
      return duplicateOf;
    };
    const releaseSlot = async (delayMs: number) => {
      await requestDone(delayMs, null);
    };
    try {
      const { policy: robots, fetchError } = await this.robotsFor(page.siteId, page.origin);
      let outcome: PageOutcome;
      if (fetchError?.startsWith('blocked-address')) {
        // the SSRF guard refused the host itself: say so, rather than blaming robots.txt
        await releaseSlot(0);
        outcome = blankOutcome('INVALID', { error: fetchError, requested: false });
      } else if (this.disallowedBecause({ policy: robots, fetchError }, page.url) !== null) {
        await releaseSlot(0);
        const error = this.disallowedBecause({ policy: robots, fetchError }, page.url);
        outcome = blankOutcome('DISALLOWED', { error, requested: false });
      } else {
        outcome = await this.fetchAndParse(page, (sha256) => requestDone(this.delayFor(robots), sha256));
      }
      if (this.halt.signal.aborted && outcome.type === 'INVALID' && outcome.error?.startsWith('aborted')) {
        await store.releasePage(crawlId, workerId, page);
        await releaseSlot(0);
        return;
      }
      const disallowed = await store.completePage(crawlId, page, outcome, this.frontierLimits);
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
      });
      // remembered only once they are surely in the frontier (a failed write is retried with its links)
      for (const link of outcome.links) {
        if (this.queuedUrls.size >= MAX_REMEMBERED_URLS) break;
        this.queuedUrls.add(link.url);
      }
    } catch (error) {
      if (this.halt.signal.aborted) {
        await store.releasePage(crawlId, workerId, page).catch(() => {});
        await releaseSlot(0).catch(() => {});
        return;
      }
      // A fault of ours or of the database (not of the network): give the URL back so it is tried again,
      // and after a few tries record it, so one bad page can neither be lost nor stall the crawl. The page
      // says only `internal`: what went wrong (a database message, say) is for the log, under its id.
      this.options.log.error(
        { err: error, crawlId, pageId: page.id, url: page.url, attempts: page.attempts },
        'crawl step failed',
      );
      await releaseSlot(0).catch(() => {});
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
    return { slots: this.settings.perHostConcurrency, maxDiscovered: this.settings.maxDiscovered };
  }

  private delayFor(robots: RobotsPolicy): number {
    const crawlDelayMs = robots.crawlDelayMs(this.settings.userAgent) ?? 0;
    return Math.max(this.settings.delayMs, Math.min(crawlDelayMs, this.settings.maxCrawlDelayMs));
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
    const robots = this.knownRobots.get(originOf(url));
    if (!robots || robots.fetchError?.startsWith('blocked-address')) return null;
    return this.disallowedBecause(robots, url);
  }

  /** robots.txt of a site: loaded from the store when another runner fetched it, else fetched once here. */
  private robotsFor(siteId: number, origin: string): Promise<SiteRobots> {
    let policy = this.robotsBySite.get(siteId);
    if (!policy) {
      policy = this.loadOrFetchRobots(siteId, origin);
      this.robotsBySite.set(siteId, policy);
      policy.then(
        (robots) => this.knownRobots.set(origin, robots),
        () => this.robotsBySite.delete(siteId),
      );
    }
    return policy;
  }

  private async loadOrFetchRobots(siteId: number, origin: string): Promise<SiteRobots> {
    const robotsUrl = robotsUrlFor(`${origin}/`);
    if (!this.settings.respectRobots) return { policy: RobotsPolicy.allowAll(robotsUrl), fetchError: null };
    const { store, fetcher } = this.options;
    const stored = await store.loadRobots(siteId);
    if (stored) return { policy: policyFromStored(robotsUrl, stored), fetchError: stored.error };
    const fetched = await fetchRobots(robotsUrl, fetcher, {
      userAgent: this.settings.userAgent,
      timeoutMs: Math.min(this.settings.timeoutMs, 30_000),
    });
    const policy = fetched.policy;
    this.options.events?.robotsFetched?.({ crawlId: this.settings.crawlId, origin, status: fetched.status });
    const crawlDelayMs = policy.crawlDelayMs(this.settings.userAgent) ?? null;
    await store.saveRobots(
      siteId,
      {
        status: fetched.status,
        body: fetched.body,
        error: fetched.error ?? null,
        fetchedAt: fetched.fetchedAt,
      },
      crawlDelayMs,
      policy.sitemaps,
    );
    if (this.settings.sitemaps) await this.enqueueSitemapUrls(origin, policy.sitemaps);
    return { policy, fetchError: fetched.error ?? null };
  }

  private async enqueueSitemapUrls(origin: string, robotsSitemaps: string[]): Promise<void> {
    try {
      const urls = await discoverSitemapUrls(this.options.fetcher, {
        robotsSitemaps,
        origin,
        fetchOptions: this.fetchOptions(),
      });
      const discovered: DiscoveredUrl[] = [];
      let tooLong = 0;
      for (const raw of urls) {
        const url = canonicalizeUrl(raw);
        if (url && urlTooLong(url) !== null) tooLong++;
        else if (url && this.scope.check(url, 0).inScope) {
          discovered.push({ url, origin: originOf(url), depth: 0, priority: 0, anchor: '' });
        }
      }
      // no page holds a sitemap's URLs, so the ones too long to crawl are only counted in the log
      if (tooLong > 0) this.options.log.warn({ origin, urls: tooLong }, 'sitemap URLs too long to crawl');
      await this.options.store.enqueue(this.settings.crawlId, null, discovered, this.frontierLimits);
    } catch (error) {
      this.options.log.warn({ err: error, origin }, 'sitemap discovery failed');
    }
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
    requestDone: (sha256: string | null) => Promise<number | null>,
  ): Promise<PageOutcome> {
    const { store } = this.options;
    const { crawlId, perHostConcurrency, userAgent } = this.settings;
    // Why a redirect stopped, when it did: the hop was refused by scope, robots.txt or deduplication.
    let refusal: {
      type: 'DISALLOWED' | 'DUPLICATE' | 'INVALID';
      reason: string;
      duplicateOf?: number;
    } | null = null;

    const result: FetchResult = await this.options.fetcher.fetch(page.url, {
      ...this.fetchOptions(),
      acceptBody: (contentType) =>
        contentType === null || HTML_TYPES.test(contentType) || /^text\//i.test(contentType),
      beforeRedirect: async (_from, to) => {
        const target = canonicalizeUrl(to);
        if (!target) {
          refusal = { type: 'INVALID', reason: `redirect to an unsupported URL: ${to}` };
          return { follow: false, reason: refusal.reason };
        }
        const tooLong = urlTooLong(target);
        if (tooLong !== null) {
          refusal = { type: 'INVALID', reason: `redirect to a URL too long to crawl: ${tooLong}` };
          return { follow: false, reason: refusal.reason };
        }
        if (!this.scope.check(target, page.depth).inScope) {
          refusal = { type: 'INVALID', reason: `redirect leaves the crawl's scope: ${target}` };
          return { follow: false, reason: refusal.reason };
        }
        const origin = originOf(target);
        const sites = await this.siteIdsFor([origin]);
        const siteId = sites.get(origin);
        if (siteId === undefined) throw new Error(`no site row for ${origin}`);
        const { policy: robots } = await this.robotsFor(siteId, origin);
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

    const base = {
      status: result.status,
      contentType: result.contentType,
      bytes: result.body ? result.bytes : result.contentLength,
      truncated: result.truncated,
      loadMs: Math.round(result.loadMs),
      fetchedAt: new Date(),
      finalUrl: result.finalUrl,
      redirects: result.redirects.length
        ? result.redirects.map(({ url, status }) => ({ url, status }))
        : null,
      requested: true,
    };
    const stopped = refusal as {
      type: 'DISALLOWED' | 'DUPLICATE' | 'INVALID';
      reason: string;
      duplicateOf?: number;
    } | null;
    const status = result.status ?? 0;
    const isHtml =
      result.contentType === null ? looksLikeHtml(result.text) : HTML_TYPES.test(result.contentType);
    const sha256 = result.body ? createHash('sha256').update(result.body).digest('hex') : null;
    const usable = !stopped && !result.error && status >= 200 && status < 300;
    const original = await requestDone(usable && isHtml ? sha256 : null);
    if (stopped) {
      return {
        ...blankOutcome(stopped.type, { error: stopped.reason }),
        ...base,
        duplicateOf: stopped.duplicateOf ?? null,
      };
    }
    if (result.error) {
      return {
        ...blankOutcome('INVALID', { error: `${result.error.code}: ${result.error.message}` }),
        ...base,
      };
    }
    if (status >= 400 || status < 200 || status >= 300) {
      return {
        ...blankOutcome('INVALID', { error: status >= 400 ? null : `unexpected status ${status}` }),
        ...base,
      };
    }
    if (!isHtml) {
      const dataType = documentTypeFor(result.contentType, result.finalUrl);
      return {
        ...blankOutcome('BINARY', {}),
        ...base,
        sha256,
        document: dataType ? { dataType, contentType: result.contentType, bytes: base.bytes } : null,
      };
    }
    if (original !== null) {
      return { ...blankOutcome('DUPLICATE', { error: null }), ...base, sha256, duplicateOf: original };
    }
    const html = result.text ?? '';
    const parsed = parseHtml(html, result.finalUrl, {
      normalizeUrl: (absolute) => canonicalizeUrl(absolute),
      robotsToken: productToken(userAgent),
    });
    const score = this.relevance ? this.relevance.score(parsed) : null;
    const threshold = this.settings.relevance?.threshold ?? 1;
    const followLinks = !(this.settings.respectNofollow && parsed.metaRobots.nofollow);
    const links: DiscoveredUrl[] = [];
    const images: Array<{ url: string; alt: string }> = [];
    const skipped: SkippedUrl[] = [];
    if (followLinks) {
      const priorityOf = this.linkPriorities(parsed, score);
      const pageHost = new URL(result.finalUrl).host;
      const seen = new Set<string>();
      for (const link of parsed.links) {
        if (seen.has(link.url) || (this.settings.respectNofollow && link.nofollow)) continue;
        seen.add(link.url);
        const priority = priorityOf(link.url);
        if (priority === null) continue;
        if (this.settings.ignoreInternal && new URL(link.url).host === pageHost) continue;
        if (!this.scope.check(link.url, page.depth + 1, result.finalUrl).inScope) continue;
        const tooLong = urlTooLong(link.url);
        if (tooLong !== null) {
          skipped.push({ kind: 'link', url: urlHead(link.url), reason: tooLong });
          continue;
        }
        links.push({
          url: link.url,
          origin: originOf(link.url),
          depth: page.depth + 1,
          priority,
          anchor: link.anchorText.slice(0, 500),
          known: this.queuedUrls.has(link.url),
          disallowed: this.knownDisallowance(link.url),
        });
      }
    }
    const seenImages = new Set<string>();
    for (const image of parsed.images) {
      if (seenImages.has(image.url)) continue;
      seenImages.add(image.url);
      const tooLong = urlTooLong(image.url);
      if (tooLong !== null) skipped.push({ kind: 'image', url: urlHead(image.url), reason: tooLong });
      else images.push({ url: image.url, alt: image.alt.slice(0, 500) });
    }
    return {
      ...blankOutcome('HTML', {}),
      ...base,
      sha256,
      title: parsed.title ? parsed.title.slice(0, 1000) : null,
      htmlGzip: this.settings.storeHtml && result.body ? await gzip(result.body) : null,
      links,
      images,
      skipped,
      score,
      relevant: score !== null && score >= threshold,
    };
  }

  /**
   * The frontier weight of each link of a page, by strategy (MISSION-NOTES §2); null drops the link.
   * bfs: all equal. best-first: the score of the page holding the link. topic: 1, 1/(d+2) or 0 from the
   * words around the link in the main text; links outside the main text (or with # or : in their path,
   * when that option is on) are not followed.
   */
  private linkPriorities(parsed: ParsedPage, score: number | null): (url: string) => number | null {
    const { strategy } = this.settings;
    if (strategy === 'best-first') return () => score ?? 0;
    if (strategy !== 'topic') return () => 0;
    const weights = new Map<string, number>();
    for (const entry of topicLinkWeights(parsed, this.settings.topics, this.settings.topicOptions)) {
      if (!weights.has(entry.url)) weights.set(entry.url, entry.weight);
    }
    return (url) => weights.get(url) ?? null;
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

function blankOutcome(
  type: PageOutcome['type'],
  fields: { error?: string | null; requested?: boolean },
): PageOutcome {
  return {
    score: null,
    relevant: false,
    type,
    status: null,
    contentType: null,
    bytes: null,
    truncated: false,
    sha256: null,
    loadMs: null,
    fetchedAt: new Date(),
    finalUrl: null,
    title: null,
    error: fields.error ?? null,
    redirects: null,
    duplicateOf: null,
    requested: fields.requested ?? true,
    htmlGzip: null,
    links: [],
    images: [],
    skipped: [],
    document: null,
  };
}

/** Enough of an over-long URL to recognize it by. */
function urlHead(url: string): string {
  return url.length <= SKIPPED_URL_HEAD ? url : `${url.slice(0, SKIPPED_URL_HEAD)}…`;
}

function policyFromStored(
  robotsUrl: string,
  stored: { status: number | null; body: string | null; error: string | null },
) {
  if (stored.status === null)
    return RobotsPolicy.from(robotsUrl, { unreachable: true, error: stored.error ?? undefined });
  return RobotsPolicy.from(robotsUrl, { status: stored.status, body: stored.body ?? '' });
}

function looksLikeHtml(text: string | null): boolean {
  return text !== null && /^\s*(<!doctype html|<html|<head|<body)/i.test(text.slice(0, 512));
}
