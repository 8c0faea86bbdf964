// A crawl's robots.txt and sitemaps of each origin (docs/reference.md#politeness): robots.txt is read once per
// crawl per origin, in a turn of the host's (so only the runner holding the host's first slot asks for it,
// and the host's next request waits its delay after it), and stored for every other runner. Sitemaps named
// there are walked later, each request in its host's turn, by a runner holding no slot.
import type { Fetcher, FetchOptions, FetchResult } from '../fetch/index.js';
import { canonicalizeUrl, urlTooLong } from '../frontier/canonicalize.js';
import { fetchRobots, RobotsCache, type RobotsFetch, RobotsPolicy } from '../robots/index.js';
import { discoverSitemapUrls } from '../sitemap/index.js';
import type { HostTurns } from './host-turns.js';
import { originOf } from './link-selection.js';
import type { CrawlEventSink, CrawlSettings, CrawlStore, DiscoveredUrl, FrontierLimits } from './ports.js';

export interface SiteRobots {
  policy: RobotsPolicy;
  /** Why robots.txt could not be read ("code: message"), when it could not. */
  fetchError: string | null;
}

export interface SiteFilesOptions {
  settings: CrawlSettings;
  store: CrawlStore;
  fetcher: Pick<Fetcher, 'fetch'>;
  turns: HostTurns;
  log: { warn(obj: object, msg?: string): void };
  events?: CrawlEventSink;
  /** The site row of each origin, created when missing. */
  siteIdsFor(origins: string[]): Promise<Map<string, number>>;
  inScope(url: string, depth: number): boolean;
  /** The crawl's options for a fetch (user agent, limits, the runner's halt signal). */
  fetchOptions(): FetchOptions;
  frontierLimits(): FrontierLimits;
}

export class SiteFiles {
  readonly #options: SiteFilesOptions;
  /**
   * robots.txt of each origin, for this crawl's product token. An entry lasts the runner's life: a crawl
   * reads one robots.txt per origin (robots_save.sql stores it, and every runner takes the stored file).
   */
  readonly #robots = new RobotsCache({
    load: (robotsUrl) => this.#loadOrFetchRobots(robotsUrl),
    maxAgeMs: Number.POSITIVE_INFINITY,
  });
  /** The robots.txt verdicts this runner has in hand, by origin (filled as robotsFor resolves). */
  readonly #known = new Map<string, SiteRobots>();
  readonly #siteIds = new Map<string, number>();
  /** Sitemaps of origins whose robots.txt this runner fetched, to walk once no slot is held. */
  #pendingSitemaps: Array<{ origin: string; sitemaps: string[] }> = [];

  constructor(options: SiteFilesOptions) {
    this.#options = options;
  }

  /** The robots.txt of `origin` when this runner has it in hand. */
  known(origin: string): SiteRobots | undefined {
    return this.#known.get(origin);
  }

  /** The host's delay: the crawl's, or robots.txt's Crawl-delay capped by politeness.maxCrawlDelayMs. */
  delayFor(robots: RobotsPolicy): number {
    const { settings } = this.#options;
    const crawlDelayMs = robots.crawlDelayMs(settings.userAgent) ?? 0;
    return Math.max(settings.delayMs, Math.min(crawlDelayMs, settings.maxCrawlDelayMs));
  }

  /** robots.txt of a site: loaded from the store when another runner fetched it, else fetched once here. */
  async robotsFor(siteId: number, origin: string): Promise<SiteRobots> {
    if (siteId >= 0 && !this.#siteIds.has(origin)) this.#siteIds.set(origin, siteId);
    const fetched = await this.#robots.robotsFor(`${origin}/`, this.#options.settings.userAgent);
    const robots = { policy: fetched.policy, fetchError: fetched.error ?? null };
    this.#known.set(origin, robots);
    return robots;
  }

  /**
   * Walks the sitemaps of the origins whose robots.txt this runner fetched, queueing their URLs in scope.
   * Called with no politeness slot held: each sitemap request waits for a turn of its host's.
   */
  async discoverPendingSitemaps(): Promise<void> {
    const pending = this.#pendingSitemaps;
    this.#pendingSitemaps = [];
    for (const { origin, sitemaps } of pending) await this.#enqueueSitemapUrls(origin, sitemaps);
  }

  async #loadOrFetchRobots(robotsUrl: string): Promise<RobotsFetch> {
    const { settings, turns } = this.#options;
    const origin = new URL(robotsUrl).origin;
    if (!settings.respectRobots) {
      return { policy: RobotsPolicy.allowAll(robotsUrl), status: null, body: null, fetchedAt: new Date() };
    }
    const siteId = this.#siteIds.get(origin) ?? -1;
    const stored = await this.#loadStored(siteId, robotsUrl);
    if (stored) return stored;
    // Until robots.txt is stored, a host has one usable slot (claim_frontier.sql, host_slot_lease.sql): who
    // holds it asks for the file, so two runners never ask at once, and the host's next request waits after it.
    return turns.withTurn(
      siteId,
      origin,
      async () => {
        const storedMeanwhile = await this.#loadStored(siteId, robotsUrl);
        if (storedMeanwhile) return { value: storedMeanwhile, delayMs: null };
        const fetched = await this.#fetchRobots(siteId, robotsUrl);
        return { value: fetched, delayMs: this.delayFor(fetched.policy) };
      },
      // another runner holding the host's slot may store the file while this one waits for it
      { shareHeld: true, meanwhile: () => this.#loadStored(siteId, robotsUrl) },
    );
  }

  async #loadStored(siteId: number, robotsUrl: string): Promise<RobotsFetch | null> {
    const stored = await this.#options.store.loadRobots(siteId);
    if (!stored) return null;
    return {
      policy: policyFromStored(robotsUrl, stored),
      status: stored.status,
      body: stored.body,
      fetchedAt: stored.fetchedAt,
      ...(stored.error !== null ? { error: stored.error } : {}),
    };
  }

  async #fetchRobots(siteId: number, robotsUrl: string): Promise<RobotsFetch> {
    const { settings, store, fetcher, turns, events, log } = this.#options;
    const origin = new URL(robotsUrl).origin;
    const timeoutMs = Math.min(settings.timeoutMs, 30_000);
    /** Slots of the hosts the file redirected to, given back once the fetch is over. */
    const hopSlots: Array<{ siteId: number; slot: number; origin: string }> = [];
    let fetched: RobotsFetch;
    try {
      fetched = await fetchRobots(robotsUrl, fetcher, {
        userAgent: settings.userAgent,
        timeoutMs,
        signal: this.#options.fetchOptions().signal,
        // RFC 9309 §2.3.1.2: redirects are followed wherever they lead; each hop is a request to its host,
        // which waits the crawl's delay there (the file's own Crawl-delay is not read yet)
        beforeRedirect: async (_from, to) => {
          const hopOrigin = originOf(to);
          if (hopOrigin === origin || hopSlots.some((hop) => hop.origin === hopOrigin)) {
            await turns.pause(settings.delayMs);
            return { follow: true };
          }
          const hopSiteId = (await this.#options.siteIdsFor([hopOrigin])).get(hopOrigin) ?? -1;
          const slot = hopSiteId < 0 ? null : await turns.leaseWithin(hopSiteId, timeoutMs);
          if (slot === null) log.warn({ origin, to }, 'robots.txt redirect followed without its host’s turn');
          else hopSlots.push({ siteId: hopSiteId, slot, origin: hopOrigin });
          return { follow: true };
        },
      });
    } finally {
      for (const hop of hopSlots) {
        turns.requestSent(hop.origin);
        // the hop's host's own delay, when its robots.txt is known; else the crawl's
        const known = await this.#loadStored(hop.siteId, `${hop.origin}/robots.txt`);
        await turns.release(hop.siteId, hop.slot, known ? this.delayFor(known.policy) : settings.delayMs);
      }
    }
    const policy = fetched.policy;
    events?.robotsFetched?.({ crawlId: settings.crawlId, origin, status: fetched.status });
    const crawlDelayMs = policy.crawlDelayMs(settings.userAgent) ?? null;
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
    if (settings.sitemaps) this.#pendingSitemaps.push({ origin, sitemaps: policy.sitemaps });
    return fetched;
  }

  /** One sitemap request, in a turn of its host's; a redirect is followed only within that host. */
  async #fetchSitemap(url: string, options: FetchOptions): Promise<FetchResult> {
    const { turns } = this.#options;
    const origin = originOf(url);
    const siteId = (await this.#options.siteIdsFor([origin])).get(origin) ?? -1;
    const { policy } = await this.robotsFor(siteId, origin);
    const delayMs = this.delayFor(policy);
    return turns.withTurn(siteId, origin, async () => {
      const result = await this.#options.fetcher.fetch(url, {
        ...options,
        // a retry is a request to the host too
        ...(options.retry ? { retry: { ...options.retry, minDelayMs: delayMs } } : {}),
        beforeRedirect: async (_from, to) => {
          if (originOf(to) !== origin) return { follow: false, reason: 'sitemap redirects to another host' };
          await turns.pause(delayMs);
          return { follow: true };
        },
      });
      return { value: result, delayMs };
    });
  }

  async #enqueueSitemapUrls(origin: string, robotsSitemaps: string[]): Promise<void> {
    const { settings, store, log } = this.#options;
    try {
      const urls = await discoverSitemapUrls(
        { fetch: (url, options) => this.#fetchSitemap(url, options) },
        { robotsSitemaps, origin, fetchOptions: this.#options.fetchOptions() },
      );
      const discovered: DiscoveredUrl[] = [];
      let tooLong = 0;
      for (const raw of urls) {
        const url = canonicalizeUrl(raw);
        if (url && urlTooLong(url) !== null) tooLong++;
        else if (url && this.#options.inScope(url, 0)) {
          discovered.push({ url, origin: originOf(url), depth: 0, priority: 0, anchor: '' });
        }
      }
      // no page holds a sitemap's URLs, so the ones too long to crawl are only counted in the log
      if (tooLong > 0) log.warn({ origin, urls: tooLong }, 'sitemap URLs too long to crawl');
      await store.enqueue(settings.crawlId, null, discovered, this.#options.frontierLimits());
    } catch (error) {
      log.warn({ err: error, origin }, 'sitemap discovery failed');
    }
  }
}

function policyFromStored(
  robotsUrl: string,
  stored: { status: number | null; body: string | null; error: string | null },
) {
  if (stored.status === null)
    return RobotsPolicy.from(robotsUrl, { unreachable: true, error: stored.error ?? undefined });
  return RobotsPolicy.from(robotsUrl, { status: stored.status, body: stored.body ?? '' });
}
