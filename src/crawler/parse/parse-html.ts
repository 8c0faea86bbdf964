// HTML → ParsedPage (docs/reference.md#document-model): the one parse every consumer shares (crawl engine, /v1/score, topic
// weighting of docs/reference.md#topic-weights). A single streaming htmlparser2 pass, no DOM: text, headings, links with anchor text and
// word positions, images, meta robots and canonical are collected from SAX events, so a page costs one scan.
//
// Choices, each tested in test/unit/parse/parse-html.test.ts:
//  - visible text excludes script, style, noscript, template and the <title>; block-level tags separate words
//    (`<p>a</p><p>b</p>` → "a b"), inline tags do not (`wa<b>ter</b>` → "water"), except that an <a> boundary
//    always separates: anchor words are whole words, so a link's word position is exact;
//  - only http(s) links and images are kept (javascript:, mailto:, tel:, data:, ftp: … are dropped before
//    `normalizeUrl`); every occurrence is kept in document order, callers dedupe;
//  - URLs resolve against the first <base href> (wherever it appears, as browsers do), else the page URL;
//  - links inside <template> are inert and dropped; links inside <noscript> are kept (a crawler runs no
//    script, so it sees them) though their text is not visible text.
import type { LruMap } from '../lru-map.js';
import { isStopWord, referenceTokens, tokenize } from '../text/tokenize.js';
import { visibleText } from '../text/whitespace.js';
import { type HtmlEventHandler, type WalkOptions, walkHtml } from './html-events.js';

export interface ParsedLink {
  /** Absolute URL after `normalizeUrl` (default: WHATWG href without fragment). */
  url: string;
  /** The raw href attribute as written (the topic weighting's "#"/":" rule looks at it). */
  href: string;
  /** Visible text inside the link, whitespace-collapsed; for a link with no text, its images' alt texts. */
  anchorText: string;
  /** Lower-cased tokens of the rel attribute. */
  rel: string[];
  /** rel contains "nofollow" (meta robots nofollow is reported separately in ParsedPage.metaRobots). */
  nofollow: boolean;
  /** Index into `textWords` where the anchor's words start (for a link without words: the next word). */
  wordPosition: number;
  /** Number of `textWords` inside the anchor: the anchor spans [wordPosition, wordPosition + anchorWordCount). */
  anchorWordCount: number;
  /** After the first <p> when parsed with mainTextStartsAtFirstParagraph, else always true. */
  inMainText: boolean;
}

export interface ParsedImage {
  url: string;
  alt: string;
}

export interface ParsedPage {
  title: string;
  h1: string[];
  h2: string[];
  /** Visible text, whitespace-collapsed. */
  text: string;
  /** tokenize(text): every letter run, stop words kept; link word positions index into it. */
  textWords: string[];
  /**
   * referenceTokens(title + visible text): the reference's text stream, title first, stop words kept. The
   * scorers' words under any settings (a crawl's stop list, stemming) are made from these.
   */
  tokens: string[];
  /** tokens without the default stop words: docs/reference.md#document-model `words`. */
  words: string[];
  /** <a href> and <area href>, every occurrence in document order. */
  links: ParsedLink[];
  images: ParsedImage[];
  /** From <meta name="robots"> and <meta name="<robotsToken>">; "none" sets both. */
  metaRobots: { noindex: boolean; nofollow: boolean };
  /** <link rel="canonical" href>, absolute and passed through `normalizeUrl`; null when absent or invalid. */
  canonicalHref: string | null;
  /** The URL relative references were resolved against: the first valid <base href>, else the page URL. */
  baseUrl: string;
  /**
   * Where the first <p> opens: its index into `textWords` and the number of links before it. Recorded
   * whatever the options, so the topic weighting can apply "main text starts at the first <p>" later;
   * null when the page has no <p>.
   */
  firstParagraph: TextPosition | null;
  /**
   * Where the main text starts under the options parsed with: the first <p> with
   * mainTextStartsAtFirstParagraph (null when there is none: no main text), else the very start.
   */
  mainTextStart: TextPosition | null;
}

/** A point in the document: an index into `textWords` and the number of `links` before it. */
export interface TextPosition {
  wordPosition: number;
  linkIndex: number;
}

export interface ParseHtmlOptions {
  /**
   * Applied to every absolute http(s) link, image and canonical URL (fragment still attached); null drops it.
   * The crawler passes its canonicalizer. Default: WHATWG href with the fragment removed.
   */
  normalizeUrl?: (absoluteUrl: string) => string | null;
  /** A user-agent token whose <meta name="TOKEN"> is honoured beside <meta name="robots">. */
  robotsToken?: string;
  /** Main text begins at the first <p> (Wikipedia): links before it get inMainText = false. */
  mainTextStartsAtFirstParagraph?: boolean;
  /**
   * false: `textWords` and `words` stay empty (and word positions 0). They are most of a parse's memory (many
   * times the bytes of the page's text), and a crawl that neither scores pages nor weighs
   * links by their words needs neither. Default true.
   */
  words?: boolean;
  /**
   * A memo of link forms kept across pages by a caller whose `normalizeUrl` never changes (the crawler's
   * canonicalizer): a site's menus and footers repeat the same hrefs on every page, and resolving and
   * normalizing each again is most of a link's cost. Keys are the href within what its resolution depends
   * on (see linkFormKey), values what `normalizeUrl` made of it.
   */
  linkForms?: LruMap<string, string | null>;
}

/** Link forms (an href in its base's directory → canonical URL) a crawler remembers: a site's menus and footers. */
export const LINK_FORMS_REMEMBERED = 20_000;

/** The attributes the handler below reads: a page's other attributes (class, style, data-…) are not copied. */
const READ_ATTRIBUTES: ReadonlySet<string> = new Set(['href', 'rel', 'alt', 'src', 'name', 'content']);

/** Elements whose content is never visible text. */
const HIDDEN_ELEMENTS: ReadonlySet<string> = new Set(['script', 'style', 'noscript', 'template']);

/**
 * Phrasing elements that do not break a word in rendered text; every other element boundary acts as
 * whitespace (block elements, cells, list items, br, img …). <a> is handled on its own.
 */
const INLINE_ELEMENTS: ReadonlySet<string> = new Set([
  'abbr',
  'acronym',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'mark',
  'nobr',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
]);

const WHITESPACE_RUN = /\s+/g;

function defaultNormalizeUrl(absoluteUrl: string): string {
  const hashAt = absoluteUrl.indexOf('#');
  return hashAt === -1 ? absoluteUrl : absoluteUrl.slice(0, hashAt);
}

/**
 * What the resolution of `raw` against a base depends on, as a memo key; null when it is not worth a key.
 * An "http(s)://" href depends on nothing; a root-relative "/…" on the base's origin; any other relative
 * path on the base's directory (the path up to its last "/": a relative reference replaces the last segment
 * and drops the query, RFC 3986 §5.2.3). An href opening with whitespace or a control character (the parser
 * strips those), "\\" (a "/" in http URLs), "?" or "#" (the whole base counts), or nothing is not keyed.
 */
function linkFormKey(raw: string, origin: string, directory: string): string | null {
  const first = raw.charCodeAt(0);
  if (Number.isNaN(first) || first <= 0x20 || first === 0x3f /* ? */ || first === 0x23 /* # */) return null;
  if (first === 0x5c /* \ */) return null;
  if (first === 0x2f /* / */) {
    const second = raw.charCodeAt(1);
    // "//host/…" takes only the scheme from the base, "/\host" likewise: keyed with the whole directory
    return second === 0x2f || second === 0x5c ? `${directory}\u0000${raw}` : `${origin}\u0000${raw}`;
  }
  if (/^https?:\/\//i.test(raw)) return `\u0000${raw}`;
  return `${directory}\u0000${raw}`;
}

/** Resolve `raw` against `base` to an absolute http(s) href, or null (unparseable or another scheme). */
function resolveHttpUrl(raw: string, base: string): string | null {
  const url = URL.parse(raw, base);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  return url.href;
}

interface PendingLink {
  href: string;
  rel: string[];
  wordPosition: number;
  anchorWordCount: number;
  anchorText: string;
  imageAlts: string[];
  inMainText: boolean;
}

export function parseHtml(html: string, pageUrl: string, opts: ParseHtmlOptions = {}): ParsedPage {
  return parseHtmlEvents(walkHtml, html, pageUrl, opts);
}

/**
 * parseHtml over any source of HTML events: walkHtml in production; the differential test passes
 * htmlparser2's Parser (quadratic in nesting, but the reference walkHtml mirrors) to compare the two.
 */
export function parseHtmlEvents(
  walkEvents: (html: string, handler: HtmlEventHandler, options: WalkOptions) => void,
  html: string,
  pageUrl: string,
  opts: ParseHtmlOptions = {},
): ParsedPage {
  const walk = (source: string, handler: HtmlEventHandler): void =>
    walkEvents(source, handler, { attributes: READ_ATTRIBUTES });
  const robotsNames = new Set(['robots']);
  if (opts.robotsToken) robotsNames.add(opts.robotsToken.toLowerCase());
  const mainTextAtFirstParagraph = opts.mainTextStartsAtFirstParagraph === true;
  const collectWords = opts.words !== false;

  // Visible text is gathered in segments cut at every <a> boundary; each finished segment is tokenized once,
  // so textWords.length is the word position of whatever comes next.
  const textParts: string[] = [];
  const textWords: string[] = [];
  let pending = '';
  const flushText = (): void => {
    if (pending.length === 0) return;
    if (collectWords) for (const word of tokenize(pending)) textWords.push(word);
    textParts.push(pending, ' ');
    pending = '';
  };

  let hiddenDepth = 0; // inside script/style/noscript/template
  let templateDepth = 0; // inside template: links and images are inert too
  let svgDepth = 0; // an SVG <title> is not the page title
  let inTitle = false; // inside any <title>: never visible text
  let inPageTitle = false; // inside the first <title> outside SVG: the page title
  let title: string | null = null;
  let titleBuffer = '';
  let h1Depth = 0;
  let h2Depth = 0;
  let h1Buffer = '';
  let h2Buffer = '';
  const h1: string[] = [];
  const h2: string[] = [];

  let baseHref: string | null = null;
  let canonicalRaw: string | null = null;
  const metaRobots = { noindex: false, nofollow: false };
  // `as`: assigned inside the parser callbacks, which TypeScript's narrowing does not follow.
  let firstParagraph = null as ParsedPage['firstParagraph'];

  const rawLinks: PendingLink[] = [];
  const rawImages: Array<{ src: string; alt: string }> = [];
  let openLink: PendingLink | null = null;
  let anchorBuffer = '';

  // An element boundary that breaks words: whitespace in the text and in every text being collected.
  const separate = (): void => {
    pending += ' ';
    if (openLink !== null) anchorBuffer += ' ';
    if (h1Depth > 0) h1Buffer += ' ';
    if (h2Depth > 0) h2Buffer += ' ';
  };

  const closeLink = (): void => {
    if (openLink === null) return;
    flushText();
    openLink.anchorWordCount = textWords.length - openLink.wordPosition;
    openLink.anchorText = visibleText(anchorBuffer);
    openLink = null;
    anchorBuffer = '';
  };

  walk(html, {
    onopentag(name, attribs) {
      if (HIDDEN_ELEMENTS.has(name)) {
        hiddenDepth++;
        if (name === 'template') templateDepth++;
        return;
      }
      if (name === 'svg') svgDepth++;
      switch (name) {
        case 'a':
        case 'area': {
          // A new <a> implicitly ends an open one (HTML parsing's "adoption agency" outcome for nested <a>).
          closeLink();
          separate();
          flushText();
          const href = attribs.href;
          if (href === undefined || templateDepth > 0) break;
          const rel = (attribs.rel ?? '').toLowerCase().split(WHITESPACE_RUN).filter(Boolean);
          const link: PendingLink = {
            href,
            rel,
            wordPosition: textWords.length,
            anchorWordCount: 0,
            anchorText: '',
            imageAlts: [],
            inMainText: !mainTextAtFirstParagraph || firstParagraph !== null,
          };
          rawLinks.push(link);
          if (name === 'a') openLink = link;
          else link.anchorText = visibleText(attribs.alt ?? '');
          return;
        }
        case 'img': {
          if (templateDepth > 0) break;
          const alt = visibleText(attribs.alt ?? '');
          if (attribs.src !== undefined) rawImages.push({ src: attribs.src, alt });
          if (openLink !== null && alt) openLink.imageAlts.push(alt);
          break;
        }
        case 'p':
          if (firstParagraph === null && hiddenDepth === 0) {
            flushText();
            firstParagraph = { wordPosition: textWords.length, linkIndex: rawLinks.length }; // raw index, mapped below
          }
          break;
        case 'title':
          inTitle = true;
          inPageTitle = svgDepth === 0 && title === null;
          return;
        case 'h1':
          h1Depth++;
          break;
        case 'h2':
          h2Depth++;
          break;
        case 'base':
          if (baseHref === null && attribs.href !== undefined) baseHref = attribs.href;
          return;
        case 'link': {
          const rel = (attribs.rel ?? '').toLowerCase().split(WHITESPACE_RUN);
          if (canonicalRaw === null && attribs.href !== undefined && rel.includes('canonical')) {
            canonicalRaw = attribs.href;
          }
          return;
        }
        case 'meta': {
          const metaName = attribs.name?.toLowerCase();
          if (metaName === undefined || !robotsNames.has(metaName)) return;
          for (const directive of (attribs.content ?? '').toLowerCase().split(/[\s,]+/)) {
            if (directive === 'noindex' || directive === 'none') metaRobots.noindex = true;
            if (directive === 'nofollow' || directive === 'none') metaRobots.nofollow = true;
          }
          return;
        }
      }
      if (!INLINE_ELEMENTS.has(name)) separate();
    },

    ontext(data) {
      if (hiddenDepth > 0) return;
      if (inTitle) {
        if (inPageTitle) titleBuffer += data;
        return;
      }
      pending += data;
      if (openLink !== null) anchorBuffer += data;
      if (h1Depth > 0) h1Buffer += data;
      if (h2Depth > 0) h2Buffer += data;
    },

    onclosetag(name) {
      if (HIDDEN_ELEMENTS.has(name)) {
        hiddenDepth--;
        if (name === 'template') templateDepth--;
        return;
      }
      switch (name) {
        case 'a':
          closeLink();
          separate();
          flushText();
          return;
        case 'svg':
          svgDepth--;
          break;
        case 'title':
          if (inPageTitle) title = visibleText(titleBuffer);
          inTitle = false;
          inPageTitle = false;
          return;
        case 'h1':
          if (--h1Depth === 0) {
            const heading = visibleText(h1Buffer);
            if (heading) h1.push(heading);
            h1Buffer = '';
          }
          break;
        case 'h2':
          if (--h2Depth === 0) {
            const heading = visibleText(h2Buffer);
            if (heading) h2.push(heading);
            h2Buffer = '';
          }
          break;
      }
      if (!INLINE_ELEMENTS.has(name)) separate();
    },
  });
  closeLink();
  flushText();
  if (inPageTitle) title = visibleText(titleBuffer); // unterminated <title>

  // Resolution waits until the end: a <base href> applies to the whole document, even to earlier links.
  const baseUrl = (baseHref !== null && resolveHttpUrl(baseHref, pageUrl)) || pageUrl;
  const normalizeUrl = opts.normalizeUrl ?? defaultNormalizeUrl;
  const resolveAndNormalize = (raw: string): string | null => {
    const resolved = resolveHttpUrl(raw, baseUrl);
    return resolved === null ? null : normalizeUrl(resolved);
  };
  const linkForms = opts.linkForms;
  // A base with credentials passes them on to root-relative links: such a page is not worth a memo.
  const base = linkForms ? URL.parse(baseUrl) : null;
  const memoizable = base !== null && base.username === '' && base.password === '';
  const origin = base ? `${base.protocol}//${base.host}` : '';
  const directory = base ? `${origin}${base.pathname.slice(0, base.pathname.lastIndexOf('/') + 1)}` : '';
  const absolute = (raw: string): string | null => {
    const key = linkForms && memoizable ? linkFormKey(raw, origin, directory) : null;
    if (key === null || !linkForms) return resolveAndNormalize(raw);
    const known = linkForms.get(key);
    if (known !== undefined) return known;
    const form = resolveAndNormalize(raw);
    linkForms.set(key, form);
    return form;
  };

  const links: ParsedLink[] = [];
  let firstParagraphLinkIndex: number | null = null;
  for (const [rawIndex, link] of rawLinks.entries()) {
    if (firstParagraph !== null && rawIndex === firstParagraph.linkIndex)
      firstParagraphLinkIndex = links.length;
    const url = absolute(link.href);
    if (url === null) continue;
    links.push({
      url,
      href: link.href,
      anchorText: link.anchorText || link.imageAlts.join(' '),
      rel: link.rel,
      nofollow: link.rel.includes('nofollow'),
      wordPosition: link.wordPosition,
      anchorWordCount: link.anchorWordCount,
      inMainText: link.inMainText,
    });
  }
  const images: ParsedImage[] = [];
  for (const image of rawImages) {
    const url = absolute(image.src);
    if (url !== null) images.push({ url, alt: image.alt });
  }

  const paragraphStart: TextPosition | null =
    firstParagraph === null
      ? null
      : { wordPosition: firstParagraph.wordPosition, linkIndex: firstParagraphLinkIndex ?? links.length };
  // The whole text is collapsed only when read: a plain crawl (no words) reads links and never the text.
  let text: string | null = null;
  const wholeText = (): string => {
    text ??= visibleText(textParts.join(''));
    return text;
  };
  const tokens = collectWords ? referenceTokens(`${title ?? ''} ${wholeText()}`) : [];
  return {
    title: title ?? '',
    h1,
    h2,
    get text() {
      return wholeText();
    },
    textWords,
    tokens,
    words: tokens.filter((word) => !isStopWord(word)),
    links,
    images,
    metaRobots,
    canonicalHref: canonicalRaw === null ? null : absolute(canonicalRaw),
    baseUrl,
    firstParagraph: paragraphStart,
    mainTextStart: mainTextAtFirstParagraph ? paragraphStart : { wordPosition: 0, linkIndex: 0 },
  };
}
