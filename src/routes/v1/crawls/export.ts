// /v1/crawls/:id/export: the crawl's pages in one streamed response, JSON lines or CSV.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { tenantScope } from '../../../db/tenant-scope.js';
import { InputError } from '../../../errors.js';
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
};

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/export',
    {
      schema: {
        tags: ['crawls'],
        summary: "The crawl's pages in one streamed response: JSON lines or CSV",
        description:
          "Every page stored so far (a running or cancelled crawl too), filtered as /pages is, in discovery order, streamed in batches: memory stays flat whatever the size. jsonl: one page record a line (`fields` picks them), with `include` its links, images, stored body or main text; csv: the record's fields as RFC 4180 columns with a header row (cells a spreadsheet would run as a formula are prefixed with '). At most EXPORT_CONCURRENCY exports run at once per process; beyond, a 503 with Retry-After. WARC is not offered yet.",
        params: IdParams,
        querystring: ExportQuery,
        response: {
          200: {
            description: 'the export',
            content: {
              'application/x-ndjson': { schema: Type.String() },
              'text/csv': { schema: Type.String() },
            },
          },
          ...problemResponses(400, 404, 503),
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const format: ExportFormat =
        (query.format as ExportFormat | undefined) ??
        (/\btext\/csv\b/.test(request.headers.accept ?? '') ? 'csv' : 'jsonl');
      const include = (query.include?.split(',') ?? []) as ExportInclude[];
      if (format === 'csv' && include.length > 0) {
        throw new InputError('include goes with jsonl: a CSV row holds the page record only', 'include');
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
        },
        tenantScope(request.tenant),
      );
      return reply
        .type(CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="crawl-${request.params.id}.${format}"`)
        .send(Readable.from(lines) as never);
    },
  );
};

export default routes;
