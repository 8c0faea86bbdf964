// /v1/rankings: rank an uploaded graph (JSON edges, or a text/plain edges file streamed into the parser),
// read the ranking back, look up or page through its vertices. Handlers call the service.

import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { InputError } from '../../../errors.js';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import {
  EdgesFileBody,
  RankedVertex,
  Ranking,
  RankingJob,
  RankingList,
  RankingListQuery,
  RankingOptions,
  RankingOrJob,
  type RankingRequest,
  RankingRequest as RankingRequestSchema,
  VertexPage,
  VerticesQuery,
} from '../../../schemas/rankings.js';
import { sendCreated } from '../../created.js';

function isStream(body: unknown): body is AsyncIterable<Buffer> {
  return typeof (body as AsyncIterable<Buffer> | null)?.[Symbol.asyncIterator] === 'function';
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  // The edges file reaches the handler as the raw request stream: parseEdgesStream reads it line by line and
  // the service counts its bytes, so a big upload is never buffered whole (Fastify's own text/plain parser would).
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', (_request, payload, done) => done(null, payload));

  app.post(
    '/',
    {
      schema: {
        tags: ['rankings'],
        summary: 'Rank an uploaded graph',
        description:
          'PageRank by power iteration (dangling vertices spread their rank uniformly), in/out degrees, top-k lists and their Jaccard overlaps. Send JSON edges, or the edges file as text/plain with the options in the query string. A small graph is ranked at once and stored (201); an edges file over the job threshold (RANK_JOB_UPLOAD_BYTES) is stored and ranked by a job (202 queued: poll the location until completed or failed).',
        querystring: RankingOptions,
        body: {
          content: {
            'application/json': { schema: RankingRequestSchema },
            'text/plain': { schema: EdgesFileBody },
          },
        },
        response: { 201: Ranking, 202: RankingJob, ...problemResponses(400, 413, 415) },
      },
    },
    async (request, reply) => {
      const body: unknown = request.body;
      let ranking: Awaited<ReturnType<typeof app.runtime.rankings.get>>;
      // completed at once → 201; stored for the rank job → 202 queued
      if (isStream(body)) {
        ranking = await app.runtime.rankings.fromEdgesFile(body, request.query, requestScope(request));
      } else if (body && typeof body === 'object') {
        ranking = await app.runtime.rankings.fromEdges(
          { ...request.query, ...(body as RankingRequest) },
          requestScope(request),
        );
      } else {
        throw new InputError('send JSON {"edges": [[from, to], …]} or a text/plain edges file', 'body');
      }
      return sendCreated(reply, ranking, {
        location: ranking.links.self,
        queued: ranking.status !== 'completed',
      });
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags: ['rankings'],
        summary: 'List rankings, newest first',
        querystring: RankingListQuery,
        response: { 200: RankingList, ...problemResponses(400) },
      },
    },
    async (request) => app.runtime.rankings.list(request.query, requestScope(request)),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['rankings'],
        summary: 'A ranking: iterations, counts, top lists and Jaccard overlaps (or its job state)',
        params: IdParams,
        response: { 200: RankingOrJob, ...problemResponses(400, 404) },
      },
    },
    async (request) => app.runtime.rankings.get(request.params.id, requestScope(request)),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['rankings'],
        summary: 'Delete a ranking',
        description:
          'The ranking is 404 from then on; a job deletes its vertices in batches. A ranking still queued or running: 409.',
        params: IdParams,
        response: {
          204: Type.Null({ description: 'deleted' }),
          ...problemResponses(400, 404, 409),
        },
      },
    },
    async (request, reply) => {
      await app.runtime.purges.deleteRanking(request.params.id, requestScope(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/:id/vertices',
    {
      schema: {
        tags: ['rankings'],
        summary: 'One vertex by name, or all vertices sorted and cursor-paginated',
        description:
          'With ?name= the PageRank and degrees of that vertex (404 if the graph has no such vertex); otherwise a page of vertices largest first by ?sort, ties by name. 409 while the ranking is not completed.',
        params: IdParams,
        querystring: VerticesQuery,
        response: {
          200: {
            description: 'one vertex (with ?name=) or a page of vertices',
            content: {
              'application/json': { schema: { anyOf: [RankedVertex, VertexPage] } },
            },
          },
          ...problemResponses(400, 404, 409),
        },
      },
    },
    async (request) => {
      const { name, ...page } = request.query;
      if (name === undefined)
        return app.runtime.rankings.vertices(request.params.id, page, requestScope(request));
      // sort and limit are filled from their defaults by now: whether they were given is in the URL
      const given = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1));
      if (given.has('sort') || given.has('limit') || page.cursor) {
        throw new InputError(
          'name looks up one vertex; it cannot be combined with sort, limit or cursor',
          'name',
        );
      }
      return app.runtime.rankings.vertex(request.params.id, name, requestScope(request));
    },
  );
};

export default routes;
