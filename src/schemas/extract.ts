// POST /v1/extract: main content of one page, given as a URL to fetch or as HTML. The one source of
// validation, TypeScript types and OpenAPI; "exactly one of url/html" is checked by the service.
import { type Static, Type } from 'typebox';
import { DEFAULT_EXTRACTION_METHOD, type ExtractionMethod } from '../crawler/extract/index.js';
import { httpUrl } from './common.js';

/** Inline HTML or text per document: 5 MiB of characters (the whole request body is capped at 8 MiB). */
export const MAX_INLINE_CHARS = 5 * 1024 * 1024;

// The extractor's methods (EXTRACTION_METHODS), spelled out so TypeBox keeps the literal types.
export const Method = Type.Union([
  Type.Literal('cetd'),
  Type.Literal('cetd-sum'),
  Type.Literal('auto'),
  Type.Literal('cetd-blocks'),
]);
const _methodsMatch: ExtractionMethod extends Static<typeof Method> ? true : never = true;
void _methodsMatch;

export const ExtractRequest = Type.Object(
  {
    url: Type.Optional(httpUrl('a page to fetch (robots.txt obeyed); or give html')),
    html: Type.Optional(
      Type.String({ maxLength: MAX_INLINE_CHARS, description: 'the page itself; or give url' }),
    ),
    baseUrl: Type.Optional(httpUrl('with html: resolves relative href/src in the cleaned HTML')),
    format: Type.Optional(
      Type.Union([Type.Literal('text'), Type.Literal('html'), Type.Literal('markdown')], {
        description:
          'what is computed beside title, text and html (always there): markdown adds `markdown`, the main content as Markdown (headings, lists, tables, code, absolute links, images); text and html (the default) add nothing',
      }),
    ),
    method: Type.Optional(
      Type.Union(Method.anyOf, {
        default: DEFAULT_EXTRACTION_METHOD,
        description:
          'auto (the default): the article only, from paragraph scores, block link density, semantic containers, boilerplate names, schema.org articleBody and the headline (docs/guide.md, Extraction); cetd: text density with a fixed threshold, judged at every level as the paper code does (docs/reference.md#text-density); cetd-blocks: the same density, judging only top-level blocks and keeping a kept block whole (the reference reading); cetd-sum: composite text density with DensitySum',
      }),
    ),
    threshold: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1_000_000,
        description:
          'cetd: blocks whose text density is below it are dropped (default 2); cetd-sum: a fixed threshold instead of the searched one; auto: not used',
      }),
    ),
  },
  { additionalProperties: false, description: 'exactly one of url and html' },
);
export type ExtractRequest = Static<typeof ExtractRequest>;

export const ExtractResult = Type.Object({
  title: Type.String({
    description: "auto: the article's headline (not repeated in text); cetd, cetd-sum: the page's <title>",
  }),
  text: Type.String({ description: 'main content as plain text, paragraphs separated by a blank line' }),
  html: Type.String({ description: 'main content as cleaned HTML; empty when the page has none' }),
  method: Method,
  wordCount: Type.Integer(),
  truncated: Type.Boolean({
    description: 'the page was too large: only its beginning was analysed (or fetched)',
  }),
  url: Type.Optional(Type.String({ description: 'the URL fetched, after redirects (url requests only)' })),
  markdown: Type.Optional(Type.String({ description: 'format markdown: the main content as Markdown' })),
});
export type ExtractResult = Static<typeof ExtractResult>;
