// Finds a site's page URLs through its sitemaps: the Sitemap: lines of robots.txt plus /sitemap.xml,
// breadth-first through sitemap indexes, each sitemap fetched once, at most maxSitemaps fetches.
import type { Fetcher, FetchOptions } from '../fetch/fetcher.js';
import { MAX_SITEMAP_BYTES, parseSitemap } from './parse.js';

export interface DiscoverSitemapOptions {
  robotsSitemaps: string[];
  /** The site's origin, e.g. "https://example.com"; its /sitemap.xml is tried too. */
  origin: string;
  fetchOptions: FetchOptions;
  /** Sitemap files fetched at most (indexes included). Default 50. */
  maxSitemaps?: number;
  /** Page URLs returned at most. Default 500,000. */
  maxUrls?: number;
}

export async function discoverSitemapUrls(
  fetcher: Pick<Fetcher, 'fetch'>,
  { robotsSitemaps, origin, fetchOptions, maxSitemaps = 50, maxUrls = 500_000 }: DiscoverSitemapOptions,
): Promise<string[]> {
  const queue: string[] = [];
  const seen = new Set<string>();
  const enqueue = (url: string) => {
    if (!URL.canParse(url)) return;
    const href = new URL(url).href;
    if (seen.has(href)) return;
    seen.add(href);
    queue.push(href);
  };
  for (const url of robotsSitemaps) enqueue(url);
  enqueue(new URL('/sitemap.xml', origin).href);

  const pages = new Set<string>();
  let fetched = 0;
  while (queue.length > 0 && fetched < maxSitemaps && pages.size < maxUrls) {
    const sitemapUrl = queue.shift()!;
    fetched++;
    const result = await fetcher.fetch(sitemapUrl, {
      ...fetchOptions,
      maxBytes: Math.min(fetchOptions.maxBytes, MAX_SITEMAP_BYTES),
    });
    // A missing or broken sitemap is common and not the crawl's problem: it just yields nothing.
    if (result.error || result.status === null || result.status < 200 || result.status >= 300 || !result.body)
      continue;
    const parsed = parseSitemap(result.body, result.finalUrl);
    for (const child of parsed.sitemaps) enqueue(child);
    for (const { loc } of parsed.urls) {
      if (pages.size >= maxUrls) break;
      pages.add(loc);
    }
  }
  return [...pages];
}
