// /v1/score: relevance of documents to a keyword query or a similarity set, without crawling. Handlers call
// the service.

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requestScope } from '../../../plugins/auth.js';
import { largeJsonBodies } from '../../../plugins/large-json-body.js';
import { problemResponses } from '../../../schemas/common.js';
import { ScoreRequest, ScoreResult } from '../../../schemas/score.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  // bodies over 64 KiB are parsed and validated on the CPU pool, off the event loop
  const validatorCompiler = largeJsonBodies(app, 'score');
  app.post(
    '/',
    {
      validatorCompiler,
      schema: {
        tags: ['score'],
        summary: 'Score documents against a keyword query or a similarity set',
        description:
          "query: the keyword scorer (docs/reference.md#keyword-query); a malformed query is a 400 with its position. similarTo: TF-IDF cosine (#tfidf) over a corpus of this request's documents. Scores equal those the crawl gives the same pages; a document that cannot be fetched is a 422 naming its field. Large documents are parsed and scored on a worker thread with a deadline (CPU_TASK_TIMEOUT_MS): past it, a 422 on documents (the input costs too much to process) or, when every thread stayed busy, a 503.",
        body: ScoreRequest,
        response: { 200: ScoreResult, ...problemResponses(400, 413, 415, 422, 503) },
      },
    },
    async (request) => app.runtime.scoring.score(request.body, requestScope(request)),
  );
};

export default routes;
