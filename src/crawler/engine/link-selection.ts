// Which links of a parsed page enter the frontier, with what weight, which of the images it shows are fetched
// too, and which of its links and images the crawl cannot keep. Pure: the runner supplies the scope and what it
// already knows of each URL.
import { urlTooLong } from '../frontier/canonicalize.js';
import type { ScopeVerdict } from '../frontier/scope.js';
import { MAX_PATTERN_URL_LENGTH } from '../frontier/url-patterns.js';
import { LruMap } from '../lru-map.js';
import type { ParsedPage } from '../parse/parse-html.js';
import { topicLinkWeights } from '../score/index.js';
import type { CrawlSettings, DiscoveredUrl, FrontierLimits, SkippedUrl } from './ports.js';

/** Characters of a skipped URL kept to show it by (canonical URLs are ASCII, so a cut splits nothing). */
const SKIPPED_URL_HEAD = 300;

const TOO_LONG_FOR_PATTERNS = `too-long-for-patterns: scope patterns are run only on URLs of up to ${MAX_PATTERN_URL_LENGTH} characters`;

/** Origins of the scheme-and-authority prefixes seen last: a page's links name a handful of hosts. */
const originsByPrefix = new LruMap<string, string>(10_000);
const HTTP_PREFIX = /^https?:\/\//i;
const AUTHORITY_END = /[/\\?#]/;

/**
 * The origin of an http(s) URL. It depends only on the scheme and the authority, so the text before the path
 * (or query, or fragment) is parsed once and remembered: a full parse for each link would be a large share of
 * a plain crawl's parse-and-select time. Anything else is parsed whole.
 */
export function originOf(url: string): string {
  if (!HTTP_PREFIX.test(url)) return new URL(url).origin;
  const schemeEnd = url.indexOf('//') + 2;
  const authorityEnd = url.slice(schemeEnd).search(AUTHORITY_END);
  const prefix = authorityEnd === -1 ? url : url.slice(0, schemeEnd + authorityEnd);
  let origin = originsByPrefix.get(prefix);
  if (origin === undefined) {
    origin = new URL(prefix).origin;
    originsByPrefix.set(prefix, origin);
  }
  return origin;
}

/** Enough of an over-long URL to recognize it by. */
export function urlHead(url: string): string {
  return url.length <= SKIPPED_URL_HEAD ? url : `${url.slice(0, SKIPPED_URL_HEAD)}…`;
}

export interface LinkRules
  extends Pick<
    CrawlSettings,
    'strategy' | 'topics' | 'topicOptions' | 'inheritPriority' | 'respectNofollow' | 'ignoreInternal'
  > {
  /** The crawl's scope verdict for a link at `depth` found on `foundOn`. */
  scope(url: string, depth: number, foundOn: string): ScopeVerdict;
  /** This runner queued the URL before (the store skips its insert). */
  known(url: string): boolean;
  /** robots.txt already forbids the URL (why), when its host's file is in hand; else null. */
  disallowed(url: string): string | null;
  /** The images a page shows are fetched (documents.types has `image`), not only recorded. */
  fetchImages: boolean;
}

/**
 * The frontier weight of each link of a page, by strategy (docs/reference.md#strategies); null drops the link.
 * bfs: all equal. best-first: the score of the page holding the link. topic: 1, 1/(d+2) or 0 from the
 * words around the link in the main text; links outside the main text (or with # or : in their path,
 * when that option is on) are not followed. With inheritPriority, a topic link's priority is the mean of
 * that weight and the priority the page holding it was fetched at (a seed's: 1), shark-search's inherited
 * score (Hersovici et al., 1998): a page reached through topical pages outranks one that only stands near a
 * topic word on a page far from the topic.
 */
export function linkPriorities(
  parsed: ParsedPage,
  page: { depth: number; priority: number; score: number | null },
  rules: Pick<LinkRules, 'strategy' | 'topics' | 'topicOptions' | 'inheritPriority'>,
): (url: string) => number | null {
  if (rules.strategy === 'best-first') return () => page.score ?? 0;
  if (rules.strategy !== 'topic') return () => 0;
  const inherited = page.depth === 0 ? 1 : page.priority;
  const weights = new Map<string, number>();
  for (const entry of topicLinkWeights(parsed, rules.topics, rules.topicOptions)) {
    if (weights.has(entry.url)) continue;
    weights.set(entry.url, rules.inheritPriority ? (entry.weight + inherited) / 2 : entry.weight);
  }
  return (url) => weights.get(url) ?? null;
}

/**
 * The links to queue (one per target, document order), the images shown, those of them to fetch
 * (queuedImages), and what is skipped, with why.
 */
export function selectLinks(
  parsed: ParsedPage,
  page: { finalUrl: string; depth: number; priority: number; score: number | null },
  rules: LinkRules,
): {
  links: DiscoveredUrl[];
  images: Array<{ url: string; alt: string }>;
  queuedImages: DiscoveredUrl[];
  skipped: SkippedUrl[];
} {
  const { finalUrl, depth } = page;
  const links: DiscoveredUrl[] = [];
  const images: Array<{ url: string; alt: string }> = [];
  const skipped: SkippedUrl[] = [];
  const followsNothing = rules.respectNofollow && parsed.metaRobots.nofollow;
  if (!followsNothing) {
    const priorityOf = linkPriorities(parsed, page, rules);
    const pageHost = new URL(finalUrl).host;
    const seen = new Set<string>();
    for (const link of parsed.links) {
      if (seen.has(link.url) || (rules.respectNofollow && link.nofollow)) continue;
      seen.add(link.url);
      const priority = priorityOf(link.url);
      if (priority === null) continue;
      if (rules.ignoreInternal && new URL(link.url).host === pageHost) continue;
      const verdict = rules.scope(link.url, depth + 1, finalUrl);
      if (!verdict.inScope) {
        // out of scope by the crawl's rules is no news; a link the patterns could not be run on is
        if (verdict.reason === 'too-long-for-patterns') {
          skipped.push({ kind: 'link', url: urlHead(link.url), reason: TOO_LONG_FOR_PATTERNS });
        }
        continue;
      }
      const tooLong = urlTooLong(link.url);
      if (tooLong !== null) {
        skipped.push({ kind: 'link', url: urlHead(link.url), reason: tooLong });
        continue;
      }
      // a URL this runner queued before is not inserted again: what robots.txt says of it is not asked
      const known = rules.known(link.url);
      links.push({
        url: link.url,
        origin: originOf(link.url),
        depth: depth + 1,
        priority,
        anchor: link.anchorText.slice(0, 500),
        known,
        disallowed: known ? null : rules.disallowed(link.url),
      });
    }
  }
  const seenImages = new Set<string>();
  for (const image of parsed.images) {
    if (seenImages.has(image.url)) continue;
    seenImages.add(image.url);
    const tooLong = urlTooLong(image.url);
    if (tooLong !== null) skipped.push({ kind: 'image', url: urlHead(image.url), reason: tooLong });
    else images.push({ url: image.url, alt: image.alt.slice(0, 500) });
  }
  const queuedImages =
    rules.fetchImages && !followsNothing
      ? imagesToFetch(images, page, rules, new Set(links.map((link) => link.url)))
      : [];
  return { links, images, queuedImages, skipped };
}

/**
 * The images a page shows that enter the frontier, when the crawl fetches images. An image is not a link: it
 * is queued here beside the links (same frontier, host turns, robots.txt, maxPages budget and size caps) but
 * recorded only in the page's images, never as a link, so it is neither an outlink nor a PageRank edge. It
 * is one step from its page, as a linked image is: depth + 1 under the crawl's scope, so maxDepth counts it
 * and a page at maxDepth has its images recorded, not fetched. It weighs what its page's links weigh in
 * best-first (the page's score) and 0, the last of a page's URLs, otherwise (topic weights are of links). A
 * page that says nofollow has none fetched. A URL its page also links is queued once, as the link.
 */
function imagesToFetch(
  images: Array<{ url: string }>,
  page: { finalUrl: string; depth: number; score: number | null },
  rules: LinkRules,
  linked: ReadonlySet<string>,
): DiscoveredUrl[] {
  const queued: DiscoveredUrl[] = [];
  const priority = rules.strategy === 'best-first' ? (page.score ?? 0) : 0;
  for (const image of images) {
    if (linked.has(image.url) || !rules.scope(image.url, page.depth + 1, page.finalUrl).inScope) continue;
    const known = rules.known(image.url);
    queued.push({
      url: image.url,
      origin: originOf(image.url),
      depth: page.depth + 1,
      priority,
      anchor: '',
      known,
      disallowed: known ? null : rules.disallowed(image.url),
    });
  }
  return queued;
}

/**
 * The links of a fetched page that a store writes to the frontier: the ones this runner has not queued before
 * and, when rediscovery raises priorities, known ones with a weight above 0 too (they may now weigh more than
 * the link that queued them; no priority is below 0, so a weight of 0 can raise none).
 */
export function linksToQueue(links: readonly DiscoveredUrl[], frontier: FrontierLimits): DiscoveredUrl[] {
  return links.filter((link) => !link.known || (frontier.raiseOnRediscovery === true && link.priority > 0));
}
