// Main-content extraction by text density (docs/reference.md#text-density; Sun, Song & Liao, SIGIR 2011).
// `cetd` is the reference method: drop the listed tags, then drop every top-level block whose C/T is below the
// threshold. `cetd-sum` is the paper's composite text density with DensitySum and its threshold search.
import type { Element } from 'domhandler';
import { InputError } from '../../errors.js';
import { tokenize } from '../text/tokenize.js';
import {
  buildDensityTree,
  computeDensitySums,
  type DensityTree,
  markByDensitySum,
  markByTextDensity,
} from './density.js';
import { collapsedText, DEFAULT_MAX_NODES, findFirstElement, parseHtmlCapped } from './parse.js';
import { renderHtml, renderText } from './render.js';

export type ExtractionMethod = 'cetd' | 'cetd-sum';

export const EXTRACTION_METHODS: readonly ExtractionMethod[] = ['cetd', 'cetd-sum'];

/**
 * Chosen by bench/extract.ts on readability's 130 test pages (token F1 against Firefox Reader View):
 * cetd-sum F1 0.925 vs cetd 0.894 (readability itself 0.997 on its own fixtures), at ~10× readability's pages/s.
 */
export const DEFAULT_EXTRACTION_METHOD: ExtractionMethod = 'cetd-sum';

/** The reference threshold for plain text density (docs/reference.md#text-density). */
export const DEFAULT_TEXT_DENSITY_THRESHOLD = 2;

export { DEFAULT_MAX_NODES };

export interface ExtractOptions {
  method?: ExtractionMethod;
  /** cetd: TD below this drops a block (default 2). cetd-sum: fixed CTD threshold instead of the paper's search. */
  threshold?: number;
  /** Resolves href/src in the cleaned HTML. */
  baseUrl?: string;
  /** Parse at most about this many nodes (elements + text); the rest of a huge page is ignored. */
  maxNodes?: number;
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

/**
 * cetd-sum removes only what a browser would not render (the reference code drops display:none elements from a
 * rendered page): non-rendered tags, `hidden`, and inline display:none / visibility:hidden — computed styles from
 * stylesheets are out of reach without a browser. noscript goes too: readers run with scripts on.
 */
const NON_RENDERED: ReadonlySet<string> = new Set([
  'script',
  'noscript',
  'style',
  'template',
  'head',
  'title',
  'meta',
  'link',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'video',
  'audio',
  'source',
  'track',
  'datalist',
]);

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

function isNotRendered(element: Element): boolean {
  if (NON_RENDERED.has(element.name)) return true;
  const { attribs } = element;
  if (attribs.hidden !== undefined) return true;
  const style = attribs.style;
  return style !== undefined && HIDDEN_STYLE.test(style);
}

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

/**
 * Extracts the main content of an HTML page. Never throws on malformed HTML; a page without main content gives
 * empty text. Throws InputError only for bad options.
 */
export function extractMainContent(html: string, options: ExtractOptions = {}): ExtractedContent {
  const { method, maxNodes, baseUrl } = validate(options);
  const { document, truncated } = parseHtmlCapped(html, maxNodes);
  const titleElement = findFirstElement(document, 'title', new Set(['svg', 'body']));
  const title = titleElement ? collapsedText(titleElement) : '';
  const body = findFirstElement(document, 'body') ?? document;

  let tree: DensityTree;
  if (method === 'cetd') {
    tree = buildDensityTree(body, isReferenceRemoved, false);
    markByTextDensity(tree, options.threshold ?? DEFAULT_TEXT_DENSITY_THRESHOLD);
  } else {
    tree = buildDensityTree(body, isNotRendered, true);
    if (tree.root.chars > 0) {
      computeDensitySums(tree);
      markByDensitySum(tree, options.threshold);
    }
  }

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

/** All rendered text of an HTML document or fragment (used to score extractions against expected HTML). */
export function htmlToText(html: string, maxNodes = DEFAULT_MAX_NODES): string {
  const { document } = parseHtmlCapped(html, maxNodes);
  const body = findFirstElement(document, 'body') ?? document;
  const tree = buildDensityTree(body, isNotRendered, false);
  for (const node of tree.order) node.mark = 1;
  return renderText(tree.root);
}
