// OpenAPI from the route schemas (TypeBox → JSON Schema → @fastify/swagger); the UI lives at /docs.
// openapi/openapi.json is written from this by `npm run openapi`, and a test fails when it is stale.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Problem } from '../schemas/common.js';

export default fp(
  async (app: FastifyInstance) => {
    app.addSchema(Problem);
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'trawl',
          version: '0.1.0',
          description:
            'Crawl the web breadth-first or focused, score what it finds and rank it. Errors are application/problem+json (RFC 9457).',
        },
        tags: [
          { name: 'crawls', description: 'start, watch and read crawls' },
          { name: 'health', description: 'liveness and readiness' },
          { name: 'keys', description: 'API keys (admin key only)' },
        ],
        // Every route but /healthz, /readyz and /docs takes an API key once one exists (README "Authentication").
        components: {
          securitySchemes: {
            apiKey: {
              type: 'http',
              scheme: 'bearer',
              description:
                'An API key from `npm run keys -- create` or POST /v1/keys, as `authorization: Bearer <key>`',
            },
          },
        },
        security: [{ apiKey: [] }],
      },
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'swagger' },
);
