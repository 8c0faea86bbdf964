// HTML → open tag / text / close tag events, in time linear in the page whatever its nesting.
//
// htmlparser2's Parser (10.1) keeps its open elements with Array.unshift/shift and finds an end tag's element
// with stack.indexOf, so a page of many unclosed tags costs time quadratic in their number (a hostile page
// blocks the event loop for minutes; docs/benchmarks.md#parse). Stopping at a depth cap would lose the
// links after the deep part, and capping the Parser's stack would change which element an end tag closes.
// So its Tokenizer (linear) is driven here by a copy of the Parser's tree rules for HTML mode with the same
// events in the same order, but with the stack kept top-last (push/pop) beside a count of each open name:
// an end tag whose element is not open is known in O(1), and one that is open pops elements that each were
// pushed once. Mirrored exactly (test/unit/parse/parse-html.test.ts compares both on real pages and random
// tag soups): implied end tags (openImpliesClose), void elements, self-closing only in foreign (svg/math)
// context, `</p>` without <p> as an empty <p>, `</br>` as <br>, a tag cut off at the end of input opened but
// never reported, every element still open closed at the end (innermost first). Comments, CDATA (a comment
// in HTML), doctype and processing instructions produce no event.
import { Tokenizer } from 'htmlparser2';

export interface HtmlEventHandler {
  /** A start tag, lower-cased, with its attributes (names lower-cased, first occurrence wins, entities decoded). */
  onopentag(name: string, attribs: Record<string, string>): void;
  /** Text, entities decoded; a run of text may come in several pieces. */
  ontext(data: string): void;
  /** An element ends: by its end tag, implied by another tag, a void element at once, or at the end. */
  onclosetag(name: string): void;
}

// The tables below are htmlparser2 10.1's (dist/esm/Parser.js), copied: the package does not export them.
const formTags: ReadonlySet<string> = new Set([
  'input',
  'option',
  'optgroup',
  'select',
  'button',
  'datalist',
  'textarea',
]);
const pTag: ReadonlySet<string> = new Set(['p']);
const tableSectionTags: ReadonlySet<string> = new Set(['thead', 'tbody']);
const ddtTags: ReadonlySet<string> = new Set(['dd', 'dt']);
const rtpTags: ReadonlySet<string> = new Set(['rt', 'rp']);

/** A start tag of the key closes open elements of the value set, for as long as one is the innermost. */
const openImpliesClose: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['p', pTag],
  ['h1', pTag],
  ['h2', pTag],
  ['h3', pTag],
  ['h4', pTag],
  ['h5', pTag],
  ['h6', pTag],
  ['select', formTags],
  ['input', formTags],
  ['output', formTags],
  ['button', formTags],
  ['datalist', formTags],
  ['textarea', formTags],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', ddtTags],
  ['dt', ddtTags],
  ['address', pTag],
  ['article', pTag],
  ['aside', pTag],
  ['blockquote', pTag],
  ['details', pTag],
  ['div', pTag],
  ['dl', pTag],
  ['fieldset', pTag],
  ['figcaption', pTag],
  ['figure', pTag],
  ['footer', pTag],
  ['form', pTag],
  ['header', pTag],
  ['hr', pTag],
  ['main', pTag],
  ['nav', pTag],
  ['ol', pTag],
  ['pre', pTag],
  ['section', pTag],
  ['table', pTag],
  ['ul', pTag],
  ['rt', rtpTags],
  ['rp', rtpTags],
  ['tbody', tableSectionTags],
  ['tfoot', tableSectionTags],
]);

const voidElements: ReadonlySet<string> = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Open a foreign context, where `<x/>` closes itself. */
const foreignContextElements: ReadonlySet<string> = new Set(['math', 'svg']);
/** Back to HTML inside foreign content: `<x/>` is a start tag again. */
const htmlIntegrationElements: ReadonlySet<string> = new Set([
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
  'foreignobject',
  'desc',
  'title',
]);

export interface WalkOptions {
  /**
   * Only these attributes (lower-case ASCII names) are read into a start tag's `attribs`; the others are
   * passed over without copying their names or values. A name of another length is passed over unread: no
   * character lower-cases to an ASCII letter but from a single character.
   */
  attributes?: ReadonlySet<string>;
}

/** Parses the whole of `html` (decoding entities), calling `handler` as htmlparser2's Parser would in HTML mode. */
export function walkHtml(html: string, handler: HtmlEventHandler, options: WalkOptions = {}): void {
  const wanted = options.attributes;
  const wantedLengths = wanted ? new Set([...wanted].map((name) => name.length)) : null;
  /** Open elements, innermost last. */
  const stack: string[] = [];
  /** How many times each name is on `stack`: an end tag for a name not open costs no scan. */
  const openCount = new Map<string, number>();
  /** Per foreign/integration element opened, whether `<x/>` self-closes there; innermost last. */
  const foreignContext: boolean[] = [false];
  let tagname = '';
  let attribs: Record<string, string> | null = null;
  let attribname = '';
  let attribvalue = '';
  /** Whether the attribute being read is one the caller wants. */
  let keepAttrib = true;

  const push = (name: string): void => {
    stack.push(name);
    openCount.set(name, (openCount.get(name) ?? 0) + 1);
  };
  const pop = (): string => {
    const name = stack.pop() as string;
    openCount.set(name, (openCount.get(name) as number) - 1);
    return name;
  };

  const emitOpenTag = (name: string): void => {
    tagname = name;
    const impliesClose = openImpliesClose.get(name);
    if (impliesClose) {
      while (stack.length > 0 && impliesClose.has(stack[stack.length - 1] as string)) {
        handler.onclosetag(pop());
      }
    }
    if (!voidElements.has(name)) {
      push(name);
      if (foreignContextElements.has(name)) foreignContext.push(true);
      else if (htmlIntegrationElements.has(name)) foreignContext.push(false);
    }
    attribs = {};
  };
  const endOpenTag = (): void => {
    if (attribs) {
      handler.onopentag(tagname, attribs);
      attribs = null;
    }
    if (voidElements.has(tagname)) handler.onclosetag(tagname);
    tagname = '';
  };
  const closeCurrentTag = (): void => {
    const name = tagname;
    endOpenTag();
    if (stack.length > 0 && stack[stack.length - 1] === name) handler.onclosetag(pop());
  };

  const tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities: true },
    {
      ontext: (start, end) => handler.ontext(html.slice(start, end)),
      ontextentity: (codepoint) => handler.ontext(String.fromCodePoint(codepoint)),
      onopentagname: (start, end) => emitOpenTag(html.slice(start, end).toLowerCase()),
      onopentagend: () => endOpenTag(),
      onselfclosingtag: () => {
        if (foreignContext[foreignContext.length - 1]) closeCurrentTag();
        else endOpenTag();
      },
      onclosetag: (start, end) => {
        const name = html.slice(start, end).toLowerCase();
        // As the Parser: any such end tag leaves the innermost context, matched or not.
        if (foreignContextElements.has(name) || htmlIntegrationElements.has(name)) foreignContext.pop();
        if (!voidElements.has(name)) {
          if ((openCount.get(name) ?? 0) > 0) {
            let closed: string;
            do {
              closed = pop();
              handler.onclosetag(closed);
            } while (closed !== name);
          } else if (name === 'p') {
            emitOpenTag('p'); // `</p>` alone is an empty paragraph
            closeCurrentTag();
          }
        } else if (name === 'br') {
          handler.onopentag('br', {}); // `</br>` is a <br>
          handler.onclosetag('br');
        }
      },
      onattribname: (start, end) => {
        if (wantedLengths !== null && !wantedLengths.has(end - start)) {
          keepAttrib = false;
          return;
        }
        attribname = html.slice(start, end).toLowerCase();
        keepAttrib = wanted === undefined || wanted.has(attribname);
      },
      onattribdata: (start, end) => {
        if (keepAttrib) attribvalue += html.slice(start, end);
      },
      onattribentity: (codepoint) => {
        if (keepAttrib) attribvalue += String.fromCodePoint(codepoint);
      },
      onattribend: () => {
        if (keepAttrib && attribs && !Object.hasOwn(attribs, attribname)) attribs[attribname] = attribvalue;
        attribvalue = '';
      },
      oncdata: () => {},
      oncomment: () => {},
      ondeclaration: () => {},
      onprocessinginstruction: () => {},
      onend: () => {
        while (stack.length > 0) handler.onclosetag(pop());
      },
    },
  );
  if (html) tokenizer.write(html);
  tokenizer.end();
}
