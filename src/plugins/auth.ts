// Bearer API keys (`authorization: Bearer <key>`) and the tenant of each request. With no key holding it
// closed (none issued, or all released by `trawl keys open`) and REQUIRE_API_KEY unset the service runs open
// (tenant null: the tenant OPEN_TENANT) and says so at start; once a key exists, or with REQUIRE_API_KEY=true,
// /v1 needs one. Keys are looked up on every request, so a revocation or `trawl keys open` holds at once.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { adminScope, type TenantScope, tenantScope } from '../db/tenant-scope.js';
import { TrawlError } from '../errors.js';
import type { Principal } from '../services/use-cases/keys.js';

/** Who may call a route: anyone, any valid key (or anyone while open), or an admin key only. */
export type Access = 'open' | 'key' | 'admin';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key id that owns what this request makes and sees; null when the service runs open. */
    tenant: string | null;
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Overrides the access a route's path implies (see accessOf). */
    auth?: Access;
    /** A page a browser opens itself: a link signed by KeyService.signLink (`?token=`) stands for the key. */
    signedLinks?: boolean;
  }
}

const OPEN_PATHS = ['/healthz', '/readyz', '/docs'];

/** The access a path needs when its route does not say: probes and docs are open, /admin is for admins. */
export function accessOf(path: string, options: { metricsRequireKey: boolean }): Access {
  if (OPEN_PATHS.some((open) => path === open || path.startsWith(`${open}/`))) return 'open';
  if (path === '/metrics') return options.metricsRequireKey ? 'key' : 'open';
  if (path === '/admin' || path.startsWith('/admin/')) return 'admin';
  return 'key';
}

/** Whose rows a request sees: an admin key every tenant's, any other key its own, open mode the open tenant's. */
export function requestScope(request: FastifyRequest): TenantScope {
  return request.principal?.admin ? adminScope(request.principal.keyId) : tenantScope(request.tenant);
}

/** The key of an `authorization: Bearer <key>` header; undefined without one, null for another scheme. */
export function bearerKey(header: string | undefined): string | null | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  return match ? match[1]! : null;
}

function unauthorized(reply: FastifyReply, message: string): TrawlError {
  // RFC 6750 §3: a 401 names the scheme it wants
  reply.header('www-authenticate', 'Bearer realm="trawl"');
  return new TrawlError('unauthorized', message);
}

export default fp(
  async (app: FastifyInstance) => {
    const { config, keys } = app.runtime;
    app.decorateRequest('tenant', null);
    app.decorateRequest('principal', null);

    if (!config.requireApiKey && !(await keys.closedByKeys())) {
      app.log.warn(
        '!!! trawl is running OPEN: no API key exists and REQUIRE_API_KEY is not set, so anyone who can reach ' +
          'this port can start crawls. Create a key with `npm run keys -- create --name admin --admin` ' +
          '(from then on every /v1 request needs one) or set REQUIRE_API_KEY=true. !!!',
      );
    } else if (config.requireApiKey && !(await keys.closedByKeys())) {
      app.log.warn(
        'REQUIRE_API_KEY=true but no API key exists: every /v1 request is refused until one is created with `npm run keys -- create`',
      );
    }

    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const access =
        request.routeOptions.config?.auth ??
        accessOf(request.url.split('?')[0]!, { metricsRequireKey: config.metricsRequireKey });
      if (access === 'open') return;
      const key = bearerKey(request.headers.authorization);
      const token = (request.query as { token?: unknown } | undefined)?.token;
      if (key === undefined && request.routeOptions.config?.signedLinks && typeof token === 'string') {
        const signed = await keys.verifyLink(request.url.split('?')[0]!, token);
        if (!signed)
          throw unauthorized(reply, 'the signed link is invalid or has expired: ask for a new one');
        if (access === 'admin' && !signed.admin) {
          throw new TrawlError('forbidden', 'this endpoint needs an admin API key');
        }
        request.principal = signed;
        request.tenant = signed.keyId;
        return;
      }
      if (key === null) throw unauthorized(reply, 'the authorization header must be "Bearer <API key>"');
      if (key === undefined) {
        if (access === 'key' && !config.requireApiKey && !(await keys.closedByKeys())) return; // open mode
        throw unauthorized(reply, 'an API key is required: send "authorization: Bearer <key>"');
      }
      const principal = await keys.authenticate(key);
      if (!principal) throw unauthorized(reply, 'the API key is unknown or revoked');
      if (access === 'admin' && !principal.admin) {
        throw new TrawlError('forbidden', 'this endpoint needs an admin API key');
      }
      request.principal = principal;
      request.tenant = principal.keyId;
    });
  },
  { name: 'auth' },
);
