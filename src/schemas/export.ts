// GET /v1/crawls/:id/export: a crawl's pages streamed as JSON lines, CSV or WARC
// (services/use-cases/crawl-export.ts).
import { Type } from 'typebox';
import { CHANGE_CLASSES, PAGE_TYPES } from '../crawler/vocabulary.js';
import { commaListPattern, type IncludePart } from './common.js';

/** The export's vocabulary: formats, the parts a JSON line may include, the page record's fields. */
export const EXPORT_FORMATS = ['jsonl', 'csv', 'warc'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_INCLUDES = [
  'links',
  'images',
  'html',
  'text',
  'markdown',
] as const satisfies readonly IncludePart[];
export type ExportInclude = (typeof EXPORT_INCLUDES)[number];

/** The page record's fields, in the order CSV columns take by default. */
export const EXPORT_FIELDS = [
  'id',
  'url',
  'canonicalUrl',
  'finalUrl',
  'type',
  'status',
  'contentType',
  'bytes',
  'depth',
  'sha256',
  'loadMs',
  'queueWaitMs',
  'queuedAt',
  'fetchedAt',
  'duplicateOf',
  'discoveredFrom',
  'title',
  'error',
  'score',
  'result',
  'priority',
  'rendered',
  'renderReason',
  'fetchMs',
  'renderMs',
  'renderNote',
  'navigatedFrom',
  'screenshot',
  'previousPage',
  'bodyOf',
  'change',
  'textChanged',
  'similarity',
  'simhash',
  'nearDuplicateOf',
] as const;
export type ExportField = (typeof EXPORT_FIELDS)[number];

export const ExportQuery = Type.Object(
  {
    format: Type.Optional(
      Type.String({
        enum: [...EXPORT_FORMATS],
        description:
          'jsonl (one page record a line), csv (RFC 4180, a header row) or warc (WARC 1.1, gzip per record: request and response records of every fetched page, revisits for copies); without it, Accept: text/csv gives csv, Accept: application/warc warc, anything else jsonl',
      }),
    ),
    fields: Type.Optional(
      Type.String({
        pattern: commaListPattern(EXPORT_FIELDS),
        description: `comma list of the page record's fields to keep, in order (default all: ${EXPORT_FIELDS.join(', ')})`,
      }),
    ),
    include: Type.Optional(
      Type.String({
        pattern: commaListPattern(EXPORT_INCLUDES),
        description:
          'jsonl only, comma list: links (outgoing, with anchors), images, html (the stored body), text (the main text, once the crawl-text job stored it; null before), markdown (the main content as Markdown, as GET …/pages/:pageId?include=markdown; null without a stored HTML body). A body past EXPORT_BODY_MAX_BYTES is cut there; a record with html, text or markdown ends with truncated (true when one was cut)',
      }),
    ),
    type: Type.Optional(Type.String({ enum: [...PAGE_TYPES] })),
    status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599 })),
    host: Type.Optional(Type.String({ minLength: 1, maxLength: 260, description: 'host or host:port' })),
    minScore: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: 'pages scored at least this' }),
    ),
    change: Type.Optional(
      Type.String({ enum: [...CHANGE_CLASSES], description: "a recrawl's pages of one change class" }),
    ),
  },
  { additionalProperties: false },
);
