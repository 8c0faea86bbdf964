// HTML → domhandler tree with a hard node cap, so a huge or hostile page costs bounded time and memory.
// The parse is fed to htmlparser2 (the parser behind cheerio/slim and linkedom) in small chunks and stops once
// the tree holds `maxNodes` nodes (overshooting by at most one chunk's worth), or once elements nest deeper than
// MAX_DEPTH: htmlparser2 keeps its open-element stack with unshift, so nesting costs time quadratic in depth.
import { type ChildNode, type Document, DomHandler, type Element, isTag } from 'domhandler';
import { Parser } from 'htmlparser2';
import { visibleText } from '../text/whitespace.js';

/** Default node cap: far above a normal article page (the largest of readability's 130 fixtures has ~40k). */
export const DEFAULT_MAX_NODES = 200_000;

/** Chunk fed to the parser between cap checks; a chunk cannot create more than CHUNK_CHARS / 2 nodes. */
const CHUNK_CHARS = 16 * 1024;

/** Nesting beyond this stops the parse (real pages stay far below; unclosed <font> soups reach thousands). */
export const MAX_DEPTH = 2048;

class CountingHandler extends DomHandler {
  nodes = 0;
  tooDeep = false;
  protected override addNode(node: ChildNode): void {
    this.nodes++;
    super.addNode(node);
  }
  override onopentag(name: string, attribs: Record<string, string>): void {
    super.onopentag(name, attribs);
    if (this.tagStack.length > MAX_DEPTH) this.tooDeep = true;
  }
}

export interface ParsedHtml {
  document: Document;
  /** True when parsing stopped at the node or depth cap: the tail of the page is not in `document`. */
  truncated: boolean;
}

export function parseHtmlCapped(html: string, maxNodes: number): ParsedHtml {
  const handler = new CountingHandler();
  const parser = new Parser(handler, { decodeEntities: true });
  let truncated = false;
  for (let start = 0; start < html.length; start += CHUNK_CHARS) {
    if (handler.nodes >= maxNodes || handler.tooDeep) {
      truncated = true;
      break;
    }
    parser.write(html.slice(start, start + CHUNK_CHARS));
  }
  parser.end();
  return { document: handler.root, truncated };
}

/**
 * The tree parseHtmlCapped builds, from the events of another walk over the page (parse/html-events.ts
 * walkHtml, which mirrors htmlparser2's Parser): so one pass over a page feeds the crawl's link reading and the
 * extraction. It stops taking events at the same caps, checked at every event rather than every chunk; the
 * walk has no comments, doctype or processing instructions, which no extraction reads.
 */
export class CappedDomBuilder {
  private readonly handler = new CountingHandler();
  private stopped = false;

  constructor(private readonly maxNodes: number) {}

  onopentag(name: string, attribs: Record<string, string>): void {
    if (!this.full()) this.handler.onopentag(name, attribs);
  }

  ontext(data: string): void {
    if (!this.full()) this.handler.ontext(data);
  }

  onclosetag(): void {
    if (!this.stopped) this.handler.onclosetag();
  }

  /** The tree of what the walk gave before a cap, once the walk is over. */
  finish(): ParsedHtml {
    this.handler.onend();
    return { document: this.handler.root, truncated: this.stopped };
  }

  private full(): boolean {
    if (!this.stopped && (this.handler.nodes >= this.maxNodes || this.handler.tooDeep)) this.stopped = true;
    return this.stopped;
  }
}

/** An element (domhandler gives processing instructions nodeType 1 too, so nodeType alone is not enough). */
export function isElement(node: ChildNode): node is Element {
  return isTag(node);
}

/** First element named `name` in document order, not looking inside `skip` subtrees (explicit stack: deep trees). */
export function findFirstElement(
  root: Document | Element,
  name: string,
  skip: ReadonlySet<string> = new Set(),
): Element | undefined {
  const stack: ChildNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (node.name === name) return node;
    if (skip.has(node.name)) continue;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return undefined;
}

/** Text content of an element with whitespace collapsed. */
export function collapsedText(element: Element): string {
  const parts: string[] = [];
  const stack: ChildNode[] = [element];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType === 3) parts.push((node as { data: string }).data);
    else if (isElement(node))
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return visibleText(parts.join(''));
}

/** Takes every element `drop` picks (and its subtree) out of the tree, keeping sibling links consistent. */
export function removeElements(root: Document | Element, drop: (element: Element) => boolean): void {
  const picked: Element[] = [];
  const stack: ChildNode[] = [...root.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (drop(node)) picked.push(node);
    else for (const child of node.children) stack.push(child);
  }
  for (const element of picked) {
    const parent = element.parent;
    if (!parent) continue;
    parent.children.splice(parent.children.indexOf(element), 1);
    if (element.prev) element.prev.next = element.next;
    if (element.next) element.next.prev = element.prev;
    element.parent = null;
    element.prev = null;
    element.next = null;
  }
}
