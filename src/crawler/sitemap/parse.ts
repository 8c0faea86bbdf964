// Sitemaps (sitemaps.org protocol 0.9): <urlset> and <sitemapindex> XML, gzip detected by its magic bytes,
// and plain-text sitemaps of one URL per line. Bounded as the protocol bounds them: 50,000 entries and
// 50 MB (52,428,800 bytes) uncompressed per file; anything beyond is dropped and marked truncated.
import zlib from 'node:zlib';
import { Tokenizer } from 'htmlparser2';
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

/** An absolute http(s) URL for a sitemap entry, or null. Relative entries are resolved against the sitemap. */
function entryUrl(raw: string, sitemapUrl: string): string | null {
  if (raw === '' || !URL.canParse(raw, sitemapUrl)) return null;
  const url = new URL(raw, sitemapUrl);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
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

  // A sitemap is XML when it starts with markup; anything else is read as a plain-text sitemap.
  if (!/^\s*</.test(text)) return parseTextSitemap(text, sitemapUrl, truncated);
  return parseXmlSitemap(text, sitemapUrl, truncated);
}

const ENTRY_FIELDS = new Set(['loc', 'lastmod', 'priority']);

/**
 * <urlset> or <sitemapindex>, read with htmlparser2's XML tokenizer: one pass, linear in the input whatever
 * its tags (its Parser keeps open elements with Array.unshift, quadratic in the nesting of unclosed tags, so
 * the tokenizer is used alone). Tags of the sitemap namespace carry the root's prefix (usually none), so
 * <image:loc> is no <loc>. Lenient as crawlers are with hand-made files: an entry ends at its end tag, at the
 * next entry's start tag or at the end of the file; a field at its end tag, the next field's start tag or
 * its entry's end. Entities are XML's and character references.
 */
function parseXmlSitemap(text: string, sitemapUrl: string, truncatedBytes: boolean): ParsedSitemap {
  let truncated = truncatedBytes;
  let format: 'urlset' | 'sitemapindex' | null = null;
  let rootSeen = false;
  let prefix = '';
  let entryTag = '';
  const urls: SitemapUrl[] = [];
  const sitemaps: string[] = [];
  /** The open entry's fields (first occurrence wins), or null outside an entry. */
  let entry: Map<string, string> | null = null;
  let field: { name: string; parts: string[] } | null = null;
  /** The start tag being read: its name, until its ">" (or "/>"). */
  let openTag: string | null = null;

  const endField = (): void => {
    if (entry !== null && field !== null && !entry.has(field.name)) {
      entry.set(field.name, field.parts.join('').trim());
    }
    field = null;
  };
  const endEntry = (): void => {
    endField();
    const fields = entry;
    entry = null;
    if (fields === null) return;
    if (urls.length + sitemaps.length >= MAX_SITEMAP_ENTRIES) {
      truncated = true;
      tokenizer.pause(); // the rest of the file is not read
      return;
    }
    const loc = entryUrl(fields.get('loc') ?? '', sitemapUrl);
    if (loc === null) return;
    if (format === 'sitemapindex') {
      sitemaps.push(loc);
      return;
    }
    const item: SitemapUrl = { loc };
    const lastmod = fields.get('lastmod');
    if (lastmod) item.lastmod = lastmod;
    const priority = Number(fields.get('priority') || Number.NaN);
    if (Number.isFinite(priority) && priority >= 0 && priority <= 1) item.priority = priority;
    urls.push(item);
  };
  /** The local name of a tag in the sitemap namespace, lower-cased, or null for another namespace. */
  const sitemapName = (name: string): string | null => {
    const lower = name.toLowerCase();
    return lower.startsWith(prefix) && !lower.includes(':', prefix.length)
      ? lower.slice(prefix.length)
      : null;
  };
  const opened = (name: string): void => {
    if (!rootSeen) {
      rootSeen = true;
      const root = /^([\w.-]+:)?(urlset|sitemapindex)$/i.exec(name);
      if (root === null) {
        tokenizer.pause(); // no sitemap: nothing more to read
        return;
      }
      prefix = (root[1] ?? '').toLowerCase();
      format = (root[2] ?? '').toLowerCase() as 'urlset' | 'sitemapindex';
      entryTag = format === 'sitemapindex' ? 'sitemap' : 'url';
      return;
    }
    const local = sitemapName(name);
    if (local === entryTag) {
      endEntry();
      entry = new Map();
    } else if (entry !== null && local !== null && ENTRY_FIELDS.has(local)) {
      endField();
      field = { name: local, parts: [] };
    }
  };
  const closed = (name: string): void => {
    if (format === null) return;
    const local = sitemapName(name);
    if (local === entryTag) endEntry();
    else if (local !== null && local === field?.name) endField();
  };
  const addText = (piece: string): void => {
    if (field !== null) field.parts.push(piece);
  };

  const tokenizer = new Tokenizer(
    { xmlMode: true, decodeEntities: true },
    {
      onopentagname: (start, end) => {
        openTag = text.slice(start, end);
      },
      onopentagend: () => {
        if (openTag !== null) opened(openTag);
        openTag = null;
      },
      onselfclosingtag: () => {
        if (openTag !== null) {
          opened(openTag);
          closed(openTag);
        }
        openTag = null;
      },
      onclosetag: (start, end) => closed(text.slice(start, end)),
      ontext: (start, end) => addText(text.slice(start, end)),
      ontextentity: (codepoint) => addText(String.fromCodePoint(codepoint)),
      oncdata: (start, end, endOffset) => addText(text.slice(start, end - endOffset)),
      onattribdata: () => {},
      onattribentity: () => {},
      onattribend: () => {},
      onattribname: () => {},
      oncomment: () => {},
      ondeclaration: () => {},
      onprocessinginstruction: () => {},
      onend: () => {},
    },
  );
  tokenizer.write(text);
  if (tokenizer.running) {
    tokenizer.end();
    endEntry(); // an entry left open at the end of the file
  }
  if (format === null) {
    return {
      urls: [],
      sitemaps: [],
      format: 'invalid',
      truncated,
      error: 'XML without <urlset> or <sitemapindex>',
    };
  }
  return { urls, sitemaps, format, truncated };
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
