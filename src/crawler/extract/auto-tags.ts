// The tag and role tables of `auto` (auto.ts): which elements are semantic boilerplate containers, which are
// scored as paragraphs or judged as blocks, which are headings, and Readability's starting score by tag.

/** Semantic containers that are never the article. */
export const SEMANTIC_TAGS: ReadonlySet<string> = new Set(['nav', 'aside', 'footer', 'menu', 'dialog']);
/** Page-wide wrappers on some sites (ASP.NET puts the whole page in a form): dropped only when they are small. */
export const WRAPPER_TAGS: ReadonlySet<string> = new Set(['header', 'form']);
/** ARIA landmark roles that are never the article. */
export const SEMANTIC_ROLES: ReadonlySet<string> = new Set([
  'navigation',
  'complementary',
  'contentinfo',
  'banner',
  'menu',
  'menubar',
  'search',
  'dialog',
  'alertdialog',
]);
/** Elements whose text can be a comment thread's heading (see COMMENT_HEADING). */
export const COMMENT_HEADING_TAGS: ReadonlySet<string> = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'dt',
  'b',
  'strong',
  'p',
]);
/** What a sign-up box holds (see SIGN_UP). */
export const FORM_TAGS: ReadonlySet<string> = new Set(['form', 'input']);
export const IMAGE_TAGS: ReadonlySet<string> = new Set(['img']);
/** Elements that can hold a line of post metadata or a copyright line (see POST_METADATA). */
export const METADATA_TAGS: ReadonlySet<string> = new Set([
  'p',
  'div',
  'span',
  'li',
  'small',
  'footer',
  'section',
  'dd',
  'em',
  'ul',
]);

/** Elements scored as paragraphs; a div-like element counts as one when it holds no block (Readability). */
export const PARAGRAPH_TAGS: ReadonlySet<string> = new Set(['p', 'pre', 'td']);
export const DIV_LIKE_TAGS: ReadonlySet<string> = new Set([
  'div',
  'section',
  'article',
  'main',
  'center',
  'font',
]);
/** A div holding one of these is a container, not a paragraph (Readability's DIV_TO_P_ELEMS). */
export const BLOCK_TAGS: ReadonlySet<string> = new Set([
  'blockquote',
  'dl',
  'div',
  'img',
  'ol',
  'p',
  'pre',
  'table',
  'ul',
]);
export const LIST_TAGS: ReadonlySet<string> = new Set(['ul', 'ol', 'dl']);
/** Blocks judged one by one inside the kept content (Readability's cleanConditionally set). */
export const JUDGED_BLOCKS: ReadonlySet<string> = new Set([
  'div',
  'section',
  'ul',
  'ol',
  'dl',
  'table',
  'form',
  'fieldset',
]);
export const LINE_TAGS: ReadonlySet<string> = new Set(['td', 'th']);
/** Headings that can be an article's headline. */
export const ARTICLE_HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3']);
export const HEADINGS: ReadonlySet<string> = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Readability's starting score of a candidate by its tag. */
export function tagScore(name: string): number {
  if (name === 'div') return 5;
  if (name === 'pre' || name === 'td' || name === 'blockquote') return 3;
  if (['address', 'ol', 'ul', 'dl', 'dd', 'dt', 'li', 'form'].includes(name)) return -3;
  if (HEADINGS.has(name) || name === 'th') return -5;
  return 0;
}
