// Plain text as a page, for documents given as text (a similarity set, /v1/score): no title, headings or
// links, its words tokenized exactly like a page's visible text so the scorers treat both alike.
import { contentWords, tokenize } from '../text/tokenize.js';
import type { ParsedPage } from './parse-html.js';

export function textPage(text: string): ParsedPage {
  const visible = text.replace(/\s+/g, ' ').trim();
  return {
    title: '',
    h1: [],
    h2: [],
    text: visible,
    textWords: tokenize(visible),
    words: contentWords(visible),
    links: [],
    images: [],
    metaRobots: { noindex: false, nofollow: false },
    canonicalHref: null,
    baseUrl: 'about:blank',
    firstParagraph: null,
    mainTextStart: { wordPosition: 0, linkIndex: 0 },
  };
}
