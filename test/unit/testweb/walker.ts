// An independent reference crawler for the tests: plain fetch over the live test web (redirect: 'manual'),
// links found by cheerio in the served HTML, robots.txt judged by the robots-parser package, duplicates by
// SHA-256 of the bodies. It shares no code with the ground truth, so agreement means the model, the server
// and the ground truth tell the same story. Sequential: its BFS order is the ground truth's order.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import * as cheerio from 'cheerio';

// robots-parser is CommonJS whose typings declare an ES default export: load it the CommonJS way.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (
  url: string,
  body: string,
) => { isAllowed(url: string, userAgent: string): boolean | undefined };

export interface WalkRecord {
  type: string;
  status: number | null;
}

export interface WalkResult {
  requested: Set<string>;
  records: Map<string, WalkRecord>;
  duplicateGroups: string[][];
  texts: Map<string, string>;
}

const TRACKING = /^(utm_.*|fbclid|gclid)$/i;

function canon(href: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:') return null;
  const query = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !TRACKING.test(pair.split('=')[0]!));
  const path = url.pathname.replace(/%3([0-9])/g, '$1');
  return `${url.origin}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

function charsetOf(contentType: string, bytes: Buffer): string {
  const fromHeader = /charset=([\w-]+)/i.exec(contentType)?.[1];
  if (fromHeader !== undefined) return fromHeader;
  const head = bytes.subarray(0, 1024).toString('latin1');
  return /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1] ?? 'utf-8';
}

export async function walk(
  hosts: string[],
  seeds: string[],
  opts: { maxDepth: number; robots: boolean; sitemaps: boolean },
): Promise<WalkResult> {
  const requested = new Set<string>();
  const records = new Map<string, WalkRecord>();
  const texts = new Map<string, string>();
  const byHash = new Map<string, string[]>();
  const robots = new Map<string, (url: string) => boolean>();
  const seen = new Set<string>();
  const queue: Array<{ url: string; depth: number }> = [];
  const enqueue = (url: string | null, depth: number) => {
    // 2048: the URL length past which crawlers (trawl, Scrapy, Heritrix at 2083) drop a link
    if (url === null || seen.has(url) || depth > opts.maxDepth || url.length > 2048) return;
    if (!hosts.includes(new URL(url).origin)) return;
    seen.add(url);
    queue.push({ url, depth });
  };

  const readSitemap = async (url: string): Promise<void> => {
    const response = await fetch(url);
    let bytes = Buffer.from(await response.arrayBuffer());
    if (url.endsWith('.gz')) bytes = gunzipSync(bytes);
    const xml = bytes.toString('utf8');
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!.trim());
    for (const location of locations) {
      if (xml.includes('<sitemapindex')) await readSitemap(location);
      else enqueue(canon(location), 0);
    }
  };
  const host = async (origin: string) => {
    if (robots.has(origin)) return robots.get(origin)!;
    const response = await fetch(`${origin}/robots.txt`);
    const text = await response.text();
    let allowed: (url: string) => boolean = () => true;
    if (opts.robots && response.status >= 500) allowed = () => false;
    else if (opts.robots && response.ok) {
      const parsed = robotsParser(`${origin}/robots.txt`, text);
      allowed = (url) => parsed.isAllowed(url, 'trawl') !== false;
    }
    robots.set(origin, allowed);
    if (opts.sitemaps && response.ok) {
      for (const match of text.matchAll(/^sitemap:\s*(\S+)/gim)) await readSitemap(match[1]!);
    }
    return allowed;
  };
  const get = async (url: string) => {
    let response = await fetch(url, { redirect: 'manual' });
    if (response.status === 503 && response.headers.has('retry-after')) {
      await response.body?.cancel();
      response = await fetch(url, { redirect: 'manual' }); // the test does not wait the Retry-After second
    }
    return response;
  };

  /** Bodies of documents and text pages already seen (apart from HTML's duplicate groups). */
  const documentHashes = new Set<string>();
  for (const seed of seeds) enqueue(canon(seed), 0);
  while (queue.length > 0) {
    const { url, depth } = queue.shift()!;
    const allowed = await host(new URL(url).origin);
    if (!allowed(url)) {
      records.set(url, { type: 'DISALLOWED', status: null });
      continue;
    }
    if (requested.has(url)) {
      records.set(url, { type: 'DUPLICATE', status: null });
      continue;
    }
    let current = url;
    const chain = new Set([url]);
    let record: WalkRecord | null = null;
    let response: Response;
    for (let hops = 0; ; hops++) {
      requested.add(current);
      response = await get(current);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) break;
      await response.body?.cancel();
      const target = canon(location, current)!;
      if (hops === 5 || chain.has(target) || target.length > 2048) record = { type: 'INVALID', status: null };
      else if (!(await host(new URL(target).origin))(target)) record = { type: 'DISALLOWED', status: null };
      else if (requested.has(target)) record = { type: 'DUPLICATE', status: null };
      if (record !== null) break;
      chain.add(target);
      current = target;
    }
    if (record !== null) {
      records.set(url, record);
      continue;
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (response.status >= 400) {
      await response.body?.cancel();
      records.set(url, { type: 'INVALID', status: response.status });
      continue;
    }
    if (!contentType.startsWith('text/html')) {
      // a text/plain page is read as text (HTML, no links); a small document is hashed, so a copy is a
      // DUPLICATE; a large binary is never downloaded whole
      const length = Number(response.headers.get('content-length') ?? Number.POSITIVE_INFINITY);
      const plain = contentType.startsWith('text/plain');
      if (!plain && length > 256 * 1024) {
        await response.body?.cancel();
        records.set(url, { type: 'BINARY', status: response.status });
        continue;
      }
      const hash = createHash('sha256')
        .update(Buffer.from(await response.arrayBuffer()))
        .digest('hex');
      const seen = documentHashes.has(hash);
      documentHashes.add(hash);
      records.set(url, { type: seen ? 'DUPLICATE' : plain ? 'HTML' : 'BINARY', status: response.status });
      continue;
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    const hash = createHash('sha256').update(bytes).digest('hex');
    const group = byHash.get(hash) ?? [];
    byHash.set(hash, [...group, url]);
    if (group.length > 0) {
      records.set(url, { type: 'DUPLICATE', status: response.status });
      continue;
    }
    records.set(url, { type: 'HTML', status: response.status });
    const html = new TextDecoder(charsetOf(contentType, bytes)).decode(bytes);
    const $ = cheerio.load(html);
    texts.set(url, $('body').text());
    const metaRobots = $('meta[name="robots" i]').attr('content') ?? '';
    if (/nofollow/i.test(metaRobots)) continue;
    $('a[href]').each((_index, element) => {
      const rel = ($(element).attr('rel') ?? '').toLowerCase().split(/\s+/);
      if (rel.includes('nofollow')) return;
      enqueue(canon($(element).attr('href')!, current), depth + 1);
    });
  }
  return {
    requested,
    records,
    texts,
    duplicateGroups: [...byHash.values()].filter((group) => group.length > 1),
  };
}
