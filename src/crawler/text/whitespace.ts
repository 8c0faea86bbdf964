// White space as a reader sees it: every run of it (`\s`, Unicode's spaces and line breaks) as one space.

/** Runs of two or more, and white space other than a space: a lone space, as between two words, stays as it is. */
const COLLAPSIBLE_WHITESPACE = /\s{2,}|[^\S ]/g;

/**
 * `text` with each run of white space as one space, as `text.replace(/\s+/g, ' ')` gives it, matching only
 * what changes: an article has a lone space between every two words, and replacing each by itself costs.
 */
export function collapseWhitespace(text: string): string {
  return text.replace(COLLAPSIBLE_WHITESPACE, ' ');
}

/** `text` as a reader sees it: white space collapsed, none at its ends. */
export function visibleText(text: string): string {
  return collapseWhitespace(text).trim();
}
