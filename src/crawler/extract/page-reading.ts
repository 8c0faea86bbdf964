// One walk over a crawled page's HTML for both of its readers: the crawl's (links, title, words: parse/) and the
// main-text extraction's (a domhandler tree: extract/). The tokenizer and the tree rules run once, and each reader
// gets the events it would have had from a walk of its own, so each gives what it gives alone.
import { type HtmlEventHandler, walkHtml } from '../parse/html-events.js';
import { type ParsedPage, type ParseHtmlOptions, parseHtmlEvents } from '../parse/parse-html.js';
import { type ExtractionMethod, extractMainTextOf } from './extract.js';
import { CappedDomBuilder } from './parse.js';

export interface PageReading {
  parsed: ParsedPage;
  /** The main text by `method`, as extractMainText gives it. */
  mainText: string;
}

/** parseHtml(html, pageUrl, options) and extractMainText(html, { method }), from one walk over `html`. */
export function readPage(
  html: string,
  pageUrl: string,
  options: ParseHtmlOptions,
  method: ExtractionMethod,
): PageReading {
  const walked: { parsed?: ParsedPage } = {};
  const mainText = extractMainTextOf(
    (maxNodes) => {
      const dom = new CappedDomBuilder(maxNodes);
      // the tree needs every attribute (class, id, role, style …), so the walk reads them all for both
      const walk = (source: string, handler: HtmlEventHandler): void =>
        walkHtml(source, {
          onopentag(name, attribs) {
            handler.onopentag(name, attribs);
            dom.onopentag(name, attribs);
          },
          ontext(data) {
            handler.ontext(data);
            dom.ontext(data);
          },
          onclosetag(name) {
            handler.onclosetag(name);
            dom.onclosetag();
          },
        });
      walked.parsed = parseHtmlEvents(walk, html, pageUrl, options);
      return dom.finish();
    },
    { method },
  );
  if (!walked.parsed) throw new Error('the extraction did not walk the page');
  return { parsed: walked.parsed, mainText };
}
