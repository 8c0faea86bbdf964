// Sitemaps: the pure parser and the walk from robots.txt's Sitemap: lines through sitemap indexes.

export type { DiscoverSitemapOptions } from './discover.js';
export { discoverSitemapUrls } from './discover.js';
export type { ParsedSitemap, SitemapUrl } from './parse.js';
export { MAX_SITEMAP_BYTES, MAX_SITEMAP_ENTRIES, parseSitemap } from './parse.js';
