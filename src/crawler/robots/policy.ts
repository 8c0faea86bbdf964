// robots.txt policy for one origin (RFC 9309), matched by the robots-parser package after our own
// pre-processing brings its input in line with the RFC and Google's reference parser (google/robotstxt):
// product tokens, lines without a colon, raw URL paths. Fetch outcomes per RFC 9309 §2.3.1.2–4:
// 2xx parse, 4xx allow all, 5xx or unreachable disallow all.
import { createRequire } from 'node:module';
import { TrawlError } from '../../errors.js';

interface RobotsParserInstance {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
}

const require = createRequire(import.meta.url);
const robotsParser = require('robots-parser') as (url: string, contents: string) => RobotsParserInstance;

export type RobotsKind = 'parsed' | 'allow-all' | 'disallow-all';
export type RobotsResponse = { status: number; body: string } | { unreachable: true; error?: string };

/** Google keeps at most kMaxLineLen − 1 bytes of a line (kMaxLineLen = 2083 × 8, one byte for the NUL); so do
 * we, which also bounds the cost of matching. */
const MAX_LINE_BYTES = 2083 * 8 - 1;

const KNOWN_KEYS = /^(user-agent|allow|disallow|sitemap|crawl-delay)$/;

/**
 * The product token a robots.txt group is matched by (RFC 9309 §2.2.1: `[a-zA-Z_-]+`), from a full
 * User-Agent header ("trawl/0.1 (+https://…)" → "trawl") or a robots.txt `User-agent:` value
 * ("FooBot Bar" → "FooBot"). An empty result means only the global group can apply.
 */
export function productToken(userAgent: string): string {
  const trimmed = userAgent.trim();
  if (trimmed.startsWith('*')) return '*';
  return trimmed.match(/^[A-Za-z_-]+/)?.[0] ?? '';
}

function truncateUtf8(line: string, maxBytes: number): string {
  if (line.length * 3 <= maxBytes || Buffer.byteLength(line) <= maxBytes) return line;
  return Buffer.from(line)
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

/**
 * Rewrites a robots.txt body into the strict `key: value` form robots-parser reads, and takes the
 * Sitemap lines out (they belong to no group, RFC 9309 §2.2.4):
 * - `User-agent` values cut to their product token, so "FOO BAR" is the group of "foo" (RFC 9309 §2.2.1);
 * - `Disallow /x` without a colon is read as `Disallow: /x`, as Google's parser does (ID_LineSyntax_Line);
 * - lines that are no rule (unknown keys, sitemaps, junk) become blank, so that, as in Google's parser,
 *   they do not split a run of User-agent lines into separate groups;
 * - Google's index.html rule: `Allow: /dir/index.html` also allows `/dir/` (GoogleOnly_IndexHTMLisDirectory).
 */
export function normalizeRobotsBody(body: string): { rules: string; sitemaps: string[] } {
  const out: string[] = [];
  const sitemaps: string[] = [];
  for (const raw of body.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const kept = truncateUtf8(raw, MAX_LINE_BYTES);
    // A comment runs to the end of the line; /#.*$/ would be quadratic on "###…\u2028" ("." stops at U+2028).
    const hash = kept.indexOf('#');
    const line = (hash < 0 ? kept : kept.slice(0, hash)).trim();
    let key: string;
    let value: string;
    const colon = line.indexOf(':');
    if (colon >= 0) {
      key = line.slice(0, colon).trim();
      value = line.slice(colon + 1).trim();
    } else {
      // Without a colon, whitespace separates key and value only when there are exactly two words.
      const words = line.split(/[ \t]+/);
      if (words.length !== 2) {
        out.push('');
        continue;
      }
      [key, value] = words as [string, string];
    }
    const lower = key.toLowerCase();
    if (!KNOWN_KEYS.test(lower)) {
      out.push('');
    } else if (lower === 'sitemap') {
      if (value !== '') sitemaps.push(value);
      out.push('');
    } else if (lower === 'user-agent') {
      out.push(`user-agent: ${productToken(value)}`);
    } else {
      out.push(`${lower}: ${value}`);
      const indexHtml = lower === 'allow' ? value.match(/^(.*\/)index\.html?$/) : null;
      if (indexHtml) out.push(`allow: ${indexHtml[1]}$`);
    }
  }
  return { rules: out.join('\n'), sitemaps };
}

/**
 * The part of a URL that robots.txt rules match: path, params and query, fragment dropped, "/" when
 * empty. A port of google/robotstxt's GetPathParamsQuery, working on the string as given rather than
 * through WHATWG URL parsing, which would percent-encode and resolve dot segments.
 */
export function robotsPathOf(url: string): string {
  const searchStart = url.startsWith('//') ? 2 : 0;
  const firstOf = (chars: string, from: number): number => {
    for (let i = from; i < url.length; i++) if (chars.includes(url[i]!)) return i;
    return -1;
  };
  const earlyPath = firstOf('/?;', searchStart);
  let protocolEnd = url.indexOf('://', searchStart);
  // A path, param or query starting before "://" means the "://" is no scheme separator.
  if (protocolEnd < 0 || (earlyPath >= 0 && earlyPath < protocolEnd)) protocolEnd = searchStart;
  else protocolEnd += 3;
  const pathStart = firstOf('/?;', protocolEnd);
  if (pathStart < 0) return '/';
  const hash = url.indexOf('#', searchStart);
  if (hash >= 0 && hash < pathStart) return '/';
  const path = url.slice(pathStart, hash < 0 ? url.length : hash);
  return path.startsWith('/') ? path : `/${path}`;
}

/**
 * robots-parser runs the path through WHATWG URL parsing, which percent-encodes raw non-ASCII characters.
 * Google's reference compares octets as given: a raw "ツ" in a URL does not match the rule "/%E3%83%84"
 * (ID_Encoding). Escaping the raw bytes as "%25XX" keeps them distinct from their encoded form. Crawled
 * URLs are WHATWG-serialised, hence already encoded, so this matters only for hand-made input.
 */
function escapeRawOctets(path: string): string {
  return path.replace(/[^\p{ASCII}]+/gu, (chars) =>
    [...Buffer.from(chars)].map((b) => `%25${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/**
 * The robots.txt URL that governs a page: the page URL's own origin + /robots.txt (RFC 9309 §2.3).
 * Called on the URL actually fetched, so a redirect to another host is judged by that host's file.
 */
export function robotsUrlFor(pageUrl: string): string {
  return new URL('/robots.txt', new URL(pageUrl).origin).href;
}

export class RobotsPolicy {
  readonly robotsUrl: string;
  readonly kind: RobotsKind;
  readonly status: number | null;
  readonly sitemaps: string[];
  readonly #origin: string;
  readonly #parser: RobotsParserInstance | null;

  private constructor(robotsUrl: string, kind: RobotsKind, status: number | null, body: string | null) {
    this.robotsUrl = robotsUrl;
    this.kind = kind;
    this.status = status;
    this.#origin = new URL(robotsUrl).origin;
    this.sitemaps = [];
    if (body === null) {
      this.#parser = null;
      return;
    }
    const { rules, sitemaps } = normalizeRobotsBody(body);
    this.#parser = robotsParser(robotsUrl, rules);
    for (const sitemap of sitemaps) {
      // Sitemap URLs should be absolute; a relative one is resolved, a malformed one ignored like any bad line.
      if (!URL.canParse(sitemap, robotsUrl)) continue;
      const resolved = new URL(sitemap, robotsUrl);
      if (resolved.protocol === 'http:' || resolved.protocol === 'https:') this.sitemaps.push(resolved.href);
    }
  }

  /**
   * RFC 9309 §2.3.1: 2xx → the rules; 3xx left after redirects and 4xx → "unavailable", allow all;
   * 5xx and unreachable → disallow all. 429 is taken as a server error, as Google does: the host is
   * asking crawlers to back off, so reading it as "no robots.txt" would be the wrong answer.
   */
  static from(robotsUrl: string, response: RobotsResponse): RobotsPolicy {
    if ('unreachable' in response) return new RobotsPolicy(robotsUrl, 'disallow-all', null, null);
    const { status, body } = response;
    if (status >= 200 && status < 300) return new RobotsPolicy(robotsUrl, 'parsed', status, body);
    if (status >= 300 && status < 500 && status !== 429)
      return new RobotsPolicy(robotsUrl, 'allow-all', status, null);
    return new RobotsPolicy(robotsUrl, 'disallow-all', status, null);
  }

  static allowAll(robotsUrl: string): RobotsPolicy {
    return new RobotsPolicy(robotsUrl, 'allow-all', null, null);
  }

  /**
   * May `userAgent` (a full User-Agent header; its product token picks the group) fetch `url`?
   * Only path and query are matched. The caller picks the policy with robotsUrlFor(url); a URL of
   * another origin is refused loudly rather than judged by the wrong file.
   */
  isAllowed(url: string, userAgent: string): boolean {
    if (
      /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url) &&
      URL.canParse(url) &&
      new URL(url).origin !== this.#origin
    ) {
      throw new TrawlError('internal', `the robots.txt of ${this.#origin} was asked about ${url}`, {
        detail: { robotsUrl: this.robotsUrl, url },
      });
    }
    if (this.kind === 'allow-all') return true;
    if (this.kind === 'disallow-all') return false;
    const path = escapeRawOctets(robotsPathOf(url));
    return this.#parser!.isAllowed(`${this.#origin}${path}`, productToken(userAgent) || '*') !== false;
  }

  /** Crawl-delay of the group that applies, in ms; undefined when absent or not a non-negative number. */
  crawlDelayMs(userAgent: string): number | undefined {
    if (this.#parser === null) return undefined;
    const seconds = this.#parser.getCrawlDelay(productToken(userAgent) || '*');
    return seconds === undefined || !Number.isFinite(seconds) || seconds < 0 ? undefined : seconds * 1000;
  }
}
