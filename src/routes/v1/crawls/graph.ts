// /v1/crawls/:id/graph (the link graph as an edges file, JSON or GEXF) and /v1/crawls/:id/rank (that graph
// ranked and stored as a ranking).
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import {
  GraphExportQuery,
  LinkGraph,
  Ranking,
  RankingJob,
  RankingOptions,
} from '../../../schemas/rankings.js';
import { sendCreated } from '../../created.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/graph',
    {
      schema: {
        tags: ['crawls'],
        summary: "The crawl's link graph",
        description:
          'format=edges: the edges file (first line the vertex count, then one "from to" URL pair per line); format=json: vertices (with clustering coefficient and weak and strong component ids) and edges by page id; format=gexf: GEXF 1.3 for Gephi, with pageRank (default options), inDegree, outDegree, clustering, weakComponent and strongComponent as node attributes.',
        params: IdParams,
        querystring: GraphExportQuery,
        response: {
          200: {
            content: {
              'text/plain': { schema: Type.String() },
              'application/gexf+xml': { schema: Type.String() },
              'application/json': { schema: LinkGraph },
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
                await app.runtime.rankings.crawlGraphJson(request.params.id, scope),
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
};

export default routes;
