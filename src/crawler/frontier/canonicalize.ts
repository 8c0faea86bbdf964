// One canonical form per URL, so the frontier, the duplicate check (docs/reference.md#crawl-records) and the link graph agree
// on identity. WHATWG URL parsing (Node's URL) does the syntax work; on top of it the semantics-preserving
// normalizations of RFC 3986 §6.2.2–6.2.3, plus dropping fragments and known tracking parameters.
//
// Rules, in the order applied (docs/canonicalization.md has the same table with examples):
//  R1  resolve against `base`; unparseable input or base → null
//  R2  scheme must be http or https, else null (mailto:, javascript:, data:, ftp: … are not crawlable)
//  R3  URLs with a user name or password → null: a crawler must not follow or store credentials
//  R4  scheme and host lower-cased (WHATWG)
//  R5  internationalized host → punycode (WHATWG, UTS #46); IPv4 shorthand → dotted quad (WHATWG)
//  R6  trailing dot(s) of the host removed ("example.com." → "example.com"); a host left empty → null
//  R7  default port removed (80 for http, 443 for https) (WHATWG)
//  R8  dot segments resolved, also their percent-encoded forms %2e (WHATWG, RFC 3986 §5.2.4); "\" → "/"
//  R9  empty path → "/" (WHATWG)
//  R10 characters that must be encoded are percent-encoded as UTF-8 (WHATWG)
//  R11 percent-encoding: hex digits upper-cased; encoded unreserved characters (ALPHA DIGIT - . _ ~) decoded
//      (RFC 3986 §6.2.2.1–2), in path, query and kept fragment; reserved ones (%2F, %3D, %26 …) stay encoded
//  R12 fragment removed, unless keepFragment (an empty "#" is removed either way)
//  R13 tracking parameters removed (stripTrackingParams, default on), names compared case-insensitively after
//      percent-decoding; the others keep their order and their bytes
//  R13b session-id parameters removed (stripSessionIds, default on), as Heritrix's StripSessionIDs does: query
//      parameters jsessionid, phpsessid, sessionid, aspsessionid<8 letters> (names case-insensitive), sid
//      only when its value has Heritrix's shape (32 letters or digits: "sid" may also name a resource), and
//      the ";jsessionid=…" path parameter
//  R14 empty query pairs ("a=1&&b=2", trailing "&") removed; an empty query "?" removed
//  R15 query order kept, unless sortQuery: then a stable sort by parameter name (repeated names keep order)
//  R16 path case kept (paths are case-sensitive); "/index.html" is NOT removed (removeDefaultIndex is false:
//      a server may serve different content at "/" and "/index.html")
// The result is a fixed point: canonicalizeUrl(canonicalizeUrl(x)) === canonicalizeUrl(x).

export interface CanonicalizeOptions {
  /** Drop the parameters of TRACKING_PARAMS and the utm_* family. Default true. */
  stripTrackingParams?: boolean;
  /** Drop session-id parameters (R13b: jsessionid, phpsessid, sessionid, aspsessionid…, sid). Default true. */
  stripSessionIds?: boolean;
  /** Sort query parameters by name (stable). Default false: order can matter to the server. */
  sortQuery?: boolean;
  /** Keep the fragment. Default false: a fragment never reaches the server. */
  keepFragment?: boolean;
  /** Removing "index.html"-like paths is deliberately not offered; the option exists to say so. */
  removeDefaultIndex?: false;
}

/** Parameter names (lower case) that only identify a campaign or click, never the resource. */
export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  // Google Ads / Analytics
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  '_ga',
  '_gl',
  // Meta, Microsoft, Yandex, Twitter/X, TikTok, LinkedIn, Instagram, Snapchat
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'sccid',
  // Mailchimp, Marketo, HubSpot, Vero, Omeda
  'mc_cid',
  'mc_eid',
  'mkt_tok',
  '_hsenc',
  '_hsmi',
  '__hstc',
  '__hssc',
  '__hsfp',
  'vero_id',
  'vero_conv',
  'oly_anon_id',
  'oly_enc_id',
]);

/** Every name starting with this prefix is tracking (utm_source, utm_medium, utm_campaign, utm_term, …). */
export const TRACKING_PARAM_PREFIX = 'utm_';

/**
 * Session ids put in URLs by servlet containers, PHP and ASP: the same page under a new name per visit.
 * Heritrix strips the same names; `sid` is ambiguous, so only Heritrix's 32-character value shape goes.
 */
const SESSION_PARAMS: ReadonlySet<string> = new Set(['jsessionid', 'phpsessid', 'sessionid']);
const ASP_SESSION_PARAM = /^aspsessionid[a-z]{8}$/;
const SID_VALUE = /^[0-9a-z]{32}$/i;
/** The servlet form /path;jsessionid=… (before the query), names case-insensitive. */
const JSESSIONID_PATH_PARAM = /;jsessionid=[^/;?#]*/gi;

export function isSessionIdParam(name: string, value: string): boolean {
  const lower = decodeName(name).toLowerCase();
  if (SESSION_PARAMS.has(lower) || ASP_SESSION_PARAM.test(lower)) return true;
  return lower === 'sid' && SID_VALUE.test(value);
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const PERCENT_ENCODED = /%([0-9A-Fa-f]{2})/g;

/** R11: upper-case hex digits, decode unreserved characters. */
function normalizePercentEncoding(text: string): string {
  return text.replace(PERCENT_ENCODED, (_match, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name; // malformed UTF-8 in the name: compare the raw text
  }
}

export function isTrackingParam(name: string): boolean {
  const lower = decodeName(name).toLowerCase();
  return lower.startsWith(TRACKING_PARAM_PREFIX) || TRACKING_PARAMS.has(lower);
}

function paramName(pair: string): string {
  const equals = pair.indexOf('=');
  return equals === -1 ? pair : pair.slice(0, equals);
}

function paramValue(pair: string): string {
  const equals = pair.indexOf('=');
  return equals === -1 ? '' : pair.slice(equals + 1);
}

/** R13–R15 on the raw query (without "?"); pairs are kept byte for byte, never re-serialized. */
function normalizeQuery(
  query: string,
  stripTracking: boolean,
  stripSessions: boolean,
  sort: boolean,
): string {
  let pairs = query.split('&').filter((pair) => pair !== '');
  if (stripTracking) pairs = pairs.filter((pair) => !isTrackingParam(paramName(pair)));
  if (stripSessions) pairs = pairs.filter((pair) => !isSessionIdParam(paramName(pair), paramValue(pair)));
  if (sort) {
    // Array.prototype.sort is stable (ES2019), so repeated names keep their relative order.
    pairs.sort((a, b) => {
      const nameA = paramName(a);
      const nameB = paramName(b);
      return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
    });
  }
  return pairs.join('&');
}

/** `host` without trailing dots ("example.com." → "example.com"); a loop, as /\.+$/ is quadratic on "a....b". */
export function stripTrailingDots(host: string): string {
  let end = host.length;
  while (end > 0 && host[end - 1] === '.') end--;
  return host.slice(0, end);
}

/**
 * The canonical form of `input` (resolved against `base` when given), or null when it is not a crawlable
 * http(s) URL: unparseable, another scheme, credentials in it, or an empty host.
 */
export function canonicalizeUrl(input: string, base?: string, opts: CanonicalizeOptions = {}): string | null {
  const {
    stripTrackingParams = true,
    stripSessionIds = true,
    sortQuery = false,
    keepFragment = false,
  } = opts;
  let url: URL;
  try {
    url = base === undefined ? new URL(input) : new URL(input, base);
  } catch {
    return null; // R1
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null; // R2
  if (url.username !== '' || url.password !== '') return null; // R3

  const hostname = stripTrailingDots(url.hostname); // R6
  if (hostname === '') return null;
  const host = url.port === '' ? hostname : `${hostname}:${url.port}`; // R7: WHATWG already emptied default ports

  let path = normalizePercentEncoding(url.pathname); // R8–R11, R16
  if (stripSessionIds) path = path.replace(JSESSIONID_PATH_PARAM, ''); // R13b
  const query = normalizeQuery(
    normalizePercentEncoding(url.search.slice(1)),
    stripTrackingParams,
    stripSessionIds,
    sortQuery,
  );
  const fragment = keepFragment ? normalizePercentEncoding(url.hash.slice(1)) : ''; // R12

  return `${url.protocol}//${host}${path}${query === '' ? '' : `?${query}`}${fragment === '' ? '' : `#${fragment}`}`;
}

/**
 * The longest canonical URL a crawl keeps, in bytes (a canonical URL is ASCII). A URL is the crawl's key, and
 * a key must fit a btree entry (PostgreSQL's limit is about 2.7 KB); 2048 is also the seeds' limit, the
 * sitemap protocol's, and about the 2083 at which Scrapy and Heritrix drop links. Longer links and images
 * are not crawled but listed on the page that holds them, with urlTooLong's reason.
 */
export const MAX_URL_BYTES = 2048;

/** Why a canonical URL is too long to keep, or null when it is not. */
export function urlTooLong(url: string): string | null {
  if (url.length <= MAX_URL_BYTES / 3) return null;
  const bytes = Buffer.byteLength(url);
  return bytes > MAX_URL_BYTES ? `URL of ${bytes} bytes, over the ${MAX_URL_BYTES}-byte limit` : null;
}
