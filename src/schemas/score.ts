// POST /v1/score: relevance of documents to a keyword query (docs/reference.md#keyword-query) or to a similarity set by
// TF-IDF (docs/reference.md#tfidf), without crawling. The one source of validation, TypeScript types and OpenAPI; which fields
// of a document go together is checked by the service.
import { type Static, Type } from 'typebox';
import { httpUrl, TextSettingsProperties } from './common.js';
import { MAX_INLINE_CHARS } from './extract.js';

export const ScoreDocument = Type.Object(
  {
    url: Type.Optional(
      httpUrl('alone: fetched (robots.txt obeyed); with html: the page URL links resolve against'),
    ),
    html: Type.Optional(Type.String({ maxLength: MAX_INLINE_CHARS })),
    text: Type.Optional(
      Type.String({
        maxLength: MAX_INLINE_CHARS,
        description: 'plain text: a page with no title and no headings',
      }),
    ),
  },
  { additionalProperties: false, description: 'one of {url}, {html, url?}, {text}' },
);
export type ScoreDocument = Static<typeof ScoreDocument>;

const Documents = Type.Array(ScoreDocument, { minItems: 1, maxItems: 100 });

export const ScoreRequest = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description: 'keyword query: words ANDed, (a b) a group ORed, "a b" a phrase',
      }),
    ),
    similarTo: Type.Optional(
      Type.Object(
        {
          urls: Type.Optional(
            Type.Array(httpUrl(), {
              minItems: 1,
              maxItems: 100,
              description: 'pages fetched (robots.txt obeyed), as in a crawl request',
            }),
          ),
          documents: Type.Optional(Documents),
        },
        {
          additionalProperties: false,
          description: 'the similarity set of the TF-IDF scorer: urls and/or documents, at most 100 in all',
        },
      ),
    ),
    corpus: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          "with similarTo: a completed stored corpus (POST /v1/corpora) gives N and the document frequencies, instead of this request's documents",
      }),
    ),
    documents: Documents,
    ...TextSettingsProperties,
  },
  {
    additionalProperties: false,
    description: 'exactly one of query and similarTo; stopWords and stem apply to similarTo (TF-IDF)',
  },
);
export type ScoreRequest = Static<typeof ScoreRequest>;

export const ScoreResult = Type.Object({
  scorer: Type.Union([Type.Literal('keyword'), Type.Literal('tfidf')]),
  corpus: Type.Optional(
    Type.Object(
      {
        source: Type.Union([Type.Literal('request'), Type.Literal('stored')]),
        id: Type.Optional(Type.String({ format: 'uuid', description: 'stored: the corpus id' })),
        documents: Type.Integer({ description: 'N, the documents of the corpus' }),
      },
      {
        description:
          'tfidf: document frequencies come from the stored corpus named in the request, else from the similarity set plus the scored documents of this request',
      },
    ),
  ),
  results: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'position in documents' }),
      url: Type.Optional(Type.String()),
      finalUrl: Type.Optional(Type.String({ description: 'a fetched document: the URL after redirects' })),
      score: Type.Number({ minimum: 0, maximum: 1 }),
      title: Type.Optional(Type.String()),
    }),
    { description: 'best first; equal scores in request order' },
  ),
});
export type ScoreResult = Static<typeof ScoreResult>;
