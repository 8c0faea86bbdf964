// What a reader never sees, so extraction leaves it out: elements a browser does not render (scripts, styles,
// media, `hidden`, inline display:none / visibility:hidden) and, for `auto`, what the page marks as hidden from
// readers and assistive technology (aria-hidden="true", the usual "hidden"/"screen-reader only" utility classes).
// Computed styles from stylesheets are out of reach without a browser.
import type { Element } from 'domhandler';

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

/**
 * Not rendered by a browser (the reference code of cetd-sum drops display:none elements from a rendered page):
 * non-rendered tags, `hidden`, inline display:none / visibility:hidden. noscript goes too: readers run scripts.
 */
export function isNotRendered(element: Element): boolean {
  if (NON_RENDERED.has(element.name)) return true;
  const { attribs } = element;
  if (attribs.hidden !== undefined) return true;
  const style = attribs.style;
  return style !== undefined && HIDDEN_STYLE.test(style);
}

/** Class tokens of CSS frameworks and CMS themes that hide an element (Bootstrap, WordPress, Tailwind…). */
const HIDDEN_CLASS =
  /(?:^|\s)(?:hidden|hide|d-none|invisible|sr-only|visually-hidden|visuallyhidden|screen-reader-text|screenreader-only|offscreen|element-invisible)(?:\s|$)/i;

/** Hidden from readers beyond what is not rendered: aria-hidden="true" or a hiding utility class. */
export function isHiddenFromReaders(element: Element): boolean {
  const { attribs } = element;
  if (attribs['aria-hidden'] === 'true') return true;
  const className = attribs.class;
  return className !== undefined && HIDDEN_CLASS.test(className);
}

/** Text that is only a permalink symbol: pilcrow, section sign, number sign, link or anchor emoji. */
const PERMALINK_SYMBOLS = /^(?:\s|¶|§|#|🔗|⚓|\uFE0E|\uFE0F)*$/u;

/**
 * A heading's permalink (Sphinx's and MkDocs' `<a class="headerlink" href="#id">¶</a>`, GitHub's `#` anchors):
 * a link to a place on its own page whose text is only a permalink symbol. It is the page's furniture, not its
 * words: left in, it ends every heading of the text, the title and the Markdown with "¶".
 */
export function isPermalink(element: Element): boolean {
  if (element.name !== 'a' || !element.attribs.href?.trim().startsWith('#')) return false;
  const stack = [...element.children];
  let text = '';
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text') text += (node as { data: string }).data;
    else if ('name' in node && node.name === 'img') return false;
    else if ('children' in node) stack.push(...(node.children as typeof stack));
  }
  return PERMALINK_SYMBOLS.test(text);
}
