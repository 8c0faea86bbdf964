// The URL identity the ground truth assumes, written here independently of src/crawler/frontier so a bug there
// cannot hide in the expected sets. It covers every form the test web puts in its links:
//  - scheme and host lower-cased, IPv4 forms ("0X7F.0.0.2") made dotted-quad   (WHATWG URL)
//  - default port removed, leading zeros of a port dropped ("0041234")          (WHATWG URL)
//  - dot segments ("../", "./") resolved                                       (WHATWG URL)
//  - fragment removed
//  - percent-encoded unreserved characters decoded ("t%38" → "t8"), hex upper-cased (RFC 3986 §6.2.2)
//  - tracking parameters removed: utm_* and the names in TRACKING_PARAMS; the other pairs keep their order
//  - empty query pairs and an empty "?" removed

export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  'gclid',
  'dclid',
  'fbclid',
  'msclkid',
  'yclid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
]);

export function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || TRACKING_PARAMS.has(lower);
}

function normalizePercent(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_all, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/** Canonical form of href resolved against base, or null when it is not an http(s) URL. */
export function canonicalUrl(href: string, base?: string): string | null {
  let url: URL;
  try {
    url = base === undefined ? new URL(href) : new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const pairs = normalizePercent(url.search.slice(1))
    .split('&')
    .filter((pair) => pair !== '' && !isTrackingParam(pair.split('=')[0]!));
  const query = pairs.length > 0 ? `?${pairs.join('&')}` : '';
  return `${url.protocol}//${url.host}${normalizePercent(url.pathname)}${query}`;
}

/** The request target (path and query) of a canonical URL. */
export function requestTarget(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}
