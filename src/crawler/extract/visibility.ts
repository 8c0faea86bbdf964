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
