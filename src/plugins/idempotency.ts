// Idempotency-Key on the POSTs that create jobs (Stripe's semantics): a retried request with the same key
// gets the first answer back and creates nothing new. Keys are kept 24 h per API key (per client IP while
// the service runs open); the same key with another request is a 422, and a request while the first with
// its key is still running a 409. A 5xx or 429 saves nothing, so a retry runs anew, nor does an answer given
// before a streamed upload was read to its end (it has no fingerprint yet). A replay skips the
// rate limits (rate-limit.ts asks isReplay at onRequest, before the body is read).
import { createHash, type Hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { IdempotencyRepository } from '../db/idempotency-repo.js';
import { InputError, TrawlError } from '../errors.js';

/** The routes whose POST creates a job, by route pattern (the OpenAPI file documents the header on them). */
export const IDEMPOTENT_ROUTES: ReadonlySet<string> = new Set([
  '/v1/crawls',
  '/v1/corpora',
  '/v1/rankings',
  '/v1/crawls/:id/rank',
  '/v1/schedules',
]);
const HEADER = 'idempotency-key';

declare module 'fastify' {
  interface FastifyRequest {
    /** The (scope, key) this request holds until its answer is saved or let go. */
    idempotency: {
      scope: string;
      key: string;
      settled: boolean;
      /** A streamed body's fingerprint, hashed as the route reads it. */
      fingerprint: { digest(): string | null } | null;
    } | null;
  }
  interface FastifyInstance {
    /** True when the request carries an Idempotency-Key whose answer is saved: it will be replayed. */
    idempotentReplay(request: FastifyRequest): Promise<boolean>;
  }
}

function applies(request: FastifyRequest): boolean {
  return request.method === 'POST' && IDEMPOTENT_ROUTES.has(request.routeOptions.url ?? '');
}

/** The key of the request's header; undefined without one; an InputError when it is not 1–255 visible ASCII. */
function keyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers[HEADER];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new InputError('Idempotency-Key must be 1 to 255 visible ASCII characters', HEADER);
  }
  return key;
}

function scopeOf(request: FastifyRequest): string {
  return request.tenant ?? `ip:${request.ip}`;
}

/** The fingerprint of a request so far; final once its body is hashed in. */
function headOf(request: FastifyRequest): Hash {
  return createHash('sha256').update(
    `${request.method} ${request.url}\n${request.headers['content-type'] ?? ''}\n`,
  );
}

function isStreamed(body: unknown): body is AsyncIterable<Buffer | string> {
  return typeof (body as AsyncIterable<Buffer> | null)?.[Symbol.asyncIterator] === 'function';
}

/** What makes two requests "the same": method, path and query, content type and body. */
function requestHash(request: FastifyRequest): string {
  const hash = headOf(request);
  const body = request.body as unknown;
  if (typeof body === 'string' || Buffer.isBuffer(body)) hash.update(body);
  else hash.update(JSON.stringify(body ?? null));
  return hash.digest('hex');
}

/**
 * An upload streamed to its route (a text/plain edges file) is never held whole, so its fingerprint is hashed
 * as the route reads it: request.body becomes the same chunks passing through the hash. digest() is the
 * fingerprint once the body has been read to its end, null before.
 */
function fingerprintAsRead(request: FastifyRequest): { digest(): string | null } {
  const hash = headOf(request);
  const chunks = request.body as AsyncIterable<Buffer | string>;
  let fingerprint: string | null = null;
  request.body = (async function* hashed() {
    for await (const chunk of chunks) {
      hash.update(chunk);
      yield chunk;
    }
    fingerprint = hash.digest('hex');
  })();
  return { digest: () => fingerprint };
}

/** Reads a streamed body to its end (at most maxBytes) for its fingerprint; null when it is longer. */
async function readThrough(request: FastifyRequest, maxBytes: number): Promise<string | null> {
  const fingerprint = fingerprintAsRead(request);
  let bytes = 0;
  for await (const chunk of request.body as AsyncIterable<Buffer | string>) {
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (bytes > maxBytes) return null;
  }
  return fingerprint.digest();
}

export default fp(
  async (app: FastifyInstance) => {
    const repository = new IdempotencyRepository(app.runtime.db.pool);
    app.decorateRequest('idempotency', null);

    app.decorate('idempotentReplay', async (request: FastifyRequest) => {
      if (!applies(request)) return false;
      let key: string | undefined;
      try {
        key = keyOf(request);
      } catch {
        return false; // the preHandler answers it
      }
      if (!key) return false;
      return (await repository.get(scopeOf(request), key))?.state === 'done';
    });

    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!applies(request)) return;
      const key = keyOf(request);
      if (!key) return;
      const scope = scopeOf(request);
      const streamed = isStreamed(request.body);
      // a streamed body's fingerprint is known once the route has read it; the row holds the head until then
      // (a row in progress is never compared, only answered 409)
      const hash = streamed ? headOf(request).digest('hex') : requestHash(request);
      if (await repository.claim(scope, key, hash)) {
        const fingerprint = streamed ? fingerprintAsRead(request) : null;
        request.idempotency = { scope, key, settled: false, fingerprint };
        return;
      }
      const held = await repository.get(scope, key);
      // taken over by another request between the two statements: let the client retry
      if (!held)
        throw new TrawlError('conflict', 'a request with this Idempotency-Key is in progress; retry');
      if (held.state === 'in_progress') {
        throw new TrawlError(
          'conflict',
          'a request with this Idempotency-Key is still in progress; retry later',
          {
            field: HEADER,
          },
        );
      }
      // a saved answer came from a body read whole, never longer than the largest upload
      const sent = streamed ? await readThrough(request, app.runtime.config.rankMaxUploadBytes) : hash;
      if (held.request_hash !== sent) {
        throw new TrawlError(
          'unprocessable',
          'this Idempotency-Key was used with another request (method, path or body); use a new key',
          { field: HEADER },
        );
      }
      for (const [name, value] of Object.entries(held.headers ?? {})) reply.header(name, value);
      reply.header('idempotent-replayed', 'true');
      return reply.status(held.status_code ?? 200).send(held.response_body ?? '');
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const held = request.idempotency;
      if (!held || held.settled) return payload;
      held.settled = true;
      // an answer given before a streamed body was read to its end has no fingerprint to match a retry by
      const requestHash = held.fingerprint ? held.fingerprint.digest() : undefined;
      const saved =
        reply.statusCode < 500 &&
        reply.statusCode !== 429 &&
        typeof payload === 'string' &&
        requestHash !== null;
      if (!saved) {
        await repository.release(held.scope, held.key).catch(() => {});
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'location']) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      await repository
        .complete(held.scope, held.key, { statusCode: reply.statusCode, headers, body: payload, requestHash })
        .catch(async (error: unknown) => {
          request.log.warn({ err: error }, 'idempotent answer not saved');
          await repository.release(held.scope, held.key).catch(() => {});
        });
      return payload;
    });

    // a request that ended without an answer sent (the client went away) lets its key go
    const letGo = async (request: FastifyRequest) => {
      const held = request.idempotency;
      if (!held || held.settled) return;
      held.settled = true;
      await repository.release(held.scope, held.key).catch(() => {});
    };
    app.addHook('onResponse', letGo);
    app.addHook('onRequestAbort', letGo);
  },
  { name: 'idempotency', dependencies: ['auth'] },
);
