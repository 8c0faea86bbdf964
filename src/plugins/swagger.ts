// OpenAPI from the route schemas (TypeBox → JSON Schema → @fastify/swagger); the UI lives at /docs.
// openapi/openapi.json is written from this by `npm run openapi`, and a test fails when it is stale.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Problem, problemResponses } from '../schemas/common.js';
import { type Access, accessOf } from './auth.js';
import { IDEMPOTENT_ROUTES } from './idempotency.js';

interface RouteSchema {
  response?: Record<string, unknown>;
  operationId?: string;
  [key: string]: unknown;
}

/**
 * The Content-Security-Policy of /docs and its assets: Swagger UI's page loads its scripts and styles from this
 * app (no inline script), reads the spec and sends "Try it out" requests to this origin, and shows SVG icons
 * as data: URLs; nothing else, and no framing. The one inline style allowed, by its hash, is the <style> of the
 * Swagger logo's SVG in the top bar; a Swagger UI whose logo changes fails test/browser/docs.test.ts.
 */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='; " +
  "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; " +
  "frame-ancestors 'none'";

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `GET /v1/crawls/:id/stats/words.svg` → `getCrawlsByIdStatsWordsSvg`: stable, unique per route. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((segment) => segment && segment !== 'v1')
    .flatMap((segment) => {
      const param = /^(?::(.+)|\{(.+)\})$/.exec(segment);
      if (param) return ['by', (param[1] ?? param[2])!];
      return segment.split(/[^A-Za-z0-9]+/).filter(Boolean);
    });
  return method.toLowerCase() + words.map(capitalize).join('');
}

/**
 * The spec says what the server does: paths as the docs write them (no trailing slash), open routes without
 * security, a key-guarded route's 401 (and 403 for admin routes) and rate limit's 429 declared on it, and an
 * operationId on each operation. Access comes from plugins/auth.ts's accessOf, the function the server uses.
 */
function describeRoute({
  schema,
  url,
  route,
}: {
  schema: RouteSchema | undefined;
  url: string;
  route: { method: string | string[]; config?: { auth?: Access } };
}) {
  const path = url.length > 1 ? url.replace(/\/+$/, '') : url;
  if (!schema) return { url: path };
  const alwaysOpen = accessOf(path, { metricsRequireKey: true }) === 'open';
  const openByDefault = accessOf(path, { metricsRequireKey: false }) === 'open';
  const access = route.config?.auth ?? (alwaysOpen ? 'open' : 'key');
  let security: Array<Record<string, string[]>> | undefined; // undefined: the document's (an API key)
  let statuses: number[];
  if (access === 'open') {
    security = [];
    statuses = [];
  } else if (openByDefault && !route.config?.auth) {
    // /metrics: open unless METRICS_REQUIRE_KEY=true
    security = [{}, { apiKey: [] }];
    statuses = [401, 429];
  } else {
    // 503: PostgreSQL or the queue is unreachable (Retry-After says when to try again)
    statuses = access === 'admin' ? [401, 403, 429, 503] : [401, 429, 503];
  }
  const method = [route.method].flat()[0] ?? 'get';
  const idempotent = method.toUpperCase() === 'POST' && IDEMPOTENT_ROUTES.has(path);
  if (idempotent) statuses.push(409, 422);
  return {
    url: path,
    schema: {
      ...schema,
      ...(idempotent ? { headers: idempotencyHeaders(schema.headers) } : {}),
      operationId: schema.operationId ?? operationIdOf(method, path),
      ...(security ? { security } : {}),
      response: { ...problemResponses(...statuses), ...(schema.response ?? {}) },
    },
  };
}

/** The Idempotency-Key request header of the POSTs that create jobs (plugins/idempotency.ts), for the spec. */
function idempotencyHeaders(existing: unknown) {
  const base = (existing ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
  return {
    ...base,
    type: 'object',
    properties: {
      ...(base.properties ?? {}),
      'idempotency-key': {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        pattern: '^[\\x21-\\x7e]+$',
        description:
          'Retry-safe creation: the same key (per API key, or per client IP when open) with the same request ' +
          'within 24 h answers the first answer again (header `idempotent-replayed: true`) and creates nothing; ' +
          'with a different request it is a 422, while the first is still running a 409.',
      },
    },
  };
}

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
          { name: 'usage', description: 'what tenants fetched and store' },
          { name: 'schedules', description: 'crawls run on time, each a recrawl of the last one' },
        ],
        // relative: the spec describes whichever host serves it
        servers: [{ url: '/' }],
        // Every route but /healthz, /readyz and /docs takes an API key once one exists (docs/operations.md "Authentication").
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
      transform: describeRoute as never,
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    });
    await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP });
  },
  { name: 'swagger' },
);
