// The BullMQ board (@bull-board/fastify) at /admin/queues: every queue this runtime uses, on either job
// backend (bull-board 9 reads BullMQ 6's PostgreSQL datastore as well as Redis; its "Redis" panel shows
// PostgreSQL's figures there). Admin key only, like every /admin path (auth.ts accessOf).
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TrawlError } from '../errors.js';
import {
  CORPUS_QUEUE,
  CRAWL_QUEUE,
  CRAWL_TEXT_QUEUE,
  PURGE_QUEUE,
  RANK_QUEUE,
  SCHEDULE_QUEUE,
  WEBHOOK_QUEUE,
} from '../jobs/queues.js';
import { bearerKey } from './auth.js';

export const QUEUE_BOARD_PATH = '/admin/queues';
/** The cookie that carries the admin key for the board's own page, asset and API requests. */
export const ADMIN_KEY_COOKIE = 'trawl_admin_key';
const COOKIE_MAX_AGE_SECS = 12 * 60 * 60;

/** The value of one cookie in a `cookie` request header, if present. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/**
 * bull-board sets its own error handler on its routes, which would turn auth's and rate-limit's 401/403/429
 * into its 500-ish JSON. A handler that throws hands the error to the parent's (problems.ts), so TrawlErrors
 * still leave as problem+json with their headers (www-authenticate, retry-after).
 */
class TrawlFastifyAdapter extends FastifyAdapter {
  override setErrorHandler(handler: Parameters<FastifyAdapter['setErrorHandler']>[0]): this {
    return super.setErrorHandler((error) => {
      if (error instanceof TrawlError) throw error;
      return handler(error);
    });
  }
}

// Not fastify-plugin: its hooks must stay on the board's routes.
export default async function queueBoard(app: FastifyInstance): Promise<void> {
  const { jobs, keys } = app.runtime;
  const serverAdapter = new TrawlFastifyAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: [
      CRAWL_QUEUE,
      CRAWL_TEXT_QUEUE,
      CORPUS_QUEUE,
      RANK_QUEUE,
      SCHEDULE_QUEUE,
      WEBHOOK_QUEUE,
      PURGE_QUEUE,
    ].map((name) => new BullMQAdapter(jobs.queue(name))),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'trawl queues' } },
  });

  // A browser cannot put a bearer header on the board's page, its assets and its XHRs, so the board also
  // takes the admin key from a cookie, set once from `?key=` (then redirected away, so the key leaves the
  // address bar and history). HttpOnly keeps it from scripts, SameSite=Strict from other sites' requests
  // (the board has PUT actions: CSRF), Path=/admin from every other route. The key is checked on every
  // request, so revoking it ends the session at once. auth.ts reads only the header, hence the gate here:
  // the routes are marked open for it and this hook applies the same admin rule to header or cookie.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, auth: 'open' };
    // the one request that carries ?key= must not write it into the request log
    route.logLevel = 'warn';
  });
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = bearerKey(request.headers.authorization);
    if (header === null) throw unauthorized(reply, 'the authorization header must be "Bearer <API key>"');
    const url = new URL(request.url, 'http://board');
    const fromQuery = url.searchParams.get('key') ?? undefined;
    const key = header ?? fromQuery ?? cookieValue(request.headers.cookie, ADMIN_KEY_COOKIE);
    if (key === undefined) {
      throw unauthorized(
        reply,
        `an admin API key is required: open ${QUEUE_BOARD_PATH}?key=<admin key> once`,
      );
    }
    const principal = await keys.authenticate(key);
    if (!principal) throw unauthorized(reply, 'the API key is unknown or revoked');
    if (!principal.admin) throw new TrawlError('forbidden', 'the queue board needs an admin API key');
    request.principal = principal;
    request.tenant = principal.keyId;
    if (fromQuery !== undefined && header === undefined && request.method === 'GET') {
      url.searchParams.delete('key');
      const secure = request.protocol === 'https' ? '; Secure' : '';
      return reply
        .code(303)
        .header(
          'set-cookie',
          `${ADMIN_KEY_COOKIE}=${encodeURIComponent(key)}; Path=/admin; HttpOnly; SameSite=Strict; Max-Age=${COOKIE_MAX_AGE_SECS}${secure}`,
        )
        .header('location', url.pathname + url.search)
        .send();
    }
  });

  // bull-board's routes carry schema.hide, and @fastify/static hides its own: none reach the OpenAPI document
  await app.register(serverAdapter.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
}

function unauthorized(reply: FastifyReply, message: string): TrawlError {
  reply.header('www-authenticate', 'Bearer realm="trawl"');
  return new TrawlError('unauthorized', message);
}
