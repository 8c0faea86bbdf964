// Main-content extraction. `cetd` and `cetd-sum` are the readings of Sun, Song & Liao (SIGIR 2011;
// docs/reference.md#text-density): `cetd` drops the listed tags, then every top-level block whose C/T is below the
// threshold; `cetd-sum` is the paper's composite text density with DensitySum and its threshold search.
// `auto` (auto.ts) keeps the article only, from the signals readers and boilerplate removers agree on.
import type { Element } from 'domhandler';
import { InputError } from '../../errors.js';
import { tokenize } from '../text/tokenize.js';
import { visibleText } from '../text/whitespace.js';
import { AUTO_SIGNALS, type AutoSignal, extractAuto } from './auto.js';
import {
  buildDensityTree,
  computeDensitySums,
  type DensityTree,
  markByDensitySum,
  markByTextDensity,
  markTopLevelBlocksByTextDensity,
} from './density.js';
import {
  collapsedText,
  DEFAULT_MAX_NODES,
  findFirstElement,
  type ParsedHtml,
  parseHtmlCapped,
  removeElements,
} from './parse.js';
import { renderHtml, renderText } from './render.js';
import { isNotRendered, isPermalink } from './visibility.js';

export type ExtractionMethod = 'cetd' | 'cetd-sum' | 'auto' | 'cetd-blocks';

export const EXTRACTION_METHODS: readonly ExtractionMethod[] = ['cetd', 'cetd-sum', 'auto', 'cetd-blocks'];

/**
 * Chosen by bench/extract.ts on both development sets: the best F1 of trawl's methods on each (well above
 * cetd-sum's on Dragnet's pages), close to or above @mozilla/readability's, at a fraction of its CPU per
 * page (docs/benchmarks.md#extract).
 */
export const DEFAULT_EXTRACTION_METHOD: ExtractionMethod = 'auto';

/** The reference threshold for plain text density (docs/reference.md#text-density). */
export const DEFAULT_TEXT_DENSITY_THRESHOLD = 2;

export { DEFAULT_MAX_NODES };

export interface ExtractOptions {
  method?: ExtractionMethod;
  /**
   * cetd: TD below this drops a block (default 2). cetd-sum: fixed CTD threshold instead of the paper's search.
   * auto: not used.
   */
  threshold?: number;
  /** Resolves href/src in the cleaned HTML. */
  baseUrl?: string;
  /** Parse at most about this many nodes (elements + text); the rest of a huge page is ignored. */
  maxNodes?: number;
  /** auto: the signals used (default all); bench/extract.ts turns them off one by one to measure each. */
  autoSignals?: readonly AutoSignal[];
}

export interface ExtractedContent {
  title: string;
  /** Main content as plain text, paragraphs separated by a blank line. */
  text: string;
  /** Main content as cleaned HTML (no scripts or styles, attributes only href/src/alt). */
  html: string;
  method: ExtractionMethod;
  /** Words of `text` by the shared tokenizer (stop words included). */
  wordCount: number;
  /** True when the page hit the node cap and only its beginning was analysed. */
  truncated: boolean;
}

/**
 * The reference preprocessing list. `a` goes with its text: the reference method measures density without link
 * text, so navigation made of links empties out and drops; the price is that link words inside paragraphs are
 * lost from the output too (cetd-sum keeps them and weighs them as link characters instead).
 */
const REFERENCE_REMOVED: ReadonlySet<string> = new Set([
  'script',
  'noscript',
  'style',
  'iframe',
  'br',
  'nav',
  'head',
  'footer',
  'img',
  'header',
  'button',
  'input',
  'form',
  'a',
]);

function isReferenceRemoved(element: Element): boolean {
  return REFERENCE_REMOVED.has(element.name);
}

function validate(options: ExtractOptions): {
  method: ExtractionMethod;
  maxNodes: number;
  baseUrl: URL | undefined;
} {
  const method = options.method ?? DEFAULT_EXTRACTION_METHOD;
  if (!EXTRACTION_METHODS.includes(method)) {
    throw new InputError(`unknown extraction method "${String(method)}"`, 'method', {
      allowed: EXTRACTION_METHODS,
    });
  }
  const { threshold } = options;
  if (threshold !== undefined && !(Number.isFinite(threshold) && threshold >= 0)) {
    throw new InputError('threshold must be a finite number ≥ 0', 'threshold', { value: threshold });
  }
  const maxNodes = options.maxNodes ?? DEFAULT_MAX_NODES;
  if (!Number.isSafeInteger(maxNodes) || maxNodes < 1) {
    throw new InputError('maxNodes must be a positive integer', 'maxNodes', { value: maxNodes });
  }
  let baseUrl: URL | undefined;
  if (options.baseUrl !== undefined) {
    try {
      baseUrl = new URL(options.baseUrl);
    } catch (cause) {
      throw new InputError(`baseUrl is not an absolute URL: ${options.baseUrl}`, 'baseUrl', {
        cause: String(cause),
      });
    }
  }
  return { method, maxNodes, baseUrl };
}

/** The marked density tree of a page: what both readings below render. */
function extractTree(html: string, options: ExtractOptions) {
  return treeOf((maxNodes) => parseHtmlCapped(html, maxNodes), options);
}

/** The marked density tree of the page `parse` gives, parsed with the node cap it is handed. */
function treeOf(parse: (maxNodes: number) => ParsedHtml, options: ExtractOptions) {
  const { method, maxNodes, baseUrl } = validate(options);
  const { document, truncated } = parse(maxNodes);
  removeElements(document, isPermalink);
  const titleElement = findFirstElement(document, 'title', new Set(['svg', 'body']));
  const titleText = titleElement ? collapsedText(titleElement) : '';
  const body = findFirstElement(document, 'body') ?? document;

  let tree: DensityTree;
  let title = titleText;
  if (method === 'auto') {
    const auto = extractAuto(document, body, new Set(options.autoSignals ?? AUTO_SIGNALS));
    tree = auto.tree;
    title = auto.title;
  } else if (method === 'cetd' || method === 'cetd-blocks') {
    tree = buildDensityTree(body, isReferenceRemoved, false);
    const threshold = options.threshold ?? DEFAULT_TEXT_DENSITY_THRESHOLD;
    if (method === 'cetd') markByTextDensity(tree, threshold);
    else markTopLevelBlocksByTextDensity(tree, threshold);
  } else {
    tree = buildDensityTree(body, isNotRendered, true);
    if (tree.root.chars > 0) {
      computeDensitySums(tree);
      markByDensitySum(tree, options.threshold);
    }
  }
  return { tree, title, method, baseUrl, truncated };
}

/**
 * Extracts the main content of an HTML page. Never throws on malformed HTML; a page without main content gives
 * empty text. Throws InputError only for bad options.
 */
export function extractMainContent(html: string, options: ExtractOptions = {}): ExtractedContent {
  const { tree, title, method, baseUrl, truncated } = extractTree(html, options);
  const text = renderText(tree.root);
  return {
    title,
    text,
    html: text === '' ? '' : renderHtml(tree.root, baseUrl),
    method,
    wordCount: tokenize(text).length,
    truncated,
  };
}

/**
 * The main text alone, as extractMainContent's `text`: for readers that store or count only the text (the
 * crawl's text job), which need neither the cleaned HTML nor a word count.
 */
export function extractMainText(html: string, options: ExtractOptions = {}): string {
  return renderText(extractTree(html, options).tree.root);
}

/**
 * The main text of a page whose tree another walk built (CappedDomBuilder), as extractMainText gives it: `build`
 * is handed the node cap, walks the page and returns the builder's tree.
 */
export function extractMainTextOf(
  build: (maxNodes: number) => ParsedHtml,
  options: ExtractOptions = {},
): string {
  return renderText(treeOf(build, options).tree.root);
}

/** The main text of a text/plain page: all of it, whitespace collapsed (HTML extraction would read `<` as tags). */
export function plainMainText(text: string): string {
  return visibleText(text);
}

/** All rendered text of an HTML document or fragment (used to score extractions against expected HTML). */
export function htmlToText(html: string, maxNodes = DEFAULT_MAX_NODES): string {
  const { document } = parseHtmlCapped(html, maxNodes);
  const body = findFirstElement(document, 'body') ?? document;
  const tree = buildDensityTree(body, isNotRendered, false);
  for (const node of tree.order) node.mark = 1;
  return renderText(tree.root);
}
