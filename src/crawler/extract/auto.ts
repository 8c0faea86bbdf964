// `auto`: main-content extraction for article pages that keeps the article and only the article, from signals that
// the field's extractors agree on (Readability, trafilatura, boilerpipe, jusText), on the density tree of density.ts:
// - paragraphs are scored by length and sentence punctuation (Readability) and pass their score up to their
//   ancestors; a candidate's score is discounted by its link density, raised by schema.org articleBody (microdata
//   marks the element, JSON-LD gives the text to find) and by closeness to the page's headline;
// - before scoring, what is plainly not the article leaves the tree: semantic containers (nav, aside, footer, …,
//   ARIA landmarks), class/id names that mean boilerplate, repeated teaser cards or "Read more" items; if that
//   leaves under MIN_ARTICLE_CHARS of text, the page is judged again without the name rules (Readability's
//   fallback);
// - the best candidate and its siblings that look like the same article are kept, then cleaned block by block:
//   link-dense or list-like blocks, captions, bylines, copyright lines, sign-up boxes and the headline go (the
//   headline is reported as the title).
// Pages without paragraphs (home pages, listings) keep the cleaned body, so their output stays sensible.
// The rule tables are beside this file: class and id names in auto-names.ts, phrases in auto-phrases.ts, tags
// in auto-tags.ts; this file holds the algorithm that reads them.
import type { ChildNode, Document, Element } from 'domhandler';
import { tokenize } from '../text/tokenize.js';
import { visibleText } from '../text/whitespace.js';
import {
  classAndId,
  INSIDE_AUTHOR_BOX,
  INSIDE_BYLINE,
  INSIDE_CAPTION,
  isBoxName,
  isSchemaHeadline,
  judgeInsideNames,
  judgeNames,
  type NameVerdict,
  STRONG_BOILERPLATE_NAMES,
} from './auto-names.js';
import {
  ALL_RIGHTS_RESERVED,
  COMMENT_HEADING,
  COPYRIGHT_OPENING,
  MORE_STORIES,
  PERMALINK,
  POST_METADATA,
  READ_MORE,
  SIGN_UP,
  WORD_CHARACTER,
} from './auto-phrases.js';
import {
  ARTICLE_HEADINGS,
  BLOCK_TAGS,
  COMMENT_HEADING_TAGS,
  DIV_LIKE_TAGS,
  FORM_TAGS,
  HEADINGS,
  IMAGE_TAGS,
  JUDGED_BLOCKS,
  LINE_TAGS,
  LIST_TAGS,
  METADATA_TAGS,
  PARAGRAPH_TAGS,
  SEMANTIC_ROLES,
  SEMANTIC_TAGS,
  tagScore,
  WRAPPER_TAGS,
} from './auto-tags.js';
import { buildDensityTree, type DensityNode, type DensityTree } from './density.js';
import { collapsedText, isElement } from './parse.js';
import { isHiddenFromReaders, isNotRendered } from './visibility.js';

/** The signals of `auto`, each of which can be turned off (bench/extract.ts --ablation measures what each adds). */
export const AUTO_SIGNALS = [
  'hidden',
  'semantic-containers',
  'class-names',
  'link-density',
  'article-body',
  'title-proximity',
  'punctuation',
  'teaser-cards',
  'captions-bylines',
  'comment-headings',
] as const;
export type AutoSignal = (typeof AUTO_SIGNALS)[number];

/** Below this much kept text the first reading is judged to have lost the article (Readability's 500 chars). */
const MIN_ARTICLE_CHARS = 500;
/** A paragraph shorter than this is not scored (Readability). */
const MIN_PARAGRAPH_CHARS = 25;
/** How many ancestors a paragraph's score reaches (parent full, grandparent half, then score / (level · 3)). */
const SCORED_ANCESTORS = 5;
/** Text between the headline and a candidate at which its score halves (about a long article's length). */
const PROXIMITY_HALF_CHARS = 4000;
/** Text at which a content-meaning class name counts in full (a short paragraph or two); less, it counts less. */
const NAMED_WEIGHT_FULL_CHARS = 250;
/** An ancestor scoring this share of the best candidate, with twice its text, is the whole article. */
const STEP_UP_SCORE = 0.75;
/** ... as long as this share of its text at most is link text. */
const STEP_UP_LINK_DENSITY = 0.2;
/** A paragraph of links shorter than this is a line of navigation, not a sentence that links (see dropsInside). */
const LINK_LINE_MAX_CHARS = 200;
/** Text between a heading and the kept blocks within which the heading is the article's headline. */
const NEAR_HEADLINE_CHARS = 300;

/** What the page says about itself outside the body text: <title>, og:title, schema.org articleBody. */
interface PageHints {
  title: string;
  ogTitle: string;
  /** articleBody strings from JSON-LD, whitespace collapsed and lower-cased. */
  articleBodies: string[];
}

function collectJsonLd(value: unknown, into: string[]): void {
  const stack: unknown[] = [value];
  while (stack.length > 0 && into.length < 8) {
    const item = stack.pop();
    if (Array.isArray(item)) stack.push(...item);
    else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item as Record<string, unknown>)) {
        if (key === 'articleBody' && typeof inner === 'string') into.push(normalizeText(inner));
        else if (typeof inner === 'object') stack.push(inner);
      }
    }
  }
}

function normalizeText(text: string): string {
  return visibleText(text).toLowerCase();
}

function scanHints(document: Document): PageHints {
  const hints: PageHints = { title: '', ogTitle: '', articleBodies: [] };
  let titleSeen = false;
  const stack: ChildNode[] = [...document.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    const { name, attribs } = node;
    if (name === 'title' && !titleSeen) {
      titleSeen = true;
      hints.title = collapsedText(node);
    } else if (name === 'meta' && (attribs.property === 'og:title' || attribs.name === 'og:title')) {
      hints.ogTitle = visibleText(attribs.content ?? '');
    } else if (name === 'script' && attribs.type?.toLowerCase().includes('ld+json')) {
      const source = collapsedText(node);
      if (source.includes('articleBody')) {
        try {
          collectJsonLd(JSON.parse(source), hints.articleBodies);
        } catch {
          // A page's malformed JSON-LD is only a missing hint.
        }
      }
    } else if (name === 'svg') continue;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return hints;
}

/** The <title> without its site name: the longest part between separators such as " | " or " - ". */
function titleParts(title: string): string[] {
  return title.split(/\s+[|\-–—»«:·•\\/]+\s+/);
}

function cleanTitle(title: string): string {
  const parts = titleParts(title);
  let best = title;
  if (parts.length > 1) {
    best = parts.reduce((a, b) => (tokenize(b).length > tokenize(a).length ? b : a));
  }
  return best.trim();
}

/** One reading of the page: which nodes are out, each node's text statistics without them. */
interface Reading {
  dead: Uint8Array;
  chars: Float64Array;
  linkChars: Float64Array;
  commas: Float64Array;
  stops: Float64Array;
  paragraphs: Float64Array;
  listItems: Float64Array;
}

/** The page as arrays over the density tree's pre-order (index 0 is the body). */
class AutoPage {
  readonly nodes: DensityNode[];
  readonly size: number;
  readonly parent: Int32Array;
  /** One past the last pre-order index of each node's subtree. */
  readonly end: Int32Array;
  /** Characters of text before each node in document order (for distances). */
  readonly charsBefore: Float64Array;
  readonly textCommas: Float64Array;
  readonly textStops: Float64Array;
  readonly classWeight: Float64Array;
  /**
   * Why a node is boilerplate, as bits: 1 semantic container, 2 small page-wide wrapper, 4 boilerplate name,
   * 8 teaser list, 16 a name that is boilerplate even beside "content" (comments, sharing, related).
   */
  readonly boilerplate: Uint8Array;
  readonly hasBlock: Uint8Array;
  readonly titleWords: ReadonlySet<string>;
  headline = -1;
  /** The headline found is the site's name (it still anchors proximity; the title is looked for near the text). */
  headlineIsSiteName = false;
  /** The <title> without the site's name when a heading showed which of its parts that is; else null. */
  titleWithoutSite: string | null = null;
  microdataBody = -1;
  /**
   * Texts by node, computed on first use: the rules ask for the same element's text again and again, in up to four
   * markings of one page (memoized, since collapsing a subtree's text is otherwise auto's largest cost).
   */
  private readonly collapsedTexts = new Map<number, string>();
  private readonly unitTexts = new Map<number, string>();
  /** The INSIDE_* bits of each element's class/id names, judged on first use by dropsInside. */
  private readonly insideNames: Uint8Array;

  constructor(
    readonly tree: DensityTree,
    readonly signals: ReadonlySet<AutoSignal>,
    readonly hints: PageHints,
  ) {
    this.nodes = tree.order;
    this.titleWords = new Set([...tokenize(hints.title), ...tokenize(hints.ogTitle)]);
    const n = this.nodes.length;
    this.size = n;
    this.parent = new Int32Array(n).fill(-1);
    this.end = new Int32Array(n);
    this.charsBefore = new Float64Array(n);
    this.textCommas = new Float64Array(n);
    this.textStops = new Float64Array(n);
    this.classWeight = new Float64Array(n);
    this.boilerplate = new Uint8Array(n);
    this.hasBlock = new Uint8Array(n);
    this.insideNames = new Uint8Array(n);
    let before = 0;
    const bodyChars = Math.max(tree.root.chars, 1);
    const verdicts = new Map<string, Map<string, NameVerdict>>();
    for (let i = 0; i < n; i++) {
      const node = this.nodes[i]!;
      this.parent[i] = node.parent === null ? -1 : node.parent.index;
      this.charsBefore[i] = before;
      if (node.isText) {
        before += node.chars;
        // A run of whitespace only (most text nodes between tags) holds neither: not scanned.
        if (node.chars > 0) countPunctuation(node.text, this.textCommas, this.textStops, i);
        continue;
      }
      if (i === 0) continue;
      const element = node.element as Element;
      const { class: className = '', id = '' } = element.attribs;
      if (signals.has('class-names') && (className !== '' || id !== '')) {
        // Looked up by class, then id: joining them into one key cost a string per element.
        let byId = verdicts.get(className);
        if (byId === undefined) {
          byId = new Map();
          verdicts.set(className, byId);
        }
        let verdict = byId.get(id);
        if (verdict === undefined) {
          verdict = judgeNames(classAndId(element));
          byId.set(id, verdict);
        }
        this.classWeight[i] = verdict.weight;
        const bit = verdict.boilerplateBit;
        if (bit !== 0 && element.name !== 'a' && !this.inside(i, 'table') && !this.inside(i, 'code')) {
          this.boilerplate[i] = this.boilerplate[i]! | bit;
        }
      }
      if (signals.has('semantic-containers')) {
        const role = element.attribs.role;
        if (SEMANTIC_TAGS.has(element.name) || (role !== undefined && SEMANTIC_ROLES.has(role))) {
          this.boilerplate[i] = this.boilerplate[i]! | 1;
        } else if (WRAPPER_TAGS.has(element.name) && node.chars < bodyChars / 2) {
          this.boilerplate[i] = this.boilerplate[i]! | 2;
        }
      }
      const itemprop = element.attribs.itemprop;
      if (itemprop !== undefined && signals.has('article-body') && /\barticleBody\b/i.test(itemprop)) {
        // Some sites mark each paragraph: the article body is then what holds them all.
        this.microdataBody = this.microdataBody < 0 ? i : this.commonAncestor(this.microdataBody, i);
      }
    }
    for (let i = n - 1; i >= 0; i--) {
      const node = this.nodes[i]!;
      if (this.end[i] === 0) this.end[i] = i + 1;
      const p = this.parent[i]!;
      if (p >= 0) {
        if (this.end[i]! > this.end[p]!) this.end[p] = this.end[i]!;
        if (!node.isText && (BLOCK_TAGS.has(this.name(i)) || this.hasBlock[i])) this.hasBlock[p] = 1;
      }
    }
    if (signals.has('teaser-cards')) this.findTeaserLists();
    // The microdata article body is the article: never boilerplate, nor any of its ancestors.
    for (let up = this.microdataBody; up >= 0; up = this.parent[up]!) this.boilerplate[up] = 0;
  }

  name(i: number): string {
    return (this.nodes[i]!.element as Element).name;
  }

  private commonAncestor(a: number, b: number): number {
    let x = a;
    let y = b;
    while (x !== y) {
      if (x > y) x = this.parent[x]!;
      else y = this.parent[y]!;
    }
    return x;
  }

  /** Whether an ancestor of `i` is a semantic container or has a boilerplate name (an article's own header aside). */
  private insideBoilerplate(i: number): boolean {
    for (let up = this.parent[i]!; up > 0; up = this.parent[up]!) {
      const bits = this.boilerplate[up]!;
      if ((bits & (1 | 16)) !== 0) return true;
      if ((bits & 4) !== 0 && isBoxName(classAndId(this.nodes[up]!.element as Element))) return true;
    }
    return false;
  }

  private inside(i: number, tag: string): boolean {
    for (let up = this.parent[i]!; up > 0; up = this.parent[up]!) if (this.name(up) === tag) return true;
    return false;
  }

  /** Elements holding a "Read more" link (marked on every ancestor of the link's text). */
  private readMoreHolders(): Uint8Array {
    const holds = new Uint8Array(this.size);
    for (let i = 0; i < this.size; i++) {
      const node = this.nodes[i]!;
      if (!node.isText || !node.inLink || node.chars > 40 || !READ_MORE.test(node.text)) continue;
      for (let up = this.parent[i]!; up >= 0 && holds[up] === 0; up = this.parent[up]!) holds[up] = 1;
    }
    return holds;
  }

  /**
   * Repeated sibling cards (a link and a short text each, several in a row) are teaser lists, not the article; so
   * are several same-shaped siblings that each end in a "Read more" link (a headline and a blurb of another page).
   */
  private findTeaserLists(): void {
    const readMore = this.readMoreHolders();
    for (let i = 0; i < this.size; i++) {
      const node = this.nodes[i]!;
      if (node.isText || node.children.length < 3) continue;
      let withText = 0;
      let cards = 0;
      let cardChars = 0;
      let teasers = 0;
      // Made on the first card or teaser only: most elements have none, and two maps for each is garbage.
      let shapes: Map<string, number> | undefined;
      let teaserShapes: Map<string, number> | undefined;
      for (const child of node.children) {
        if (child.isText || child.chars === 0) continue;
        withText++;
        const element = child.element as Element;
        if (readMore[child.index] === 1 && child.chars <= 600) {
          teasers++;
          const shape = `${element.name}.${element.attribs.class ?? ''}`;
          teaserShapes ??= new Map();
          teaserShapes.set(shape, (teaserShapes.get(shape) ?? 0) + 1);
        }
        if (element.name === 'p' || child.linkChars === 0) continue;
        // A card opens with its linked title; a bullet of prose with a link inside it is not a card.
        if (
          child.chars > 400 ||
          child.linkChars < 20 ||
          child.linkChars / child.chars < 0.15 ||
          !opensWithLink(child)
        ) {
          continue;
        }
        cards++;
        cardChars += child.chars;
        const shape = `${element.name}.${element.attribs.class ?? ''}`;
        shapes ??= new Map();
        shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
      }
      const sameShape = largestCount(shapes);
      if (
        cards >= 3 &&
        sameShape >= 3 &&
        cards >= 0.6 * withText &&
        cardChars >= 0.6 * node.chars &&
        cardChars / cards >= 40 &&
        !this.announced(undefined, i)
      ) {
        this.boilerplate[i] = this.boilerplate[i]! | 8;
      } else if (teasers >= 3 && largestCount(teaserShapes) >= 3 && teasers >= 0.6 * withText) {
        this.boilerplate[i] = this.boilerplate[i]! | 8;
      }
    }
  }

  /** Text statistics with the nodes whose boilerplate bits intersect `drop` left out. */
  read(drop: number): Reading {
    const n = this.size;
    const r: Reading = {
      dead: new Uint8Array(n),
      chars: new Float64Array(n),
      linkChars: new Float64Array(n),
      commas: new Float64Array(n),
      stops: new Float64Array(n),
      paragraphs: new Float64Array(n),
      listItems: new Float64Array(n),
    };
    for (let i = 0; i < n; i++) {
      const p = this.parent[i]!;
      r.dead[i] = (this.boilerplate[i]! & drop) !== 0 || (p >= 0 && r.dead[p] === 1) ? 1 : 0;
    }
    for (let i = n - 1; i >= 0; i--) {
      const node = this.nodes[i]!;
      if (node.isText) {
        r.chars[i] = node.chars;
        r.linkChars[i] = node.inLink ? node.chars : 0;
        r.commas[i] = this.textCommas[i]!;
        r.stops[i] = this.textStops[i]!;
      } else if (i > 0) {
        const name = this.name(i);
        if (name === 'p') r.paragraphs[i] = r.paragraphs[i]! + 1;
        if (name === 'li') r.listItems[i] = r.listItems[i]! + 1;
      }
      const p = this.parent[i]!;
      if (p < 0 || r.dead[i] === 1) continue;
      r.chars[p] = r.chars[p]! + r.chars[i]!;
      r.linkChars[p] = r.linkChars[p]! + r.linkChars[i]!;
      r.commas[p] = r.commas[p]! + r.commas[i]!;
      r.stops[p] = r.stops[p]! + r.stops[i]!;
      r.paragraphs[p] = r.paragraphs[p]! + r.paragraphs[i]!;
      r.listItems[p] = r.listItems[p]! + r.listItems[i]!;
    }
    return r;
  }

  linkDensity(r: Reading, i: number): number {
    return r.chars[i] === 0 ? 0 : r.linkChars[i]! / r.chars[i]!;
  }

  /** Share of a heading's words that are title words. */
  titleMatch(i: number): number {
    const words = new Set(tokenize(this.collapsed(i)));
    if (words.size === 0) return 0;
    let common = 0;
    for (const word of words) if (this.titleWords.has(word)) common++;
    return common / words.size;
  }

  /** The element holding the headline: the h1 (else h2) whose words best match the title, or the only h1. */
  findHeadline(): void {
    const titleWords = this.titleWords;
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    let h1Count = 0;
    let onlyH1 = -1;
    const rawParts = titleParts(this.hints.title);
    const parts = rawParts.map(normalizeText);
    // the head of a titled page ("Headline -- Site"), when it is a headline's length
    const titleHead = parts.length > 1 && tokenize(parts[0]!).length >= 4 ? parts[0]! : undefined;
    let sitePart: string | undefined;
    for (let i = 1; i < this.size; i++) {
      const node = this.nodes[i]!;
      if (node.isText || node.chars === 0) continue;
      const name = this.name(i);
      // A lower heading is the headline only when it is the head of the title, word for word, at a headline's
      // length, and not in a linked or listed teaser (a blog's <h4 class="post_title">): short lower headings name
      // authors, widgets and sections, and teaser lists show other posts' titles (this one's among them).
      const lower = !ARTICLE_HEADINGS.has(name);
      if (lower && !(HEADINGS.has(name) && this.unitText(i) === titleHead && !this.inTeaser(i))) continue;
      if (name === 'h1') {
        h1Count++;
        onlyH1 = i;
      }
      const words = new Set(tokenize(this.collapsed(i)));
      if (words.size === 0) continue;
      let common = 0;
      for (const word of words) if (titleWords.has(word)) common++;
      // Most of the heading's words in the title, and as much of the title as possible: the site name's <h1>
      // is all title words too, but covers less of the title than the article's own headline.
      const precision = common / words.size;
      const coverage = common / titleWords.size;
      let score =
        (2 * precision * coverage) / (precision + coverage || 1) + (name === 'h1' ? 0.01 : lower ? -0.01 : 0);
      // A heading inside a banner, menu or sidebar is the site's name or another post's title: any heading
      // outside them that matches the title comes first (blogs put the post's own title in an <h3>). One that
      // is a whole part of the title there names the site's part. (Not one that schema.org marks as the headline:
      // TMZ puts its headline in the breadcrumb bar.)
      if (this.insideBoilerplate(i) && !isSchemaHeadline(this.nodes[i]!.element as Element)) {
        score -= 1;
        const text = this.unitText(i);
        if (parts.length > 1 && parts.includes(text)) sitePart = text;
      }
      if (precision >= 0.6 && score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    if (best < 0 && h1Count === 1 && titleWords.size === 0) best = onlyH1;
    // "Site – Post title": a heading that is exactly the site's part of the title is the site's name; but the first
    // part is the post's when there are three parts or more ("Post – Section – Site") or it has three words or more
    // (Readability's title rule: the head of the title, unless it is under three words).
    if (best >= 0) {
      const text = this.unitText(best);
      // (Only when the headline itself is outside them: a page whose every heading is boxed tells nothing.)
      // A heading that links to the site's home page and is the whole title after its first part ("Post – Site
      // - Site's motto") is the site's; compared by words, as the page's dashes and the title's need not be the
      // same. (A post's own heading can be the title's tail too: "Blog | Motto » Post".)
      const headingWords = tokenize(text);
      const titleWordList = tokenize(this.hints.title);
      const tailStart = titleWordList.length - headingWords.length;
      const isTitleTail =
        parts.length > 2 &&
        this.linksHome(best) &&
        headingWords.length > 0 &&
        tailStart >= tokenize(parts[0]!).length &&
        headingWords.every((word, k) => titleWordList[tailStart + k] === word);
      if (isTitleTail) this.titleWithoutSite = rawParts[0]!.trim();
      this.headlineIsSiteName =
        sitePart !== undefined && !this.insideBoilerplate(best)
          ? text === sitePart
          : isTitleTail ||
            (parts.length > 1 &&
              parts.includes(text) &&
              text !== normalizeText(cleanTitle(this.hints.title)) &&
              !(text === parts[0] && (parts.length > 2 || tokenize(text).length >= 3)));
    }
    this.headline = best;
    // What holds the headline is not a comment or share box, whatever its name says.
    for (let up = this.parent[best] ?? -1; up > 0; up = this.parent[up]!) {
      if (STRONG_BOILERPLATE_NAMES.test(classAndId(this.nodes[up]!.element as Element))) {
        this.boilerplate[up] = this.boilerplate[up]! & ~(4 | 16);
      }
    }
  }

  /** Whether element `i` lies in a link or a list item: a teaser of a post, not the post's own heading. */
  private inTeaser(i: number): boolean {
    return this.nodes[i]!.inLink || this.inside(i, 'li');
  }

  /**
   * Whether element `i` lies in a list item of a list whose items have headings of their own (a product page's
   * features, a listicle's entries): an item's heading, not the page's headline. A post's heading alone in its
   * list item ("<ul class=article-head><li>date</li><li><h2>Post</h2></li>") is not one of many.
   */
  private inHeadedList(i: number): boolean {
    let item = this.parent[i]!;
    while (item > 0 && this.name(item) !== 'li') item = this.parent[item]!;
    if (item <= 0) return false;
    let headed = 0;
    for (const sibling of this.nodes[this.parent[item]!]!.children) {
      if (!sibling.isText && this.name(sibling.index) === 'li' && this.holds(sibling.index, HEADINGS))
        headed++;
    }
    return headed >= 2;
  }

  /** Whether element `i` holds a link to a site's home page (an href whose path is "/" or empty). */
  private linksHome(i: number): boolean {
    for (let j = i; j < this.end[i]!; j++) {
      const node = this.nodes[j]!;
      if (node.isText || this.name(j) !== 'a') continue;
      const href = (node.element as Element).attribs.href?.trim() ?? '';
      // (an empty href or a fragment is this page, not the home page)
      const url = href === '' || href.startsWith('#') ? null : URL.parse(href, 'http://home.invalid/');
      if (url !== null && url.pathname === '/' && url.search === '') return true;
    }
    return false;
  }

  /** Closeness of a candidate to the headline: 1 when it holds or follows it closely, falling with distance. */
  proximity(i: number): number {
    const h = this.headline;
    if (h < 0 || !this.signals.has('title-proximity')) return 1;
    if (h >= i && h < this.end[i]!) return 1;
    let distance: number;
    if (i > h) distance = this.charsBefore[i]! - this.charsBefore[h]! - this.nodes[h]!.chars;
    else distance = this.charsBefore[h]! - this.charsBefore[i]! + PROXIMITY_HALF_CHARS / 2;
    return 1 / (1 + Math.max(0, distance) / PROXIMITY_HALF_CHARS);
  }

  /** The collapsed text of element `i` (see collapsedText), including what the density tree left out. */
  collapsed(i: number): string {
    let text = this.collapsedTexts.get(i);
    if (text === undefined) {
      text = collapsedText(this.nodes[i]!.element as Element);
      this.collapsedTexts.set(i, text);
    }
    return text;
  }

  private unitText(i: number): string {
    let text = this.unitTexts.get(i);
    if (text === undefined) {
      const node = this.nodes[i]!;
      // An element's collapsed text has single spaces and no ends to trim already: normalizeText would only
      // lower-case it (after copying it twice).
      text = node.isText ? normalizeText(node.text) : this.collapsed(i).toLowerCase();
      this.unitTexts.set(i, text);
    }
    return text;
  }

  /** Readability's paragraph score, with sentence punctuation and the JSON-LD articleBody hint. */
  private paragraphScore(r: Reading, i: number): number {
    const chars = r.chars[i]!;
    let score = 1 + Math.min(Math.floor(chars / 100), 3);
    if (this.signals.has('punctuation')) {
      score += r.commas[i]!;
    }
    if (this.hints.articleBodies.length > 0 && this.signals.has('article-body')) {
      const text = this.unitText(i).slice(0, 120);
      if (
        text.length >= MIN_PARAGRAPH_CHARS &&
        this.hints.articleBodies.some((body) => body.includes(text))
      ) {
        score *= 3;
      }
    }
    return score;
  }

  /** Scores every candidate (ancestors of scored paragraphs); returns final scores by pre-order index. */
  scoreCandidates(r: Reading): Map<number, number> {
    const raw = new Map<number, number>();
    const add = (i: number, amount: number) => {
      let current = raw.get(i);
      if (current === undefined) {
        // A name that means content ("module-content") lifts a block by what it holds: a sidebar box of one
        // sentence must not outscore the article on its name alone.
        const weight = this.classWeight[i]!;
        const named = weight > 0 ? weight * Math.min(1, r.chars[i]! / NAMED_WEIGHT_FULL_CHARS) : weight;
        current = i === 0 ? 0 : tagScore(this.name(i)) + named;
      }
      raw.set(i, current + amount);
    };
    for (let i = 1; i < this.size; i++) {
      if (r.dead[i] === 1 || r.chars[i]! < MIN_PARAGRAPH_CHARS) continue;
      const node = this.nodes[i]!;
      const p = this.parent[i]!;
      let isParagraph: boolean;
      if (node.isText) {
        // Loose text beside blocks in a div reads as a paragraph of its own (Readability wraps it in a <p>).
        isParagraph = p > 0 && this.hasBlock[p] === 1 && DIV_LIKE_TAGS.has(this.name(p));
      } else {
        const name = this.name(i);
        isParagraph =
          PARAGRAPH_TAGS.has(name) || ((DIV_LIKE_TAGS.has(name) || name === 'li') && this.hasBlock[i] === 0);
      }
      if (!isParagraph) continue;
      const score = this.paragraphScore(r, i);
      let level = 0;
      for (let up = p; up >= 0 && level < SCORED_ANCESTORS; up = this.parent[up]!, level++) {
        add(up, level === 0 ? score : level === 1 ? score / 2 : score / (level * 3));
      }
    }
    const scores = new Map<number, number>();
    const useLinks = this.signals.has('link-density');
    for (const [i, score] of raw) {
      const links = useLinks ? 1 - this.linkDensity(r, i) : 1;
      scores.set(i, score * links * this.proximity(i));
    }
    return scores;
  }

  /** The best candidate, moved up where Readability would (shared ancestor of close rivals, sole child). */
  topCandidate(r: Reading, scores: Map<number, number>): number {
    if (this.microdataBody > 0 && r.dead[this.microdataBody] === 0 && r.chars[this.microdataBody]! >= 200) {
      return this.microdataBody;
    }
    const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]);
    const first = ranked[0];
    if (first === undefined || first[0] === 0) return 0;
    let top = first[0];
    const topScore = first[1];
    // Rivals are compared without the headline's pull: the later parts of one article are far from it too.
    const unpulled = (i: number, score: number) => score / this.proximity(i);
    const topUnpulled = unpulled(top, topScore);
    // A rival that holds the top candidate or lies inside it is the same text, not another part of the article.
    const nested = (i: number) => (i <= top && top < this.end[i]!) || (top <= i && i < this.end[top]!);
    const rivals = ranked
      .filter(([i]) => !nested(i))
      .slice(0, 4)
      .filter(([i, s]) => unpulled(i, s) / topUnpulled >= 0.75);
    if (rivals.length >= 3) {
      for (let up = this.parent[top]!; up > 0; up = this.parent[up]!) {
        const holding = rivals.filter(([j]) => j >= up && j < this.end[up]!).length;
        if (holding >= 3) {
          top = up;
          break;
        }
      }
    }
    let last = scores.get(top) ?? 0;
    const floor = last / 3;
    const best = last;
    const bestChars = r.chars[top]!;
    for (let below = top, up = this.parent[top]!; up > 0; below = up, up = this.parent[up]!) {
      const score = scores.get(up);
      // A wrapper around the same text is the same block: its lower score (paragraph scores fade with depth)
      // does not end the climb.
      if (score === undefined || r.chars[up] === r.chars[below]) continue;
      if (score < floor) break;
      if (score > last) {
        top = up;
        break;
      }
      // An article written in parts (steps, sections each with its own wrapper): an ancestor that scores almost
      // as well while holding at least twice the text, little of it links, is the article and the best part
      // only one of its sections.
      if (
        score >= STEP_UP_SCORE * best &&
        r.chars[up]! >= 2 * bestChars &&
        this.linkDensity(r, up) < STEP_UP_LINK_DENSITY
      ) {
        top = up;
        break;
      }
      last = score;
    }
    for (
      let up = this.parent[top]!;
      up > 0 && this.elementChildren(up, r).length === 1;
      up = this.parent[up]!
    ) {
      top = up;
    }
    return top;
  }

  private elementChildren(i: number, r: Reading): number[] {
    const out: number[] = [];
    for (const child of this.nodes[i]!.children) {
      const j = child.index;
      if (!child.isText && r.dead[j] === 0) out.push(j);
    }
    return out;
  }

  /** The top candidate and the siblings that read as more of the same article (Readability's sibling rule). */
  keptBlocks(r: Reading, scores: Map<number, number>, top: number): number[] {
    const p = this.parent[top]!;
    if (top === 0 || p < 0) return [top];
    const topScore = scores.get(top) ?? 0;
    const threshold = Math.max(10, topScore * 0.2);
    const topClass = (this.nodes[top]!.element as Element).attribs.class ?? '';
    const kept: number[] = [];
    for (const j of this.elementChildren(p, r)) {
      if (j === top) {
        kept.push(j);
        continue;
      }
      const element = this.nodes[j]!.element as Element;
      const bonus = topClass !== '' && element.attribs.class === topClass ? topScore * 0.2 : 0;
      if ((scores.get(j) ?? 0) + bonus >= threshold) {
        kept.push(j);
        continue;
      }
      if (element.name !== 'p') continue;
      const density = this.linkDensity(r, j);
      const chars = r.chars[j]!;
      if ((chars > 80 && density < 0.25) || (chars > 0 && chars <= 80 && density === 0 && r.stops[j]! > 0)) {
        kept.push(j);
      }
    }
    return kept;
  }

  /** Whether a block inside the kept content is dropped (the conditional cleaning of the kept blocks). */
  private dropsInside(r: Reading, i: number, blockChars: number, titleText: string): boolean {
    const node = this.nodes[i]!;
    const element = node.element as Element;
    const name = element.name;
    if (i === this.headline) return true;
    if ((name === 'h1' || name === 'h2') && titleText !== '' && this.unitText(i) === titleText) return true;
    const chars = r.chars[i]!;
    if (this.signals.has('captions-bylines')) {
      if (name === 'figcaption' || name === 'address') return true;
      const names = this.insideNameBits(i);
      if (chars < 300 && (names & INSIDE_CAPTION) !== 0) return true;
      if ((names & INSIDE_AUTHOR_BOX) !== 0) return true;
      if (chars < 300 && METADATA_TAGS.has(name) && POST_METADATA.test(this.unitText(i))) return true;
      // The line that links to the post itself ("Posted at 5:32 PM by Ann | Permalink | Comments (3)") is the
      // post's metadata, whatever else it says.
      if (chars < 300 && METADATA_TAGS.has(name) && this.holdsPermalink(i)) return true;
      if (chars < 400 && METADATA_TAGS.has(name)) {
        const line = this.unitText(i);
        if (ALL_RIGHTS_RESERVED.test(line) || (chars < 200 && COPYRIGHT_OPENING.test(line))) return true;
      }
      const { rel, itemprop } = element.attribs;
      if (
        chars < 100 &&
        ((names & INSIDE_BYLINE) !== 0 ||
          rel === 'author' ||
          (itemprop !== undefined && /author/i.test(itemprop)))
      ) {
        return true;
      }
    }
    const weight = this.classWeight[i]!;
    if (HEADINGS.has(name)) return weight < 0;
    // A short paragraph of nothing but links and separators ("« Previous post | Main | Next post »") is a line of
    // navigation (trafilatura drops a short <p> that is mostly links); two links at least, every word in one of
    // them, and no sentence: "Title by Author (review)" or a lone "Read the report." stay.
    if (
      name === 'p' &&
      this.signals.has('link-density') &&
      chars < LINK_LINE_MAX_CHARS &&
      this.isLinkLine(i)
    ) {
      return true;
    }
    // A line or cell that is mostly links (a menu cell, "Blog | Books | About") is navigation, not prose.
    if (LINE_TAGS.has(name) && this.signals.has('link-density') && this.linkDensity(r, i) > 0.6) return true;
    if (!JUDGED_BLOCKS.has(name)) return false;
    if (weight < 0) return true;
    // A sign-up box in the post ("Subscribe to our newsletter" beside an e-mail field) asks, it does not tell.
    if (
      this.signals.has('captions-bylines') &&
      chars < 500 &&
      SIGN_UP.test(this.unitText(i)) &&
      this.holds(i, FORM_TAGS)
    ) {
      return true;
    }
    // A block holding most of the kept text is the article's own wrapper: judge what is inside it instead.
    if (r.commas[i]! >= 10 || chars >= 0.5 * blockChars) return false;
    const isList = LIST_TAGS.has(name);
    if (this.signals.has('link-density')) {
      const density = this.linkDensity(r, i);
      // A list the text announces ("The seven pieces in this issue are:") is the article's, links or not.
      if ((!isList && weight < 25 && density > 0.2) || (density > 0.5 && !(isList && this.announced(r, i)))) {
        return true;
      }
    }
    if (this.signals.has('punctuation') && !isList && r.listItems[i]! - 100 > r.paragraphs[i]!) return true;
    return chars < MIN_PARAGRAPH_CHARS && !this.hasImage(i);
  }

  /** What element `i`'s class/id names say inside the kept content (INSIDE_* bits), judged once per page. */
  private insideNameBits(i: number): number {
    let bits = this.insideNames[i]!;
    if (bits === 0) {
      bits = judgeInsideNames(classAndId(this.nodes[i]!.element as Element));
      this.insideNames[i] = bits;
    }
    return bits;
  }

  /** Whether the text just before `i` (its previous sibling with text, in reading `r` if given) ends in a colon. */
  private announced(r: Reading | undefined, i: number): boolean {
    const siblings = this.nodes[i]!.parent?.children ?? [];
    let previous: DensityNode | undefined;
    for (const sibling of siblings) {
      if (sibling.index === i) break;
      const alive =
        r === undefined ? sibling.chars > 0 : r.chars[sibling.index]! > 0 && r.dead[sibling.index] === 0;
      if (alive) previous = sibling;
    }
    if (previous === undefined) return false;
    const text = (previous.isText ? previous.text : this.collapsed(previous.index)).trim();
    return text.endsWith(':') && !MORE_STORIES.test(text);
  }

  /** Whether `i` is two or more links with text and nothing but separators between them, not ending a sentence. */
  private isLinkLine(i: number): boolean {
    let links = 0;
    let lastText = '';
    for (let j = i + 1; j < this.end[i]!; j++) {
      const node = this.nodes[j]!;
      if (node.isText) {
        if (node.chars === 0) continue;
        if (!node.inLink && WORD_CHARACTER.test(node.text)) return false;
        lastText = node.text;
      } else if (this.name(j) === 'a' && node.chars > 0) links++;
    }
    return links >= 2 && !/[.!?]\W*$/.test(lastText.trim());
  }

  /** Whether a link under `i` reads "Permalink" (a blog's link to the post's own page). */
  private holdsPermalink(i: number): boolean {
    for (let j = i + 1; j < this.end[i]!; j++) {
      const node = this.nodes[j]!;
      if (node.isText && node.inLink && node.chars <= 12 && PERMALINK.test(node.text)) return true;
    }
    return false;
  }

  private hasImage(i: number): boolean {
    return this.holds(i, IMAGE_TAGS);
  }

  /** Whether an element named in `tags` lies under `i`. */
  private holds(i: number, tags: ReadonlySet<string>): boolean {
    for (let j = i + 1; j < this.end[i]!; j++) {
      const node = this.nodes[j]!;
      if (!node.isText && tags.has(this.name(j))) return true;
    }
    return false;
  }

  /**
   * Where the reader comments begin inside the kept blocks: a short heading such as "12 Comments" or "Leave a
   * reply" after some of the kept text (blogs without comment class names put their thread right after the post).
   */
  private commentsStart(r: Reading, blocks: number[]): number {
    if (!this.signals.has('comment-headings')) return this.size;
    let total = 0;
    for (const block of blocks) total += r.chars[block]!;
    // The heading must follow some of the post: a tenth of the kept text, or a short post's worth when the
    // thread under it is ten times longer than the post.
    const minBefore = Math.max(MIN_PARAGRAPH_CHARS, Math.min(0.1 * total, MIN_ARTICLE_CHARS));
    let before = 0;
    for (const block of blocks) {
      for (let i = block; i < this.end[block]!; i++) {
        const node = this.nodes[i]!;
        if (r.dead[i] === 1) {
          // A heading named as the comments' ("<h2 id=comments>0 Comments</h2>") is out already, but still
          // says where the thread starts: the replies after it may carry no name of their own.
          if (
            !node.isText &&
            HEADINGS.has(this.name(i)) &&
            (this.boilerplate[i]! & 16) !== 0 &&
            before >= minBefore
          ) {
            return i;
          }
          i = this.end[i]! - 1;
          continue;
        }
        if (node.isText) {
          before += node.chars;
          continue;
        }
        if (
          COMMENT_HEADING_TAGS.has(this.name(i)) &&
          r.chars[i]! <= 60 &&
          before >= minBefore &&
          COMMENT_HEADING.test(this.collapsed(i))
        ) {
          return i;
        }
      }
    }
    return this.size;
  }

  /**
   * The article's own headline when the title-matched one is missing or far from the kept blocks (a blog whose
   * <title> is only the blog's name): a heading at the very start of the kept text, or just before it.
   */
  articleHeadline(r: Reading, blocks: number[]): number {
    const first = blocks[0]!;
    const last = blocks[blocks.length - 1]!;
    const h = this.headlineIsSiteName ? -1 : this.headline;
    // the heading judged to be the site's name does not come back as the article's for being near the text
    // (though it does when it opens the kept text and matches the title: then that judgement is wrong)
    const siteName = this.headlineIsSiteName ? this.headline : -1;
    if (h >= first && h < this.end[last]!) return h;
    const gapChars = (from: number, to: number) => this.charsBefore[to]! - this.charsBefore[from]!;
    // A heading at the top of the kept text that matches the title as well beats one outside it (the blog's name).
    for (let i = first; i < this.end[first]!; i++) {
      if (r.dead[i] === 1 || gapChars(first, i) > NEAR_HEADLINE_CHARS) break;
      if (!this.nodes[i]!.isText && ARTICLE_HEADINGS.has(this.name(i)) && this.titleMatch(i) >= 0.6) return i;
    }
    if (h >= 0 && h < first && gapChars(h, first) - this.nodes[h]!.chars <= NEAR_HEADLINE_CHARS) return h;
    for (let i = first; i < this.end[first]!; i++) {
      if (r.dead[i] === 1) {
        i = this.end[i]! - 1;
        continue;
      }
      if (gapChars(first, i) > NEAR_HEADLINE_CHARS) break;
      if (
        !this.nodes[i]!.isText &&
        ARTICLE_HEADINGS.has(this.name(i)) &&
        r.chars[i]! > 0 &&
        i !== siteName &&
        !this.isByline(i) &&
        !this.inHeadedList(i)
      ) {
        return i;
      }
    }
    for (let i = first - 1; i > 0 && gapChars(i, first) <= NEAR_HEADLINE_CHARS; i--) {
      const node = this.nodes[i]!;
      if (
        r.dead[i] === 0 &&
        !node.isText &&
        ARTICLE_HEADINGS.has(this.name(i)) &&
        node.chars > 0 &&
        i !== siteName &&
        !this.isByline(i) &&
        !this.inHeadedList(i)
      ) {
        if (this.end[i]! <= first) return i;
      }
    }
    return h;
  }

  /** A heading that gives the author ("<h3 class=byline>By …</h3>"): it stands near the text but names no article. */
  private isByline(i: number): boolean {
    return (this.insideNameBits(i) & INSIDE_BYLINE) !== 0 || /^by\s/.test(this.unitText(i));
  }

  /** Marks the kept blocks for rendering; returns the characters of text kept. */
  mark(r: Reading, blocks: number[], titleText: string): number {
    for (const node of this.nodes) node.mark = 0;
    const cut = this.commentsStart(r, blocks);
    let kept = 0;
    for (const block of blocks) {
      const stack = [block];
      while (stack.length > 0) {
        const i = stack.pop()!;
        const node = this.nodes[i]!;
        if (r.dead[i] === 1 || i >= cut) continue;
        if (node.isText) {
          kept += node.chars;
          continue;
        }
        if (i !== block && this.dropsInside(r, i, r.chars[block]!, titleText)) continue;
        node.mark = 1;
        for (const child of node.children) stack.push(child.index);
      }
      for (let up = this.parent[block]!; up >= 0 && this.nodes[up]!.mark === 0; up = this.parent[up]!) {
        this.nodes[up]!.mark = 3;
      }
    }
    return kept;
  }
}

/** The largest count in `counts` (0 when there are none). */
function largestCount(counts: Map<string, number> | undefined): number {
  let largest = 0;
  if (counts !== undefined) for (const count of counts.values()) if (count > largest) largest = count;
  return largest;
}

/** Whether the first visible text under `node` is link text. */
function opensWithLink(node: DensityNode): boolean {
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.isText) {
      if (current.chars > 0) return current.inLink;
      continue;
    }
    for (let i = current.children.length - 1; i >= 0; i--) stack.push(current.children[i]!);
  }
  return false;
}

/**
 * Counts the commas (and their full-width forms) and the sentence ends (. ! ? or their full-width forms, followed
 * by a space or the end of the text) of `text` into `commas[at]` and `stops[at]`, in one pass over the text.
 */
function countPunctuation(text: string, commas: Float64Array, stops: Float64Array, at: number): void {
  let commaCount = 0;
  let stopCount = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 44 || code === 0xff0c || code === 0x3001) commaCount++;
    else if (code === 0x3002 || code === 0xff01 || code === 0xff1f) stopCount++;
    else if (code === 46 || code === 33 || code === 63) {
      const next = text.charCodeAt(i + 1);
      if (Number.isNaN(next) || next === 32 || next === 10 || next === 160 || next === 34 || next === 0x201d)
        stopCount++;
    }
  }
  commas[at] = commaCount;
  stops[at] = stopCount;
}

export interface AutoExtraction {
  tree: DensityTree;
  /** The headline (else og:title, else <title> without its site name). */
  title: string;
}

/** Marks the main content of `body` (see the module comment) with the given signals. */
export function extractAuto(
  document: Document,
  body: Element | Document,
  signals: ReadonlySet<AutoSignal>,
): AutoExtraction {
  const hints = scanHints(document);
  const hidden = signals.has('hidden')
    ? (element: Element) => isNotRendered(element) || isHiddenFromReaders(element)
    : isNotRendered;
  const tree = buildDensityTree(body, hidden, true);
  const page = new AutoPage(tree, signals, hints);
  page.findHeadline();
  const fallbackTitle =
    hints.ogTitle !== '' ? hints.ogTitle : (page.titleWithoutSite ?? cleanTitle(hints.title));
  const headlineText = (i: number) => (i >= 0 ? page.collapsed(i) : '');
  if (tree.root.chars === 0)
    return { tree, title: page.headline >= 0 ? headlineText(page.headline) : fallbackTitle };
  const run = (drop: number, titleText: string) => {
    const reading = page.read(drop);
    const scores = page.scoreCandidates(reading);
    const top = page.topCandidate(reading, scores);
    const blocks = page.keptBlocks(reading, scores, top);
    return { reading, top, blocks, kept: page.mark(reading, blocks, titleText) };
  };
  const titleOf = () =>
    page.headline >= 0 && !page.headlineIsSiteName ? headlineText(page.headline) : fallbackTitle;
  // First reading: everything that names itself boilerplate is out. Second (when that loses the article):
  // only semantic containers, teaser lists and comment threads are (Readability's retry without its name rules).
  let chosen = run(1 | 2 | 4 | 8 | 16, normalizeText(titleOf()));
  if (chosen.kept < MIN_ARTICLE_CHARS) {
    // A short article is still the article: the second reading wins only where it grows the first one's block
    // (or the first found next to nothing), never by moving to another part of the page such as its comments.
    const strict = chosen;
    const lenient = run(1 | 8 | 16, normalizeText(titleOf()));
    const grows = strict.top >= lenient.top && strict.top < page.end[lenient.top]!;
    chosen = lenient;
    // A first reading left with a box of a few lines where the second finds a whole article (a page that wraps
    // everything in a "header" div) lost the article too: ten times the text is not a matter of taste.
    const dwarfs = lenient.kept >= 10 * strict.kept && lenient.kept >= 2 * MIN_ARTICLE_CHARS;
    if (lenient.kept <= strict.kept || (!grows && !dwarfs && strict.kept >= MIN_ARTICLE_CHARS / 5)) {
      page.mark(strict.reading, strict.blocks, normalizeText(titleOf()));
      chosen = strict;
    }
  }
  if (signals.has('title-proximity') && chosen.top > 0) {
    const headline = page.articleHeadline(chosen.reading, chosen.blocks);
    if (headline !== page.headline || page.headlineIsSiteName) {
      page.headline = headline;
      page.headlineIsSiteName = false;
      page.mark(chosen.reading, chosen.blocks, normalizeText(titleOf()));
    }
  }
  return { tree, title: titleOf() };
}
