// /v1/crawls/:id/export: the crawl's pages in one streamed response, JSON lines, CSV or WARC.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { InputError } from '../../../errors.js';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import {
  EXPORT_FIELDS,
  type ExportField,
  type ExportFormat,
  type ExportInclude,
  ExportQuery,
} from '../../../schemas/export.js';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
  warc: 'application/warc',
};
const FILE_EXTENSIONS: Record<ExportFormat, string> = { jsonl: 'jsonl', csv: 'csv', warc: 'warc.gz' };

/** The format an Accept header asks for, when `format` is absent: csv or warc by media type, else jsonl. */
function acceptedFormat(accept: string): ExportFormat {
  if (/\bapplication\/warc\b/.test(accept)) return 'warc';
  if (/\btext\/csv\b/.test(accept)) return 'csv';
  return 'jsonl';
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/export',
    {
      schema: {
        tags: ['crawls'],
        summary: "The crawl's pages in one streamed response: JSON lines, CSV or WARC",
        description:
          "Every page stored so far (a running or cancelled crawl too), filtered as /pages is, in discovery order, streamed in batches: memory stays flat whatever the size. jsonl: one page record a line (`fields` picks them), with `include` its links, images, stored body or main text; csv: the record's fields as RFC 4180 columns with a header row (cells a spreadsheet would run as a formula are prefixed with '). At most EXPORT_CONCURRENCY exports run at once per process; beyond, a 503 with Retry-After. warc: a WARC 1.1 file (.warc.gz, gzip per record): a warcinfo record, then for each fetched page a request and a response record (status line, headers, body as stored; bodies are stored decoded, so Content-Encoding/Content-Length are rewritten, the originals kept as X-Archive-Orig-*, and WARC-Truncated marks a body cut or not kept), a revisit record for a page whose body repeats an earlier page's; record ids derive from crawl, page and kind. A crawl that kept no responses (store.html and store.warc false) is a 409 (docs/reference.md#warc).",
        params: IdParams,
        querystring: ExportQuery,
        response: {
          200: {
            description: 'the export',
            content: {
              'application/x-ndjson': { schema: Type.String() },
              'text/csv': { schema: Type.String() },
              'application/warc': { schema: Type.String({ format: 'binary' }) },
            },
          },
          ...problemResponses(400, 404, 409, 503),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const format: ExportFormat =
        (query.format as ExportFormat | undefined) ?? acceptedFormat(request.headers.accept ?? '');
      const include = (query.include?.split(',') ?? []) as ExportInclude[];
      if (format === 'csv' && include.length > 0) {
        throw new InputError('include goes with jsonl: a CSV row holds the page record only', 'include');
      }
      if (format === 'warc' && (include.length > 0 || query.fields !== undefined)) {
        throw new InputError(
          'fields and include go with jsonl and csv: a WARC holds the HTTP exchanges as they are',
          include.length > 0 ? 'include' : 'fields',
        );
      }
      const fields = (query.fields?.split(',') as ExportField[] | undefined) ?? [...EXPORT_FIELDS];
      const lines = await app.runtime.exports.open(
        request.params.id,
        {
          format,
          fields,
          include,
          type: query.type ?? null,
          status: query.status ?? null,
          host: query.host?.toLowerCase() ?? null,
          minScore: query.minScore ?? null,
          change: query.change ?? null,
        },
        requestScope(request),
      );
      return reply
        .type(CONTENT_TYPES[format])
        .header(
          'content-disposition',
          `attachment; filename="crawl-${request.params.id}.${FILE_EXTENSIONS[format]}"`,
        )
        .send(Readable.from(lines) as never);
    },
  );
};

export default routes;
