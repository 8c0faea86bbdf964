// Sitemaps (sitemaps.org protocol 0.9): <urlset> and <sitemapindex> XML, gzip detected by its magic bytes,
// and plain-text sitemaps of one URL per line. Bounded as the protocol bounds them: 50,000 entries and
// 50 MB (52,428,800 bytes) uncompressed per file; anything beyond is dropped and marked truncated.
import zlib from 'node:zlib';
import { decodeBody } from '../fetch/charset.js';

export const MAX_SITEMAP_ENTRIES = 50_000;
export const MAX_SITEMAP_BYTES = 52_428_800;

export interface SitemapUrl {
  loc: string;
  lastmod?: string;
  priority?: number;
}

export interface ParsedSitemap {
  urls: SitemapUrl[];
  /** Child sitemaps, from a <sitemapindex>. */
  sitemaps: string[];
  format: 'urlset' | 'sitemapindex' | 'text' | 'invalid';
  /** Entries or bytes past the protocol's limits were dropped. */
  truncated: boolean;
  error?: string;
}

function isGzip(bytes: Buffer): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function isTooLarge(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
}

/**
 * Gunzips at most MAX_SITEMAP_BYTES. zlib's one-shot API cannot stop early, so an oversized file is
 * retried on ever shorter compressed prefixes (sync flush decodes a prefix without complaint).
 */
function gunzipBounded(bytes: Buffer): { data: Buffer; truncated: boolean } {
  const options = { maxOutputLength: MAX_SITEMAP_BYTES, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  try {
    return { data: zlib.gunzipSync(bytes, options), truncated: false };
  } catch (err) {
    if (!isTooLarge(err)) throw err;
  }
  for (let length = bytes.length >> 1; length > 0; length >>= 1) {
    try {
      return { data: zlib.gunzipSync(bytes.subarray(0, length), options), truncated: true };
    } catch (err) {
      if (!isTooLarge(err)) throw err;
    }
  }
  return { data: Buffer.alloc(0), truncated: true };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function xmlText(raw: string): string {
  const cdata = raw.match(/^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/);
  if (cdata) return (cdata[1] ?? '').trim();
  return raw.trim().replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** An absolute http(s) URL for a sitemap entry, or null. Relative entries are resolved against the sitemap. */
function entryUrl(raw: string, sitemapUrl: string): string | null {
  if (raw === '' || !URL.canParse(raw, sitemapUrl)) return null;
  const url = new URL(raw, sitemapUrl);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function parseSitemap(body: Buffer | string, sitemapUrl: string): ParsedSitemap {
  let bytes = typeof body === 'string' ? Buffer.from(body) : body;
  let truncated = false;
  if (isGzip(bytes)) {
    try {
      ({ data: bytes, truncated } = gunzipBounded(bytes));
    } catch (err) {
      return {
        urls: [],
        sitemaps: [],
        format: 'invalid',
        truncated: false,
        error: `bad gzip: ${(err as Error).message}`,
      };
    }
  }
  if (bytes.length > MAX_SITEMAP_BYTES) {
    bytes = bytes.subarray(0, MAX_SITEMAP_BYTES);
    truncated = true;
  }
  // The protocol requires UTF-8; a BOM or an XML declaration saying otherwise is still honoured.
  const text = decodeBody(bytes, 'application/xml').text.replace(/^\uFEFF/, '');

  const root = text.match(
    /^\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<([\w.-]+:)?(urlset|sitemapindex)\b/i,
  );
  if (!root) {
    if (/^\s*</.test(text)) {
      return {
        urls: [],
        sitemaps: [],
        format: 'invalid',
        truncated,
        error: 'XML without <urlset> or <sitemapindex>',
      };
    }
    return parseTextSitemap(text, sitemapUrl, truncated);
  }
  // Tags of the sitemap namespace carry the root's prefix (usually none); <image:loc> and friends do not match.
  const prefix = escapeRegExp(root[1] ?? '');
  const isIndex = root[2]?.toLowerCase() === 'sitemapindex';
  const entryTag = isIndex ? 'sitemap' : 'url';
  const entryPattern = new RegExp(
    `<${prefix}${entryTag}\\b[^>]*>([\\s\\S]*?)</${prefix}${entryTag}\\s*>`,
    'gi',
  );
  const fieldPatterns = new Map(
    ['loc', 'lastmod', 'priority'].map((name) => [
      name,
      new RegExp(`<${prefix}${name}\\b[^>]*>([\\s\\S]*?)</${prefix}${name}\\s*>`, 'i'),
    ]),
  );
  const field = (entry: string, name: string): string | undefined => {
    const match = entry.match(fieldPatterns.get(name)!);
    return match ? xmlText(match[1] ?? '') : undefined;
  };

  const urls: SitemapUrl[] = [];
  const sitemaps: string[] = [];
  for (const [, entry = ''] of text.matchAll(entryPattern)) {
    if (urls.length + sitemaps.length >= MAX_SITEMAP_ENTRIES) {
      truncated = true;
      break;
    }
    const loc = entryUrl(field(entry, 'loc') ?? '', sitemapUrl);
    if (loc === null) continue;
    if (isIndex) {
      sitemaps.push(loc);
      continue;
    }
    const item: SitemapUrl = { loc };
    const lastmod = field(entry, 'lastmod');
    if (lastmod) item.lastmod = lastmod;
    const priority = Number(field(entry, 'priority') ?? Number.NaN);
    if (Number.isFinite(priority) && priority >= 0 && priority <= 1) item.priority = priority;
    urls.push(item);
  }
  return { urls, sitemaps, format: isIndex ? 'sitemapindex' : 'urlset', truncated };
}

/** Plain-text sitemap: one absolute URL per line; anything else on a line makes it no entry. */
function parseTextSitemap(text: string, sitemapUrl: string, truncatedBytes: boolean): ParsedSitemap {
  const urls: SitemapUrl[] = [];
  let truncated = truncatedBytes;
  const lines = text.split(/\r\n|\r|\n/);
  // A file cut at the byte limit ends in a partial URL.
  if (truncatedBytes) lines.pop();
  for (const line of lines) {
    const candidate = line.trim();
    if (!/^https?:\/\/\S+$/i.test(candidate)) continue;
    if (urls.length >= MAX_SITEMAP_ENTRIES) {
      truncated = true;
      break;
    }
    const loc = entryUrl(candidate, sitemapUrl);
    if (loc !== null) urls.push({ loc });
  }
  return { urls, sitemaps: [], format: 'text', truncated };
}
