// /v1/crawls: start a crawl, watch it, read its pages and link graph, cancel it. Handlers call the service.

import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import {
  CrawlCreated,
  CrawlList,
  CrawlListQuery,
  CrawlRequest,
  CrawlStatus,
  HostList,
  HostListQuery,
  PageDetail,
  PageDetailQuery,
  PageList,
  PageListQuery,
  PageParams,
} from '../../../schemas/crawls.js';
import { GraphExportQuery, Ranking, RankingJob, RankingOptions } from '../../../schemas/rankings.js';
import { SvgResponse, WordPlotQuery, WordStats, WordStatsQuery } from '../../../schemas/stats.js';
import { sendCreated } from '../../created.js';
import exportRoute from './export.js';
import live from './live.js';
import report from './report.js';

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
        summary: 'Cancel a crawl',
        description: 'Stops fetching within a second or two; everything fetched so far stays readable.',
        params: IdParams,
        response: { 200: CrawlStatus, ...problemResponses(400, 404, 409) },
      },
    },
    async (request) => app.runtime.crawls.cancel(request.params.id, requestScope(request)),
  );

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

  app.get(
    '/:id/graph',
    {
      schema: {
        tags: ['crawls'],
        summary: "The crawl's link graph",
        description:
          'format=edges: the edges file (first line the vertex count, then one "from to" URL pair per line); format=json: vertices and edges by page id; format=gexf: GEXF 1.3 for Gephi, with pageRank (default options), inDegree and outDegree as node attributes.',
        params: IdParams,
        querystring: GraphExportQuery,
        response: {
          200: {
            content: {
              'text/plain': { schema: Type.String() },
              'application/gexf+xml': { schema: Type.String() },
              'application/json': {
                schema: Type.Object({
                  vertices: Type.Array(Type.Object({ id: Type.Integer(), url: Type.String() })),
                  edges: Type.Array(Type.Array(Type.Integer(), { minItems: 2, maxItems: 2 })),
                }),
              },
            },
          },
          ...problemResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const scope = requestScope(request);
      const [type, chunks] =
        format === 'gexf'
          ? [
              'application/gexf+xml; charset=utf-8',
              await app.runtime.rankings.crawlGexf(request.params.id, scope),
            ]
          : format === 'json'
            ? [
                'application/json; charset=utf-8',
                await app.runtime.crawls.linkGraphJson(request.params.id, scope),
              ]
            : ['text/plain; charset=utf-8', await app.runtime.crawls.edgesFile(request.params.id, scope)];
      // streamed as it is written; the schema-typed reply does not know Fastify also sends streams
      return reply.type(type).send(Readable.from(chunks) as never);
    },
  );

  app.post(
    '/:id/rank',
    {
      schema: {
        tags: ['crawls', 'rankings'],
        summary: "Rank the crawl's link graph",
        description:
          'PageRank, degrees, top-k lists and Jaccard overlaps of the link graph as it stands (vertices are page URLs); stored as a ranking. A crawl with more links than RANK_JOB_CRAWL_LINKS is ranked by a job (202 queued: poll the location).',
        params: IdParams,
        // a POST without a body ranks with the defaults; a JSON body is validated
        body: { content: { 'application/json': { schema: RankingOptions } } },
        response: { 201: Ranking, 202: RankingJob, ...problemResponses(400, 404, 415) },
      },
    },
    async (request, reply) => {
      const options = (request.body ?? {}) as RankingOptions;
      const ranking = await app.runtime.rankings.fromCrawl(request.params.id, options, requestScope(request));
      return sendCreated(reply, ranking, {
        location: ranking.links.self,
        queued: ranking.status !== 'completed',
      });
    },
  );

  app.get(
    '/:id/stats/words',
    {
      schema: {
        tags: ['crawls'],
        summary: "Word statistics of the crawl's main text",
        description:
          "Total and distinct words, and the top words with rank r, frequency f and Zipf's r·f/N, over the main text of its HTML pages. Counted by a background job: while `complete` is false the job is (re)queued and the answer is what is counted so far (`pagesCounted` of `htmlPages`).",
        params: IdParams,
        querystring: WordStatsQuery,
        response: { 200: WordStats, ...problemResponses(400, 404, 409) },
      },
    },
    async (request) =>
      app.runtime.crawlStats.words(request.params.id, request.query.top, requestScope(request)),
  );

  app.get(
    '/:id/stats/words.svg',
    {
      schema: {
        tags: ['crawls'],
        summary: "Rank–frequency plot of the crawl's words (SVG, log–log, with the ideal Zipf line 0.1·N/r)",
        params: IdParams,
        querystring: WordPlotQuery,
        response: { ...SvgResponse, ...problemResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const svg = await app.runtime.crawlStats.wordsSvg(
        request.params.id,
        request.query.top,
        requestScope(request),
      );
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  );

  app.get(
    '/:id/stats/load-times.svg',
    {
      schema: {
        tags: ['crawls'],
        summary: "Load-time and queue-wait distributions of the crawl's fetched pages (SVG)",
        params: IdParams,
        response: { ...SvgResponse, ...problemResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const svg = await app.runtime.crawlStats.loadTimesSvg(request.params.id, requestScope(request));
      return reply.type('image/svg+xml; charset=utf-8').send(svg);
    },
  );
};

export default routes;
