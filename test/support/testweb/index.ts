// trawl's own test web: a deterministic little internet on loopback addresses 127.0.0.2 …, generated from a
// seed, for integration tests and benchmarks (there is no internet here). startTestWeb() builds the site
// model (site.ts, one generator per feature in features/), serves it (server.ts) and computes the ground
// truth a correct crawl must reproduce (ground-truth.ts). README.md beside this file lists what is served.

import { canonicalUrl } from './canonical.js';
import { FEATURE_MODULES, plainPages, robots } from './features/index.js';
import { computeGroundTruth } from './ground-truth.js';
import { mutateSite } from './mutation.js';
import { closeAll, listenAll, type ServerState } from './server.js';
import { type BuildContext, loopbackAddresses, type ResolvedOptions, Site } from './site.js';
import { ALL_FEATURES, type Feature, type TestWeb, type TestWebOptions } from './types.js';

export { canonicalUrl } from './canonical.js';
export type * from './types.js';
export { ALL_FEATURES } from './types.js';

/** Feature switches for the benchmark: plain pages and robots.txt rules only. */
export const BENCHMARK_FEATURES: Partial<Record<Feature, boolean>> = Object.fromEntries(
  ALL_FEATURES.map((feature) => [feature, feature === 'robots']),
);

function resolveOptions(opts: TestWebOptions): ResolvedOptions {
  const features: Record<string, boolean> = {};
  for (const feature of ALL_FEATURES) features[feature] = opts.features?.[feature] ?? true;
  // script-built pages read as empty without rendering: only the tests of rendering ask for them
  features.scripted = opts.features?.scripted ?? false;
  return {
    seed: opts.seed ?? 1,
    hosts: opts.hosts ?? 5,
    pagesPerHost: opts.pagesPerHost ?? 40,
    features,
    slowPageDelayMs: opts.slowPageDelayMs ?? 1500,
    linksPerPage: opts.linksPerPage ?? 8,
    oversizePageBytes: opts.oversizePageBytes ?? 1024 * 1024,
    bigBinaryBytes: opts.bigBinaryBytes ?? 5 * 1024 * 1024,
    crawlDelaySeconds: opts.crawlDelaySeconds ?? 1,
    port: opts.port ?? 0,
    profile: opts.profile ?? 'plain',
    addresses: opts.addresses ?? loopbackAddresses(opts.hosts ?? 5),
  };
}

/** Builds the site model for origins on `port`; exported for tests that inspect it without a server. */
export function buildSite(options: ResolvedOptions, port: number): Site {
  if (options.hosts < 1 || options.hosts > 250) throw new RangeError('test web: hosts must be 1…250');
  if (options.pagesPerHost < 1) throw new RangeError('test web: pagesPerHost must be ≥ 1');
  const site = new Site(options.seed, port, options.hosts, options.addresses);
  const ctx: BuildContext = { site, opts: options, enabled: (feature) => options.features[feature] === true };
  robots.prepare(ctx);
  plainPages.build(ctx);
  robots.build(ctx);
  for (const feature of FEATURE_MODULES) {
    if (ctx.enabled(feature.name)) feature.build(ctx);
  }
  return site;
}

export async function startTestWeb(opts: TestWebOptions = {}): Promise<TestWeb> {
  const options = resolveOptions(opts);
  const state: ServerState = {
    site: null,
    log: [],
    unavailableServed: new Set(),
    timers: new Set(),
    latencyMs: opts.latencyMs ?? 0,
    conditional: opts.conditional ?? (options.profile === 'realistic' ? 'honour' : 'none'),
  };
  const { servers, port } = await listenAll(options.addresses, options.port, state);
  let site: Site;
  try {
    site = buildSite(options, port);
  } catch (error) {
    await closeAll(servers);
    throw error;
  }
  state.site = site;
  const hosts = site.hosts.map((host) => host.origin);
  const seeds = [`${hosts[0]}/`];

  const web: TestWeb = {
    hosts,
    seeds,
    port,
    log: state.log,
    groundTruth: (truthOptions) =>
      computeGroundTruth(site, seeds, options.features.trap === true, truthOptions),
    resetLog() {
      state.log.length = 0;
      state.unavailableServed.clear();
    },
    async close() {
      for (const timer of state.timers) clearTimeout(timer);
      state.timers.clear();
      await closeAll(servers);
    },
    isDisallowed(url, userAgent = 'trawl') {
      const parsed = new URL(url);
      const host = site.hostOfOrigin(parsed.origin);
      return host !== undefined && !host.rules.isAllowed(parsed.pathname + parsed.search, userAgent);
    },
    setConditional(mode) {
      state.conditional = mode;
    },
    mutate(mutation) {
      return mutateSite(site, mutation);
    },
    isAuxiliary(url) {
      const parsed = new URL(url);
      // robots.txt, and sitemaps also where a crawler only guesses them (/sitemap.xml on a host without one).
      if (parsed.pathname === '/robots.txt' || /^\/sitemap[^/]*\.xml(\.gz)?$/.test(parsed.pathname))
        return true;
      const host = site.hostOfOrigin(parsed.origin);
      const resource = host === undefined ? undefined : site.resolve(host, parsed.pathname + parsed.search);
      return resource?.kind === 'file' && resource.auxiliary;
    },
  };
  return web;
}

/** A crawl scope that keeps a crawl on this web: its hosts are the allowed domains. */
export function scopeOf(web: TestWeb): { allowedDomains: string[] } {
  return { allowedDomains: web.hosts.map((origin) => new URL(origin).host) };
}

/** A crawl request for this web: its seeds and scope, no politeness delay; `extra` adds or overrides fields. */
export function crawlRequestFor(web: TestWeb, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    seeds: web.seeds,
    scope: scopeOf(web),
    politeness: { delayMs: 0, maxCrawlDelayMs: 0 },
    ...extra,
  };
}

/** Page requests (GET, not robots.txt or sitemaps) of URLs that robots.txt forbids for `userAgent`. */
export function countDisallowedRequests(web: TestWeb, userAgent = 'trawl'): number {
  return web.log.filter(
    (entry) =>
      entry.method === 'GET' && !web.isAuxiliary(entry.url) && web.isDisallowed(entry.url, userAgent),
  ).length;
}

/**
 * Page requests (GET, not robots.txt or sitemaps) of a canonical URL that was already requested — a URL
 * fetched twice, also under two spellings (fragment, tracking parameters). Not counted: the one retry that
 * each 503 or 429 answer for that URL allows. Redirect hops are ordinary requests of their own URL, so a
 * chain counts nothing unless it comes back to a URL already requested (a loop the crawler did not stop).
 */
export function countRepeatedRequests(web: TestWeb): number {
  const requests = new Map<string, { retries: number }>();
  let repeated = 0;
  for (const entry of web.log) {
    if (entry.method !== 'GET' || web.isAuxiliary(entry.url)) continue;
    const key = canonicalUrl(entry.url) ?? entry.url;
    const earlier = requests.get(key);
    if (earlier === undefined) {
      requests.set(key, { retries: entry.status === 503 || entry.status === 429 ? 1 : 0 });
      continue;
    }
    if (earlier.retries > 0) earlier.retries--;
    else repeated++;
    if (entry.status === 503 || entry.status === 429) earlier.retries++;
  }
  return repeated;
}

/** URLs of the page requests in the log, as requested (compare with GroundTruth.fetched: a request of a
 * non-canonical spelling shows up as a URL outside it). */
export function loggedPageUrls(web: TestWeb): Set<string> {
  const urls = new Set<string>();
  for (const entry of web.log) {
    if (entry.method === 'GET' && !web.isAuxiliary(entry.url)) urls.add(entry.url);
  }
  return urls;
}
