// /v1/crawls: start a crawl, list crawls, read its status, cancel it; its pages, link graph, statistics,
// export, live progress and report are the sibling plugins registered here. Handlers call the service.
// Registration order is the order of the routes in openapi/openapi.json.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import {
  CrawlCreated,
  CrawlDeleteQuery,
  CrawlList,
  CrawlListQuery,
  CrawlRequest,
  CrawlStatus,
} from '../../../schemas/crawls.js';
import { sendCreated } from '../../created.js';
import changes from './changes.js';
import exportRoute from './export.js';
import graph from './graph.js';
import live from './live.js';
import pages from './pages.js';
import report from './report.js';
import stats from './stats.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  // live progress (server-sent events) and the webhook delivery log
  await app.register(live);
  // the crawl report: JSON tables and the self-contained HTML page
  await app.register(report);
  // the whole crawl in one streamed response
  await app.register(exportRoute);
  app.post(
    '/',
    {
      schema: {
        tags: ['crawls'],
        summary: 'Start a crawl',
        description: 'Queues a breadth-first crawl from the seeds; answers at once with its id and links.',
        body: CrawlRequest,
        response: { 202: CrawlCreated, ...problemResponses(400, 404, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const created = await app.runtime.crawls.create(request.body, requestScope(request));
      return sendCreated(reply, created, { location: created._links.self, queued: true });
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags: ['crawls'],
        summary: 'List crawls, newest first',
        querystring: CrawlListQuery,
        response: { 200: CrawlList, ...problemResponses(400) },
      },
    },
    async (request) => app.runtime.crawls.list(request.query, requestScope(request)),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['crawls'],
        summary: 'Status, counters and timing of a crawl',
        params: IdParams,
        response: { 200: CrawlStatus, ...problemResponses(400, 404) },
      },
    },
    async (request) => app.runtime.crawls.status(request.params.id, requestScope(request)),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['crawls'],
        summary: 'Cancel a crawl, or purge it',
        description:
          'Cancel (200): stops fetching within a second or two; everything fetched so far stays readable, and an ended crawl is a 409. Purge (`?purge=true`, 202): any crawl of yours, cancelled first if it runs; its status says `purging` while a job removes everything it stored in batches (its webhook hears `purged` last), then the crawl is 404.',
        params: IdParams,
        querystring: CrawlDeleteQuery,
        response: { 200: CrawlStatus, 202: CrawlStatus, ...problemResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const scope = requestScope(request);
      if (!request.query.purge) return app.runtime.crawls.cancel(request.params.id, scope);
      const status = await app.runtime.purges.purgeCrawl(request.params.id, scope);
      return reply.code(202).send(status);
    },
  );

  // its pages, one page, a screenshot, and the per-host view
  await app.register(pages);
  // a recrawl's page diffs and the earlier pages it never reached
  await app.register(changes);
  // the link graph and its ranking
  await app.register(graph);
  // word statistics and plots
  await app.register(stats);
};

export default routes;
