// Text density over a DOM (Sun, Song & Liao, "DOM Based Content Extraction via Text Density", SIGIR 2011),
// following the authors' reference code (github.com/FeiSun/ContentExtraction, textdensity.cpp) where the paper is
// silent: zero counts become 1 in the formulas, <a>/<button>/<select> are link elements, a tag whose subtree is
// all link counts as one more link tag, and text runs add L·ln L / ln ln(ratio·L + e) to their parent's DensitySum.
// All passes use explicit stacks or the pre-order array: malformed pages nest thousands of levels deep.
import type { ChildNode, Document, Element } from 'domhandler';
import { isElement } from './parse.js';

/** A node of the density tree: an element that survived preprocessing, or a text run (`element` null). */
export class DensityNode {
  /** C: characters of visible text in the subtree (whitespace runs count 1, leading/trailing none). */
  chars = 0;
  /** T: element descendants (an element with no element children has 0). */
  tags = 0;
  /** LC: characters inside link elements. */
  linkChars = 0;
  /** LT: link tags in the subtree (see module comment). */
  linkTags = 0;
  /** TD (cetd) or CTD (cetd-sum) of this node. */
  density = 0;
  /** DensitySum: Σ CTD of element children plus the text-run terms; CTD for an element without element children. */
  densitySum = 0;
  /** The node with the largest DensitySum in this subtree (first in document order on ties). */
  maxSumNode: DensityNode = this;
  /** Position in the tree's pre-order (`DensityTree.order`). */
  index = 0;
  /**
   * 0 = drop, 1 = keep the whole subtree, 2 = keep this element and its text, judge element children,
   * 3 = keep this element as the container of kept children, without its own text runs (auto's ancestors).
   */
  mark: 0 | 1 | 2 | 3 = 0;

  constructor(
    readonly element: Element | Document | null,
    readonly parent: DensityNode | null,
    readonly text: string,
    readonly inLink: boolean,
    /** Filled in document order by buildDensityTree, which gives the list its final length up front. */
    readonly children: DensityNode[] = [],
  ) {}

  get isText(): boolean {
    return this.element === null;
  }
}

export interface DensityTree {
  root: DensityNode;
  /** Every node in document (pre-)order; reversed, it visits children before parents. */
  order: DensityNode[];
}

const LINK_ELEMENTS: ReadonlySet<string> = new Set(['a', 'button', 'select']);

/**
 * The children of every text node and empty element: one shared empty list (half of a page's nodes are text).
 * Nothing adds to a node's list after buildDensityTree; it is not frozen because V8 iterates a frozen array on a
 * slow path, and every for-of over children would then allocate at each step.
 */
const NO_CHILDREN: DensityNode[] = [];

/** Characters of `text` as rendered: whitespace runs inside count as one, leading/trailing whitespace as none. */
export function visibleChars(text: string): number {
  let count = 0;
  let pendingSpace = 0;
  let seenText = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 32 || code === 10 || code === 9 || code === 13 || code === 12 || code === 160) {
      if (seenText) pendingSpace = 1;
    } else {
      count += pendingSpace + 1;
      pendingSpace = 0;
      seenText = true;
    }
  }
  return count;
}

/**
 * Builds the density tree under `root` (the body), leaving out elements for which `removed` is true with their
 * subtrees (the preprocessing step), comments and other non-text nodes, and computes C, T, LC, LT bottom-up.
 */
export function buildDensityTree(
  root: Element | Document,
  removed: (element: Element) => boolean,
  linksAreLinks: boolean,
): DensityTree {
  // The density tree is, after the parse, the largest allocation of an extraction, and the collector's time grows
  // with what is allocated: so an element's kept children are counted before its node is made and its child list
  // gets its final length at once (a list grown by push reserves room for 17), text nodes share NO_CHILDREN, and
  // the stack is three parallel arrays (the DOM node, the density node it goes under, its place there) rather
  // than a tuple per node.
  const order: DensityNode[] = [];
  const stack: ChildNode[] = [];
  const parents: DensityNode[] = [];
  const slots: number[] = [];
  const kept: ChildNode[] = [];
  /** The node of `from`, with its kept children stacked to be made next (first child on top). */
  const open = (from: Element | Document, parent: DensityNode | null, inLink: boolean): DensityNode => {
    // `kept` is reused with a count of its own: setting its length to 0 would free its storage every time.
    let count = 0;
    const domChildren = from.children;
    for (let k = 0; k < domChildren.length; k++) {
      const child = domChildren[k]!;
      if (child.nodeType === 3 || (isElement(child) && !removed(child))) kept[count++] = child;
    }
    const children = count === 0 ? NO_CHILDREN : new Array<DensityNode>(count);
    const node = new DensityNode(from, parent, '', inLink, children);
    for (let slot = count - 1; slot >= 0; slot--) {
      stack.push(kept[slot]!);
      parents.push(node);
      slots.push(slot);
    }
    return node;
  };
  const top = open(root, null, false);
  order.push(top);
  while (stack.length > 0) {
    const node = stack.pop()!;
    const parent = parents.pop()!;
    const slot = slots.pop()!;
    let child: DensityNode;
    if (node.nodeType === 3) {
      child = new DensityNode(null, parent, (node as { data: string }).data, parent.inLink, NO_CHILDREN);
    } else {
      const element = node as Element;
      child = open(element, parent, parent.inLink || (linksAreLinks && LINK_ELEMENTS.has(element.name)));
    }
    child.index = order.length;
    parent.children[slot] = child;
    order.push(child);
  }

  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    if (node.isText) {
      node.chars = visibleChars(node.text);
      node.linkChars = node.inLink ? node.chars : 0;
      continue;
    }
    let chars = 0;
    let tags = 0;
    let linkChars = 0;
    let linkTags = 0;
    for (const child of node.children) {
      chars += child.chars;
      linkChars += child.linkChars;
      if (child.isText) continue;
      tags += child.tags + 1;
      linkTags += child.linkTags;
      const childIsLink = linksAreLinks && LINK_ELEMENTS.has((child.element as Element).name);
      // The reference counts a link child, or a child whose whole subtree is link, as one more link tag.
      if (
        childIsLink ||
        (child.linkTags !== 0 && child.linkTags === child.tags && child.linkChars === child.chars)
      ) {
        linkTags++;
      }
    }
    node.chars = chars;
    node.tags = tags;
    node.linkChars = node.inLink ? chars : linkChars;
    node.linkTags = node.inLink ? tags : linkTags;
  }
  return { root: top, order };
}

/** Plain text density TD = C / T (T = 0 counted as 1). */
export function textDensity(node: DensityNode): number {
  return node.chars / Math.max(node.tags, 1);
}

/**
 * Composite text density (paper eq. 2):
 * CTD = (C/T) · log_{ln((C/nLC)·LC + (LC_b/C_b)·C + e)} ((C/LC)·(T/LT)), with nLC = C − LC and zero counts → 1.
 */
export function compositeTextDensity(node: DensityNode, bodyLinkRatio: number): number {
  const chars = node.chars;
  if (chars === 0) return 0;
  const tags = Math.max(node.tags, 1);
  const linkChars = Math.max(node.linkChars, 1);
  const linkTags = Math.max(node.linkTags, 1);
  const nonLinkChars = Math.max(chars - node.linkChars, 1);
  const base = Math.log((chars / nonLinkChars) * linkChars + bodyLinkRatio * chars + Math.E);
  return ((chars / tags) * Math.log((chars / linkChars) * (tags / linkTags))) / Math.log(base);
}

/** A bare text run's term in its parent's DensitySum (reference code: C = L, T = LC = LT = 1). */
function textRunTerm(length: number, bodyLinkRatio: number): number {
  if (length <= 0) return 0;
  return (length * Math.log(length)) / Math.log(Math.log(bodyLinkRatio * length + Math.E));
}

/** Fills `density` (CTD), `densitySum` and `maxSumNode` for every node. */
export function computeDensitySums(tree: DensityTree): void {
  const bodyLinkRatio = tree.root.chars === 0 ? 0 : tree.root.linkChars / tree.root.chars;
  for (let i = tree.order.length - 1; i >= 0; i--) {
    const node = tree.order[i]!;
    if (node.isText) continue;
    node.density = compositeTextDensity(node, bodyLinkRatio);
    let sum = 0;
    let hasElementChild = false;
    let best: DensityNode = node;
    let bestSum = Number.NEGATIVE_INFINITY;
    for (const child of node.children) {
      if (child.isText) {
        sum += textRunTerm(child.chars, bodyLinkRatio);
        continue;
      }
      hasElementChild = true;
      sum += child.density;
      if (child.maxSumNode.densitySum > bestSum) {
        bestSum = child.maxSumNode.densitySum;
        best = child.maxSumNode;
      }
    }
    node.densitySum = hasElementChild ? sum : node.density;
    node.maxSumNode = node.densitySum >= bestSum ? node : best;
  }
}

/** Marks `node`'s subtree 1 (content) and its ancestors 2, stopping where earlier marks already hold. */
function markContent(node: DensityNode): void {
  const stack = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.mark === 1) continue;
    current.mark = 1;
    for (const child of current.children) if (!child.isText) stack.push(child);
  }
  for (let up = node.parent; up !== null && up.mark === 0; up = up.parent) up.mark = 2;
}

/**
 * The paper's extraction (§4, reference GetThreshold + MarkContent): the node with the largest DensitySum is
 * content; unless `threshold` is given, it is the least CTD on the path from that node up to the body; then every
 * node whose CTD reaches the threshold contributes the largest-DensitySum node of its own subtree.
 * Returns the threshold used. Marks nothing when no DensitySum is positive (a page of links only).
 */
export function markByDensitySum(tree: DensityTree, threshold?: number): number {
  const target = tree.root.maxSumNode;
  // Only link text (every CTD ≤ 0): the page has no main content, where the paper would return the best link.
  if (target.densitySum <= 0) return threshold ?? 0;
  let searched = target.density;
  for (let up = target.parent; up !== null; up = up.parent) searched = Math.min(searched, up.density);
  const used = threshold ?? searched;
  markContent(target);
  const stack = [tree.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.mark === 1 || node.density < used) continue;
    const best = node.maxSumNode;
    if (best.mark !== 1) markContent(best);
    for (const child of node.children) if (!child.isText) stack.push(child);
  }
  return used;
}

/**
 * Reference text-density pruning: from the body down, an element whose TD is below `threshold` is dropped with
 * its subtree (it is the top-level low-density block on its path); the others stay and their children are judged.
 */
export function markByTextDensity(tree: DensityTree, threshold: number): void {
  tree.root.mark = 2;
  const stack = [tree.root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const child of node.children) {
      if (child.isText) continue;
      child.density = textDensity(child);
      if (child.density >= threshold) {
        child.mark = 2;
        stack.push(child);
      }
    }
  }
}

/**
 * The reference's block reading of text density (docs/reference.md#text-density, method `cetd-blocks`): only
 * the top-level blocks (children of <body>) are judged, and a block kept is kept whole — where `cetd` (the
 * paper's code) judges every element at every level and prunes inside a kept block too. On
 * `<div>ab<b>c</b></div>` the block reading keeps "abc", the per-level one "ab".
 */
export function markTopLevelBlocksByTextDensity(tree: DensityTree, threshold: number): void {
  tree.root.mark = 2;
  for (const block of tree.root.children) {
    if (block.isText) continue;
    block.density = textDensity(block);
    if (block.density < threshold) continue;
    const stack = [block];
    while (stack.length > 0) {
      const node = stack.pop()!;
      node.mark = 2;
      for (const child of node.children) if (!child.isText) stack.push(child);
    }
  }
}
