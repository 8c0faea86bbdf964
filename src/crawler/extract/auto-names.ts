// What class and id names (and itemprop) say about an element to `auto` (auto.ts): Readability's unlikely,
// maybe, negative and positive names with the trade's other names for boilerplate, comment threads, the site's
// own header, captions, bylines and author boxes; and the verdicts the algorithm reads from them.
import type { Element } from 'domhandler';

/** Readability's unlikely candidates, with the trade's other names for boilerplate. */
export const UNLIKELY_NAMES =
  /-ad-|ai2html|banner|breadcrumb|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote|share|sharing|promo|newsletter|subscribe|cookie|outbrain|taboola|recommend|copyright|disclaimer|legal|colophon/i;
/** Names that rescue an element from UNLIKELY_NAMES (Readability's okMaybeItsACandidate). */
export const MAYBE_NAMES = /and|article|body|column|content|main|mathjax|shadow/i;
/** Names that mean boilerplate even beside MAYBE_NAMES ("comments-content"): out unless they hold the headline. */
export const STRONG_BOILERPLATE_NAMES =
  /comment|disqus|replies|respond|trackback|pingback|related|sharing|sharedaddy|social|sponsor|promo|newsletter|outbrain|taboola/i;
/** Reader comments and trackbacks: out in both readings. */
export const COMMENT_NAMES = /comment|disqus|trackback|pingback|respond|replies/i;
/** Names that lower a block's class weight (Readability's negative names). */
export const NEGATIVE_NAMES =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget|taboola|recommend|newsletter/i;
/** Names that raise a block's class weight (Readability's positive names). */
export const POSITIVE_NAMES =
  /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i;
/** The site's own header, as opposed to a post's ("entry-header", "asset-header"): a whole class or id. */
export const SITE_HEADER_NAME = /^(?:(?:site|page|global|top|main)[-_]?)?header$|masthead|banner|branding/i;

/**
 * Whether class/id names put a heading in the site's chrome (menus, sidebars, the site's header) rather than in
 * a post's own header: the names that make it boilerplate, a "…-header" of a post aside.
 */
export function isBoxName(names: string): boolean {
  const tokens = names
    .split(/\s+/)
    .filter((t) => t !== '' && (!/header/i.test(t) || SITE_HEADER_NAME.test(t)));
  const rest = tokens.join(' ');
  return STRONG_BOILERPLATE_NAMES.test(rest) || (UNLIKELY_NAMES.test(rest) && !MAYBE_NAMES.test(rest));
}

/** A heading marked as the article's headline by schema.org microdata (itemprop="headline"), wherever it stands. */
export function isSchemaHeadline(element: Element): boolean {
  return /(?:^|\s)headline(?:\s|$)/i.test(element.attribs.itemprop ?? '');
}

/** Names of bylines and datelines. */
/** Names of bylines and datelines. */
export const BYLINE_NAMES = /byline|author|dateline|writtenby|p-author|posted-on|entry-date|timestamp/i;
/** Names of captions and photo credits; not "no_caption" (BuzzFeed's class for an item that has none). */
export const CAPTION_NAMES = /(?<!\bno[-_]?)caption|credit/i;
/** The author's box after a post (photo, bio, links): about the writer, not the article. */
export const AUTHOR_BOX_NAMES =
  /author-?bio|\bpost-?author\b|about-?(?:the-?)?author|author-?(?:info|box|profile|details)|bio\b/i;

export function classAndId(element: Element): string {
  const { attribs } = element;
  return `${attribs.class ?? ''} ${attribs.id ?? ''}`;
}

/** What class/id names say about an element before scoring: its class weight and its boilerplate bit (4 or 16). */
export interface NameVerdict {
  weight: number;
  boilerplateBit: number;
}

/**
 * The name rules AutoPage's constructor applies to one class/id string. A page repeats a few class names over many
 * elements, so each string is judged once per page (the regexes would be a large share of auto's time).
 */
export function judgeNames(names: string): NameVerdict {
  let weight = 0;
  if (NEGATIVE_NAMES.test(names)) weight -= 25;
  if (POSITIVE_NAMES.test(names)) weight += 25;
  const boilerplateBit = COMMENT_NAMES.test(names)
    ? 16
    : STRONG_BOILERPLATE_NAMES.test(names) || (UNLIKELY_NAMES.test(names) && !MAYBE_NAMES.test(names))
      ? 4
      : 0;
  return { weight, boilerplateBit };
}

/** Bits of what class/id names say about a block inside the kept content (see dropsInside); 0 = not yet judged. */
export const INSIDE_JUDGED = 1;
export const INSIDE_CAPTION = 2;
export const INSIDE_AUTHOR_BOX = 4;
export const INSIDE_BYLINE = 8;

/** The INSIDE_* bits of one class/id string: what it says about a block inside the kept content. */
export function judgeInsideNames(names: string): number {
  let bits = INSIDE_JUDGED;
  if (CAPTION_NAMES.test(names) && !MAYBE_NAMES.test(names)) bits |= INSIDE_CAPTION;
  if (AUTHOR_BOX_NAMES.test(names)) bits |= INSIDE_AUTHOR_BOX;
  if (BYLINE_NAMES.test(names)) bits |= INSIDE_BYLINE;
  return bits;
}
