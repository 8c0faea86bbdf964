// /v1/corpora: stored TF-IDF corpora (docs/reference.md#tfidf). The one source of validation, TypeScript types and
// OpenAPI; which source fields go together (exactly one of urls, fromCrawl, documents) is checked by the service.
import { type Static, Type } from 'typebox';
import {
  httpUrl,
  IsoDate,
  ListPage,
  Nullable,
  OwnedListQuery,
  Owner,
  TextSettingsProperties,
  Uuid,
} from './common.js';
import { MAX_INLINE_CHARS } from './extract.js';

export const MAX_CORPUS_URLS = 10_000;
export const MAX_CORPUS_DOCUMENTS = 1_000;
/** How many terms GET /v1/corpora/:id shows. */
export const TOP_TERMS = 20;

export const CorpusDocument = Type.Object(
  {
    text: Type.Optional(
      Type.String({ maxLength: MAX_INLINE_CHARS, description: 'plain text: its words are one document' }),
    ),
    html: Type.Optional(
      Type.String({ maxLength: MAX_INLINE_CHARS, description: 'a page, parsed as the crawl parses it' }),
    ),
    url: Type.Optional(httpUrl('with html: the page URL (not fetched)')),
  },
  { additionalProperties: false, description: 'one of {text}, {html, url?}' },
);
export type CorpusDocument = Static<typeof CorpusDocument>;

export const CorpusRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    urls: Type.Optional(
      Type.Array(httpUrl(), {
        minItems: 1,
        maxItems: MAX_CORPUS_URLS,
        description:
          'documents fetched as /v1/score fetches them (robots.txt obeyed); one that cannot be fetched is skipped and counted',
      }),
    ),
    fromCrawl: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'a finished crawl: each of its HTML pages with a stored body is one document',
      }),
    ),
    documents: Type.Optional(Type.Array(CorpusDocument, { minItems: 1, maxItems: MAX_CORPUS_DOCUMENTS })),
    ...TextSettingsProperties,
  },
  {
    additionalProperties: false,
    description:
      'name and exactly one of urls, fromCrawl, documents; stopWords and stem: how its words are made (scoring with the corpus must use the same)',
  },
);
export type CorpusRequest = Static<typeof CorpusRequest>;

const CorpusLinks = Type.Object({ self: Type.String() });

export const CorpusCreated = Type.Object({
  id: Uuid,
  status: Type.Literal('queued'),
  links: CorpusLinks,
});
export type CorpusCreated = Static<typeof CorpusCreated>;

const CorpusStatusName = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('completed'),
  Type.Literal('failed'),
]);

export const CorpusProgress = Type.Object(
  {
    documentsDone: Type.Integer({ description: 'documents read so far, skipped ones included' }),
    documentsTotal: Nullable(Type.Integer(), { description: 'null until known' }),
    skipped: Type.Integer({ description: 'documents that could not be read (not in the corpus)' }),
    skippedDocuments: Type.Array(Type.Object({ url: Type.String(), error: Type.String() }), {
      description: 'the first skipped documents and why',
    }),
  },
  { description: 'written by the build at most once a second, and when it ends' },
);
export type CorpusProgress = Static<typeof CorpusProgress>;

export const CorpusStatus = Type.Object({
  id: Uuid,
  owner: Owner,
  name: Type.String(),
  status: CorpusStatusName,
  documentCount: Type.Integer({ description: 'N: documents in the corpus (0 until completed)' }),
  termCount: Type.Integer({ description: 'distinct terms stored (0 until completed)' }),
  progress: CorpusProgress,
  textSettings: Nullable(
    Type.Object({
      tokenizer: Type.String(),
      stopWords: Type.Union([Type.String(), Type.Array(Type.String())]),
      stem: Type.Boolean(),
    }),
    {
      description:
        'how its words were made; null: built before the reference tokenizer (rebuild it to score with it)',
    },
  ),
  topTerms: Type.Array(Type.Object({ term: Type.String(), documentFrequency: Type.Integer() }), {
    description: `the ${TOP_TERMS} terms in most documents, ties by code point`,
  }),
  createdAt: Type.String({ format: 'date-time' }),
  finishedAt: IsoDate,
  error: Nullable(Type.String()),
  links: CorpusLinks,
});
export type CorpusStatus = Static<typeof CorpusStatus>;

export const CorpusListQuery = OwnedListQuery;

/** A corpus as GET /v1/corpora lists it: its state and size (progress and top terms on its own document). */
export const CorpusListItem = Type.Object({
  id: Uuid,
  owner: Owner,
  name: Type.String(),
  status: CorpusStatusName,
  documentCount: Type.Integer(),
  termCount: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  finishedAt: IsoDate,
  links: CorpusLinks,
});
export type CorpusListItem = Static<typeof CorpusListItem>;

export const CorpusList = ListPage(CorpusListItem);
export type CorpusList = Static<typeof CorpusList>;
