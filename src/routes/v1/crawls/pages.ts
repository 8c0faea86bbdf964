// /v1/crawls/:id/pages (the crawl's pages, one page with its links, a rendered page's screenshot) and
// /v1/crawls/:id/hosts (the per-host view).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import {
  HostList,
  HostListQuery,
  PageDetail,
  PageDetailQuery,
  PageList,
  PageListQuery,
  PageParams,
} from '../../../schemas/crawls.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/pages',
    {
      schema: {
        tags: ['crawls'],
        summary: 'Pages of a crawl, cursor-paginated',
        params: IdParams,
        querystring: PageListQuery,
        response: { 200: PageList, ...problemResponses(400, 404) },
      },
    },
    async (request) => app.runtime.crawls.pages(request.params.id, request.query, requestScope(request)),
  );

  app.get(
    '/:id/pages/:pageId',
    {
      schema: {
        tags: ['crawls'],
        summary:
          'One page: metadata, outgoing links, images; ?include=html adds its stored body, ?include=text its main text',
        params: PageParams,
        querystring: PageDetailQuery,
        response: { 200: PageDetail, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      app.runtime.crawls.page(
        request.params.id,
        request.params.pageId,
        request.query.include,
        requestScope(request),
      ),
  );

  app.get(
    '/:id/pages/:pageId/screenshot',
    {
      schema: {
        tags: ['crawls'],
        summary: 'The PNG of a rendered page (render.screenshot: true), at most 1280×2000',
        params: PageParams,
        response: {
          200: {
            description: 'the page as Chromium rendered it',
            content: { 'image/png': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
          },
          ...problemResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const png = await app.runtime.crawls.screenshot(
        request.params.id,
        request.params.pageId,
        requestScope(request),
      );
      return reply
        .type('image/png')
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(png);
    },
  );

  app.get(
    '/:id/hosts',
    {
      schema: {
        tags: ['crawls'],
        summary: 'Per-host view: pages by type, requests, load times and robots.txt of each host',
        params: IdParams,
        querystring: HostListQuery,
        response: { 200: HostList, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      app.runtime.crawls.hosts(request.params.id, request.query.limit, requestScope(request)),
  );
};

export default routes;
