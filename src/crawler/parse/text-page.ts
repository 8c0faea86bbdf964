// Plain text as a page, for documents given as text (a similarity set, /v1/score): no title, headings or
// links, its words tokenized exactly like a page's visible text so the scorers treat both alike.
import { isStopWord, referenceTokens, tokenize } from '../text/tokenize.js';
import { visibleText } from '../text/whitespace.js';
import type { ParsedPage } from './parse-html.js';

export function textPage(text: string): ParsedPage {
  const visible = visibleText(text);
  const tokens = referenceTokens(visible);
  return {
    title: '',
    h1: [],
    h2: [],
    text: visible,
    textWords: tokenize(visible),
    tokens,
    words: tokens.filter((word) => !isStopWord(word)),
    links: [],
    images: [],
    metaRobots: { noindex: false, nofollow: false },
    canonicalHref: null,
    baseUrl: 'about:blank',
    firstParagraph: null,
    mainTextStart: { wordPosition: 0, linkIndex: 0 },
  };
}
