// /v1/crawls/:id/stats/…: word statistics of the crawl's main text (JSON and a Zipf plot) and the load-time
// plot, all SVG plots drawn by the service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import { SvgResponse, WordPlotQuery, WordStats, WordStatsQuery } from '../../../schemas/stats.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
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
