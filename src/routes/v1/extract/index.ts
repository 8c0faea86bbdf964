// /v1/extract: the main content of one page, from HTML in the request or fetched by URL. Handlers call the service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { largeJsonBodies } from '../../../plugins/large-json-body.js';
import { problemResponses } from '../../../schemas/common.js';
import { ExtractRequest, ExtractResult } from '../../../schemas/extract.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  // bodies over 64 KiB are parsed and validated on the CPU pool, off the event loop
  const validatorCompiler = largeJsonBodies(app, 'extract');
  app.post(
    '/',
    {
      validatorCompiler,
      schema: {
        tags: ['extract'],
        summary: 'Extract the main content of a page',
        description:
          'Text-density extraction (docs/reference.md#text-density) of {url} (fetched as the crawl fetches, robots.txt obeyed) or {html, baseUrl?}. A page without main content gives empty text; a page that cannot be fetched is a 422 naming url. A large page is extracted on a worker thread with a deadline (CPU_TASK_TIMEOUT_MS): past it, a 422 on html or url (the page costs too much to process) or, when every thread stayed busy, a 503.',
        body: ExtractRequest,
        response: { 200: ExtractResult, ...problemResponses(400, 413, 415, 422, 503) },
      },
    },
    // The body comes serialized as an ExtractResult from the CPU pool (services/pools/cpu-tasks.ts): sent as
    // it is.
    async (request, reply) => {
      const body = await app.runtime.extraction.extract(request.body);
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
};

export default routes;
