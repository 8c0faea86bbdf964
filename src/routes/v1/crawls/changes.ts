// A recrawl's changes beyond each page's class: a page's main-text diff against its earlier version, and the
// earlier pages it never reached (docs/guide.md#recrawls-what-changed).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import { MissingPageList, MissingPagesQuery, PageDiff, PageParams } from '../../../schemas/crawls.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/pages/:pageId/diff',
    {
      schema: {
        tags: ['crawls'],
        summary:
          "A recrawled page's main text against its earlier version: unified diff and words added, removed",
        params: PageParams,
        response: { 200: PageDiff, ...problemResponses(400, 404, 409, 422) },
      },
    },
    async (request) =>
      app.runtime.crawls.diff(request.params.id, request.params.pageId, requestScope(request)),
  );

  app.get(
    '/:id/changes/missing',
    {
      schema: {
        tags: ['crawls'],
        summary: "The earlier crawl's pages a recrawl never reached, cursor-paginated",
        params: IdParams,
        querystring: MissingPagesQuery,
        response: { 200: MissingPageList, ...problemResponses(400, 404) },
      },
    },
    async (request) => app.runtime.crawls.missing(request.params.id, request.query, requestScope(request)),
  );
};

export default routes;
