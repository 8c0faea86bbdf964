// HTTP request durations for Prometheus, by route pattern (routeOptions.url, so /v1/crawls/:id is one series
// however many crawls there are) and status code. Unmatched URLs count under route "unmatched".
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export default fp(
  async (app: FastifyInstance) => {
    const { metrics } = app.runtime;
    app.addHook('onResponse', async (request, reply) => {
      metrics.httpRequestDuration.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
    });
  },
  { name: 'metrics' },
);
