// GET /metrics: this process's Prometheus metrics in the text exposition format. Open like /healthz unless
// METRICS_REQUIRE_KEY=true (then any valid API key; see plugins/auth.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { problemResponses } from '../schemas/common.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description:
          'Text exposition format 0.0.4: HTTP request durations by route, pages fetched by type and status, fetch latency, bytes, robots.txt fetches and denials, frontier size, queue depth per queue and state, active workers, webhook deliveries by outcome.',
        response: {
          200: { content: { 'text/plain; version=0.0.4': { schema: Type.String() } } },
          ...problemResponses(401),
        },
      },
    },
    async (_request, reply) => {
      const { contentType, body } = await app.runtime.metrics.exposition();
      return reply.type(contentType).send(body);
    },
  );
};

export default routes;
