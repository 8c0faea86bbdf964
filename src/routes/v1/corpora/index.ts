// /v1/corpora: build a stored TF-IDF corpus (a BullMQ job), watch it, list corpora, delete one. Handlers call the
// service.

import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import {
  CorpusCreated,
  CorpusList,
  CorpusListQuery,
  CorpusRequest,
  CorpusStatus,
} from '../../../schemas/corpora.js';
import { sendCreated } from '../../created.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/',
    {
      schema: {
        tags: ['corpora'],
        summary: 'Build a corpus',
        description:
          'Queues the build of a TF-IDF corpus (document count and document frequencies, docs/reference.md#tfidf) from a URL list (robots.txt obeyed; a URL that cannot be fetched is skipped and counted), a finished crawl (its HTML pages with stored bodies) or uploaded documents; answers at once with its id. Use it by id in POST /v1/score (corpus).',
        body: CorpusRequest,
        response: { 202: CorpusCreated, ...problemResponses(400, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const created = await app.runtime.corpora.create(request.body, requestScope(request));
      return sendCreated(reply, created, { location: created.links.self, queued: true });
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags: ['corpora'],
        summary: 'List corpora, newest first',
        querystring: CorpusListQuery,
        response: { 200: CorpusList, ...problemResponses(400) },
      },
    },
    async (request) => app.runtime.corpora.list(request.query, requestScope(request)),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['corpora'],
        summary: 'Status, size, progress and top terms of a corpus',
        params: IdParams,
        response: { 200: CorpusStatus, ...problemResponses(400, 404) },
      },
    },
    async (request) => app.runtime.corpora.status(request.params.id, requestScope(request)),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['corpora'],
        summary: 'Delete a corpus',
        description:
          'The corpus is 404 from then on; a job deletes its terms in batches. A corpus still being built, or one a queued or running crawl scores with (named in the problem as crawlId): 409.',
        params: IdParams,
        response: {
          204: Type.Null({ description: 'deleted' }),
          ...problemResponses(400, 404, 409),
        },
      },
    },
    async (request, reply) => {
      await app.runtime.purges.deleteCorpus(request.params.id, requestScope(request));
      return reply.code(204).send(null);
    },
  );
};

export default routes;
