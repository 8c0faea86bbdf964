// Turns the kept part of a marked density tree into plain text (block elements become paragraph breaks, as a
// reader would see them) and into cleaned HTML (tags kept, attributes reduced to href/src/alt, URLs absolute).
import type { Element } from 'domhandler';
import { collapseWhitespace, visibleText } from '../text/whitespace.js';
import type { DensityNode } from './density.js';

/** Elements that start a new paragraph in the plain text (HTML's block-level and list/table structure). */
const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'caption',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
]);

/** Inline elements that still separate words (table cells side by side). */
const SPACED_ELEMENTS: ReadonlySet<string> = new Set(['td', 'th', 'option', 'label']);

const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

const SAFE_TAG_NAME = /^[a-z][a-z0-9-]*$/;

const KEPT_ATTRIBUTES = ['href', 'src', 'alt'] as const;

function isKept(node: DensityNode): boolean {
  if (!node.isText) return node.mark !== 0;
  const parentMark = node.parent?.mark ?? 0;
  return parentMark !== 0 && parentMark !== 3;
}

function nameOf(node: DensityNode): string {
  return (node.element as Element).name;
}

/** Walks the kept nodes under `root` (excluding `root` itself) in document order, with enter and exit events. */
function walk(root: DensityNode, visit: (node: DensityNode, exit: boolean) => void): void {
  // Two parallel stacks (the node, whether this is its exit) rather than an object per step: the collector's work
  // grows with every allocation of an extraction.
  const nodes: DensityNode[] = [];
  const exits: boolean[] = [];
  const pushChildren = (node: DensityNode) => {
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i]!;
      if (isKept(child)) {
        nodes.push(child);
        exits.push(false);
      }
    }
  };
  pushChildren(root);
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const exit = exits.pop()!;
    visit(node, exit);
    if (exit || node.isText) continue;
    nodes.push(node);
    exits.push(true);
    pushChildren(node);
  }
}

/** Plain text of the kept content: paragraphs separated by a blank line, whitespace collapsed, <br> kept. */
export function renderText(root: DensityNode): string {
  const paragraphs: string[] = [];
  let current = '';
  let preDepth = 0;
  const flush = () => {
    if (current === '') return;
    // most paragraphs hold no <br>: one line, collapsed without splitting it
    if (!current.includes('\n')) {
      const line = visibleText(current);
      if (line !== '') paragraphs.push(line);
    } else {
      const lines = current
        .split('\n')
        .map((line) => visibleText(line))
        .filter((line) => line !== '');
      if (lines.length > 0) paragraphs.push(lines.join('\n'));
    }
    current = '';
  };
  walk(root, (node, exit) => {
    if (node.isText) {
      // Outside <pre> a newline in the source is only a space; other whitespace is collapsed line by line in
      // flush anyway, so text without a newline goes in as it is (one string less per text node).
      const { text } = node;
      current += preDepth > 0 || !text.includes('\n') ? text : collapseWhitespace(text);
      return;
    }
    const name = nameOf(node);
    if (name === 'br') current += '\n';
    else if (BLOCK_ELEMENTS.has(name)) flush();
    else if (SPACED_ELEMENTS.has(name)) current += ' ';
    if (name === 'pre') preDepth += exit ? -1 : 1;
  });
  flush();
  return paragraphs.join('\n\n');
}

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

function cleanUrl(value: string, baseUrl: URL | undefined): string | undefined {
  const trimmed = value.trim();
  if (/^\s*(javascript|vbscript|data):/i.test(trimmed) && !/^data:image\//i.test(trimmed)) return undefined;
  if (baseUrl === undefined) return trimmed;
  try {
    return new URL(trimmed, baseUrl).href;
  } catch {
    return trimmed;
  }
}

/** Cleaned HTML of the kept content: same elements, only href/src/alt attributes, URLs resolved against `baseUrl`. */
export function renderHtml(root: DensityNode, baseUrl: URL | undefined): string {
  const out: string[] = [];
  walk(root, (node, exit) => {
    if (node.isText) {
      out.push(escapeText(node.text));
      return;
    }
    const element = node.element as Element;
    // htmlparser2 accepts any run of characters as a tag name; emit only names that are safe to print.
    if (!SAFE_TAG_NAME.test(element.name)) return;
    if (exit) {
      if (!VOID_ELEMENTS.has(element.name)) out.push(`</${element.name}>`);
      return;
    }
    let tag = `<${element.name}`;
    for (const attribute of KEPT_ATTRIBUTES) {
      const raw = element.attribs[attribute];
      if (raw === undefined) continue;
      const value = attribute === 'alt' ? raw : cleanUrl(raw, baseUrl);
      if (value !== undefined) tag += ` ${attribute}="${escapeAttribute(value)}"`;
    }
    out.push(`${tag}>`);
  });
  return out.join('');
}
