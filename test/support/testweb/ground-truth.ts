// What a correct crawl of the test web does, computed by walking the site model (not the server): BFS from
// the seeds, canonical URLs requested at most once, robots.txt per host, redirects followed inside one fetch
// with each hop checked against its own host's robots.txt, SHA-256 duplicates not followed, nofollow honoured.
// The site is built so the result does not depend on fetch order (features/plain.ts), except which member of
// a duplicate group is the HTML one, and which pages a page cap (maxPages) leaves out.

import { gunzipSync } from 'node:zlib';
import { canonicalUrl, requestTarget } from './canonical.js';
import { renderPage } from './html.js';
import type { HostSite, LinkSpec, PageResource, Site } from './site.js';
import type { ExpectedPage, GroundTruth, GroundTruthOptions } from './types.js';

const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_URL_BYTES = 2048;

interface Queued {
  url: string;
  depth: number;
}

function readSitemap(site: Site, url: string, seen: Set<string>, out: string[]): void {
  if (seen.has(url) || seen.size > 50) return;
  seen.add(url);
  const parsed = new URL(url);
  const host = site.hostOfOrigin(parsed.origin);
  if (host === undefined) return;
  const file = site.resolve(host, parsed.pathname + parsed.search);
  if (file?.kind !== 'file') return;
  const xml = (url.endsWith('.gz') ? gunzipSync(file.body) : file.body).toString('utf8');
  const locations = [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/g)].map((match) => match[1]!);
  if (/<sitemapindex[\s>]/.test(xml)) {
    for (const location of locations) readSitemap(site, location, seen, out);
  } else {
    out.push(...locations);
  }
}

export function computeGroundTruth(
  site: Site,
  seeds: string[],
  trapEnabled: boolean,
  opts: GroundTruthOptions,
): GroundTruth {
  const {
    maxPages,
    respectRobots = true,
    sitemaps = true,
    honourNofollow = true,
    userAgent = 'trawl',
    maxRedirects = 5,
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    oversize = 'truncate',
    maxUrlBytes = DEFAULT_MAX_URL_BYTES,
  } = opts;
  if (opts.maxDepth === null && maxPages === undefined && trapEnabled) {
    throw new Error('test web: with the spider trap on, a crawl needs maxDepth or maxPages to end');
  }
  // A page at depth d needs its d ancestors fetched first, so a cap of maxPages bounds the depth too.
  let maxDepth = opts.maxDepth ?? Number.POSITIVE_INFINITY;
  if (maxPages !== undefined) maxDepth = Math.min(maxDepth, maxPages - 1);

  const fetched = new Set<string>();
  const redirectHops = new Set<string>();
  const disallowed = new Set<string>();
  const expected = new Map<string, ExpectedPage>();
  const depthOf = new Map<string, number>();
  const groups = new Map<string, string[]>();
  const reached = new Set<HostSite>();
  const seen = new Set<string>();
  const queue: Queued[] = [];
  let head = 0;

  // Canonical URLs are "http://a.b.c.d:port/…": the origin is everything before the third slash.
  const hostOf = (url: string) => {
    const slash = url.indexOf('/', 'http://'.length);
    return site.hostOfOrigin(slash === -1 ? url : url.slice(0, slash));
  };
  const enqueue = (url: string, depth: number) => {
    if (seen.has(url) || depth > maxDepth || url.length > maxUrlBytes || hostOf(url) === undefined) return;
    seen.add(url);
    queue.push({ url, depth });
  };
  const allowed = (url: string) =>
    !respectRobots || hostOf(url)!.rules.isAllowed(requestTarget(url), userAgent);
  const reach = (host: HostSite) => {
    if (reached.has(host)) return;
    reached.add(host);
    if (!sitemaps || host.robots.status < 200 || host.robots.status >= 300) return;
    const listed: string[] = [];
    for (const sitemap of host.rules.sitemaps) readSitemap(site, sitemap, new Set(), listed);
    for (const location of listed) {
      const url = canonicalUrl(location);
      if (url !== null) enqueue(url, 0);
    }
  };

  for (const seed of seeds) {
    const url = canonicalUrl(seed);
    if (url !== null) enqueue(url, 0);
  }

  while (head < queue.length) {
    const { url, depth } = queue[head++]!;
    const host = hostOf(url)!;
    reach(host);
    depthOf.set(url, depth);
    if (!allowed(url)) {
      disallowed.add(url);
      expected.set(url, { status: null, type: 'DISALLOWED' });
      continue;
    }
    if (fetched.has(url)) {
      // Already requested as a redirect hop: the same canonical URL as an earlier page.
      expected.set(url, { status: null, type: 'DUPLICATE' });
      continue;
    }

    // One fetch: the URL and its redirect hops.
    let current = url;
    const chain = new Set<string>([url]);
    let outcome: ExpectedPage | null = null;
    fetched.add(url);
    for (let hops = 0; outcome === null; ) {
      const currentHost = hostOf(current)!;
      const resource = site.resolve(currentHost, requestTarget(current));
      if (resource?.kind !== 'redirect') break;
      const target = canonicalUrl(resource.location, current);
      const targetHost = target === null ? undefined : hostOf(target);
      if (target === null || targetHost === undefined) {
        outcome = { status: null, type: 'INVALID', redirectsTo: target ?? resource.location };
        break;
      }
      if (hops === maxRedirects || chain.has(target) || target.length > maxUrlBytes) {
        outcome = { status: null, type: 'INVALID', redirectsTo: target };
        break;
      }
      hops++;
      reach(targetHost);
      if (!allowed(target)) {
        disallowed.add(target);
        outcome = { status: null, type: 'DISALLOWED', redirectsTo: target };
        break;
      }
      if (fetched.has(target)) {
        outcome = { status: null, type: 'DUPLICATE', redirectsTo: target };
        break;
      }
      chain.add(target);
      fetched.add(target);
      redirectHops.add(target);
      current = target;
    }
    if (outcome !== null) {
      expected.set(url, outcome);
      continue;
    }

    const redirectsTo = current === url ? {} : { redirectsTo: current };
    const resource = site.resolve(hostOf(current)!, requestTarget(current));
    if (resource === undefined) {
      expected.set(url, { status: 404, type: 'INVALID', ...redirectsTo });
      continue;
    }
    if (resource.kind === 'status') {
      expected.set(url, { status: resource.status, type: 'INVALID', ...redirectsTo });
      continue;
    }
    if (resource.kind === 'binary' || resource.kind === 'file') {
      const type = (resource.kind === 'file' && resource.expectedType) || 'BINARY';
      expected.set(url, { status: 200, type, contentType: resource.contentType, ...redirectsTo });
      continue;
    }
    if (resource.kind === 'redirect') continue; // unreachable: the loop above consumed redirects

    const page: PageResource = resource;
    const contentType = page.contentType ?? 'text/html; charset=utf-8';
    const words = page.words === undefined ? {} : { words: page.words };
    let links: LinkSpec[] = page.links;
    if (page.padToBytes !== undefined && renderPage(page, site.seed).length > maxBodyBytes) {
      if (oversize === 'reject') {
        expected.set(url, { status: 200, type: 'INVALID', contentType, ...redirectsTo });
        continue;
      }
    } else {
      links = [...links, ...(page.tailLinks ?? [])];
    }
    // the realistic profile's menu, related box and footer are links like any other
    if (page.chrome) links = [...page.chrome.menu, ...links, ...page.chrome.related, ...page.chrome.footer];
    if (page.duplicateGroup !== undefined) {
      const group = groups.get(page.duplicateGroup) ?? [];
      groups.set(page.duplicateGroup, [...group, url]);
      if (group.length > 0) {
        expected.set(url, { status: 200, type: 'DUPLICATE', contentType, ...redirectsTo });
        continue;
      }
    }
    expected.set(url, { status: 200, type: 'HTML', contentType, ...words, ...redirectsTo });
    if (page.metaNofollow && honourNofollow) continue;
    for (const link of links) {
      if (link.nofollow && honourNofollow) continue;
      const target = canonicalUrl(link.href, current);
      if (target !== null) enqueue(target, depth + 1);
    }
  }

  const truth: GroundTruth = {
    fetched,
    redirectHops,
    disallowed,
    duplicateGroups: [...groups.values()].filter((group) => group.length > 1),
    expected,
    depth: depthOf,
    exact: maxPages === undefined,
  };
  if (maxPages !== undefined) truth.fetchedUpperBound = maxPages;
  return truth;
}
