// Topic-sensitive link weighting (docs/reference.md#topic-weights): a link is weighted from the page that holds it, before it
// is fetched: 1 when its anchor text or URL names a topic, else 1/(d+2) for the distance d in words to the
// nearest topic occurrence in the main text (0 beyond maxDistanceWords), 0 for everything when T is empty.
//
// Precise rules (each has a test in test/unit/score/topic-weights.test.ts):
//  - topics are tokenized like document words (lower-cased letter runs); a topic of several words ("grand
//    slam") is a phrase and occurs only where all its words are consecutive in the text; a topic occurrence
//    counts only inside the main text;
//  - "contains" means whole words: anchor "Grand Slam titles" contains "grand slam", "tennisball" does not
//    contain "tennis". The URL is matched without its scheme, percent-decoded, with `_ - + %20` and every
//    other non-letter as word separators ("/wiki/Grand_Slam_(tennis)" contains "grand slam");
//  - the link occupies the anchor's words [p, p+n) of ParsedPage.textWords; a topic occurrence [t, t+m)
//    after it is at d = t − (p+n), one before it at d = p − (t+m): the number of words strictly between,
//    so adjacent is 0. An occurrence overlapping the anchor is d = 0;
//  - one entry per distinct URL, weighted at its first main-text occurrence (later ones are ignored), in
//    document order; skipped links (the "#"/":" option) are left out entirely.
import { type ParsedLink, type ParsedPage, type ParseHtmlOptions, parseHtml } from '../parse/parse-html.js';
import { tokenize } from '../text/tokenize.js';

export type TopicLinkReason = 'anchor' | 'url' | 'distance' | 'far' | 'no-topics';

export interface TopicLinkWeight {
  url: string;
  weight: number;
  /** Words between the link and the nearest topic occurrence; null when not measured or no occurrence. */
  distanceWords: number | null;
  reason: TopicLinkReason;
}

export interface TopicWeightOptions {
  /**
   * Main text starts at the first <p> (Wikipedia). Default: ParsedPage.mainTextStart, i.e. what parseHtml
   * was asked for. When true and the page has no <p>, the page has no main text and no links.
   */
  mainTextStartsAtFirstParagraph?: boolean;
  /** Skip links whose raw href has a "#" or whose URL path has a ":" (Wikipedia's File:, Special: …). */
  skipLinksWithHashOrColon?: boolean;
  /** Largest distance that still earns weight 1/(d+2). Default 20. */
  maxDistanceWords?: number;
}

export const DEFAULT_MAX_DISTANCE_WORDS = 20;

function topicPhrases(topics: readonly string[]): string[][] {
  const seen = new Set<string>();
  const phrases: string[][] = [];
  for (const topic of topics) {
    const words = tokenize(topic);
    const key = words.join(' ');
    if (words.length === 0 || seen.has(key)) continue;
    seen.add(key);
    phrases.push(words);
  }
  return phrases;
}

function containsPhrase(haystack: readonly string[], phrase: readonly string[]): boolean {
  return phraseStartsIn(haystack, phrase, 0, haystack.length).length > 0;
}

/** Start indexes in [from, to) where `phrase` occurs in `haystack` (the phrase may not run past `to`). */
function phraseStartsIn(
  haystack: readonly string[],
  phrase: readonly string[],
  from: number,
  to: number,
): number[] {
  const starts: number[] = [];
  const first = phrase[0];
  for (let start = from; start + phrase.length <= to; start++) {
    if (haystack[start] !== first) continue;
    let k = 1;
    while (k < phrase.length && haystack[start + k] === phrase[k]) k++;
    if (k === phrase.length) starts.push(start);
  }
  return starts;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The URL's words: host, path and query, percent-decoded; the tokenizer treats _ - + as separators. */
function urlWords(url: string): string[] {
  const schemeEnd = url.indexOf('://');
  return tokenize(safeDecode(schemeEnd === -1 ? url : url.slice(schemeEnd + 3)));
}

function hasHashOrColon(link: ParsedLink): boolean {
  if (link.href.includes('#')) return true;
  const url = URL.parse(link.url);
  return url !== null && safeDecode(url.pathname).includes(':');
}

/**
 * Nearest-occurrence look-ups over the main text, O(1) per link: for every word index i, the latest end of an
 * occurrence ending at or before i, the earliest start at or after i, and the latest end among occurrences
 * starting before i (to detect overlap with an anchor).
 */
class TopicOccurrences {
  private readonly latestEndAtOrBefore: Int32Array;
  private readonly earliestStartAtOrAfter: Int32Array;
  private readonly latestEndOfStartBefore: Int32Array;
  readonly count: number;

  constructor(words: readonly string[], phrases: readonly string[][], mainStart: number) {
    const n = words.length;
    const endsAt = new Int32Array(n + 1).fill(-1); // endsAt[e] = e when some occurrence ends at e
    const startsAt = new Uint8Array(n + 1);
    const longestFrom = new Int32Array(n + 1).fill(-1); // longest occurrence end for a start
    let count = 0;
    for (const phrase of phrases) {
      for (const start of phraseStartsIn(words, phrase, mainStart, n)) {
        const end = start + phrase.length;
        endsAt[end] = end;
        startsAt[start] = 1;
        longestFrom[start] = Math.max(longestFrom[start]!, end);
        count++;
      }
    }
    this.count = count;
    this.latestEndAtOrBefore = new Int32Array(n + 1);
    this.latestEndOfStartBefore = new Int32Array(n + 1);
    let latestEnd = -1;
    let latestEndOfStart = -1;
    for (let i = 0; i <= n; i++) {
      latestEnd = Math.max(latestEnd, endsAt[i]!);
      this.latestEndAtOrBefore[i] = latestEnd;
      this.latestEndOfStartBefore[i] = latestEndOfStart;
      latestEndOfStart = Math.max(latestEndOfStart, longestFrom[i]!);
    }
    this.earliestStartAtOrAfter = new Int32Array(n + 2);
    let earliestStart = -1;
    for (let i = n; i >= 0; i--) {
      if (startsAt[i] === 1) earliestStart = i;
      this.earliestStartAtOrAfter[i] = earliestStart;
    }
  }

  /** Words between the span [start, end) and the nearest occurrence; null when there is none. */
  distance(start: number, end: number): number | null {
    if (this.count === 0) return null;
    if (this.latestEndOfStartBefore[end]! > start) return 0; // an occurrence overlaps the span
    let best: number | null = null;
    const before = this.latestEndAtOrBefore[start]!;
    if (before >= 0) best = start - before;
    const after = this.earliestStartAtOrAfter[end]!;
    if (after >= 0 && (best === null || after - end < best)) best = after - end;
    return best;
  }
}

export function topicLinkWeights(
  page: ParsedPage,
  topics: readonly string[],
  opts: TopicWeightOptions = {},
): TopicLinkWeight[] {
  const maxDistanceWords = opts.maxDistanceWords ?? DEFAULT_MAX_DISTANCE_WORDS;
  const phrases = topicPhrases(topics);

  const mainTextStart =
    opts.mainTextStartsAtFirstParagraph === undefined
      ? page.mainTextStart
      : opts.mainTextStartsAtFirstParagraph
        ? page.firstParagraph
        : { wordPosition: 0, linkIndex: 0 };
  if (mainTextStart === null) return [];

  const occurrences =
    phrases.length > 0 ? new TopicOccurrences(page.textWords, phrases, mainTextStart.wordPosition) : null;
  const seen = new Set<string>();
  const weights: TopicLinkWeight[] = [];
  for (let i = mainTextStart.linkIndex; i < page.links.length; i++) {
    const link = page.links[i]!;
    if (seen.has(link.url)) continue;
    if (opts.skipLinksWithHashOrColon === true && hasHashOrColon(link)) continue;
    seen.add(link.url);
    weights.push(weighLink(link, phrases, occurrences, maxDistanceWords));
  }
  return weights;
}

function weighLink(
  link: ParsedLink,
  phrases: readonly string[][],
  occurrences: TopicOccurrences | null,
  maxDistanceWords: number,
): TopicLinkWeight {
  const { url } = link;
  if (occurrences === null) return { url, weight: 0, distanceWords: null, reason: 'no-topics' };
  const anchorWords = tokenize(link.anchorText);
  if (phrases.some((phrase) => containsPhrase(anchorWords, phrase))) {
    return { url, weight: 1, distanceWords: null, reason: 'anchor' };
  }
  const wordsOfUrl = urlWords(url);
  if (phrases.some((phrase) => containsPhrase(wordsOfUrl, phrase))) {
    return { url, weight: 1, distanceWords: null, reason: 'url' };
  }
  const distanceWords = occurrences.distance(link.wordPosition, link.wordPosition + link.anchorWordCount);
  if (distanceWords !== null && distanceWords <= maxDistanceWords) {
    return { url, weight: 1 / (distanceWords + 2), distanceWords, reason: 'distance' };
  }
  return { url, weight: 0, distanceWords, reason: 'far' };
}

/** The same from raw HTML: parses with mainTextStartsAtFirstParagraph (Wikipedia's layout) unless told. */
export function topicLinkWeightsFromHtml(
  html: string,
  pageUrl: string,
  topics: readonly string[],
  opts: TopicWeightOptions & Pick<ParseHtmlOptions, 'normalizeUrl'> = {},
): TopicLinkWeight[] {
  const mainTextStartsAtFirstParagraph = opts.mainTextStartsAtFirstParagraph ?? true;
  const page = parseHtml(html, pageUrl, {
    mainTextStartsAtFirstParagraph,
    ...(opts.normalizeUrl ? { normalizeUrl: opts.normalizeUrl } : {}),
  });
  return topicLinkWeights(page, topics, { ...opts, mainTextStartsAtFirstParagraph });
}
