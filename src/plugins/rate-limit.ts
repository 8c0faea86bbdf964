// Request budgets per API key (per client IP while the service runs open), by route group: starting a crawl
// (RATE_LIMIT_CREATE_PER_MIN) costs far more than reading one, so it has its own, much smaller budget; every
// other /v1 request shares RATE_LIMIT_READ_PER_MIN. @fastify/rate-limit does the counting: on Redis when
// REDIS_URL is set (several API processes draw on one budget), in process memory otherwise. Over budget is a
// 429 problem with Retry-After (set by the plugin before it throws; problems.ts keeps reply headers).
// A crawl start is counted only when it succeeds: a request refused (bad input, the running-crawls cap) does
// not use up the budget. The create budget is therefore checked before the handler and drawn on as the 202
// goes out (@fastify/rate-limit's `increment: false` peek); concurrent starts may pass the check together.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { TrawlError } from '../errors.js';
import { closeRedisClient, outageLog, redisClientOptions } from '../outage.js';
import { accessOf } from './auth.js';

export type RateLimitGroup = 'create' | 'read';

const WINDOW_MS = 60_000;

/** The budget a request draws on; null for routes without one (probes, docs, metrics). */
export function rateLimitGroup(request: FastifyRequest, metricsRequireKey: boolean): RateLimitGroup | null {
  const path = request.url.split('?')[0]!;
  if (accessOf(path, { metricsRequireKey }) === 'open') return null;
  const route = request.routeOptions.url?.replace(/\/$/, '');
  if (request.method === 'POST' && route === '/v1/crawls') return 'create';
  return 'read';
}

function overBudget(request: FastifyRequest, group: RateLimitGroup, max: number, ttlMs: number) {
  const retryAfterSecs = Math.max(1, Math.ceil(ttlMs / 1000));
  return new TrawlError(
    'rate_limited',
    `rate limit of ${max} ${group === 'create' ? 'crawls started' : 'requests'} per minute reached ${request.tenant ? 'for this API key' : 'for this client'}; retry in ${retryAfterSecs} s`,
    { detail: { limit: max, group, retryAfterSecs } },
  );
}

export default fp(
  async (app: FastifyInstance) => {
    const { config } = app.runtime;
    const limits: Record<RateLimitGroup, number> = {
      create: config.rateLimitCreatePerMin,
      read: config.rateLimitReadPerMin,
    };
    const groupOf = (request: FastifyRequest) => rateLimitGroup(request, config.metricsRequireKey);
    let redis: Redis | null = null;
    if (config.redisUrl) {
      // A request must not hang on a Redis outage: a command gets 1 s, then skipOnError lets the request
      // through; the outage is logged once every few seconds.
      // (commands wait for the first connection at start, 1 s at most, so early requests are counted too)
      redis = new Redis(config.redisUrl, {
        ...redisClientOptions({ failFast: false }),
        maxRetriesPerRequest: 1,
        commandTimeout: 1000,
      });
      const outage = outageLog(app.log);
      redis.on('error', (error) => outage('redis', error, 'rate-limit Redis connection failed'));
      app.addHook('onClose', async () => {
        if (redis) await closeRedisClient(redis);
      });
    }
    await app.register(rateLimit, {
      global: true,
      timeWindow: WINDOW_MS,
      max: (request) => limits[groupOf(request) ?? 'read'],
      // routes run after auth's onRequest hook, so the tenant is known here
      keyGenerator: (request) => `${groupOf(request)}:${request.tenant ?? `ip:${request.ip}`}`,
      // the create budget is counted below, on success only; a replayed Idempotency-Key answer creates
      // nothing, so it spends no budget (plugins/idempotency.ts)
      allowList: async (request) =>
        groupOf(request) !== 'read' || (await app.idempotentReplay(request).catch(() => false)),
      ...(redis ? { redis, nameSpace: `${config.dbSchema}:rate-limit:` } : {}),
      skipOnError: true,
      errorResponseBuilder: (request, context) => overBudget(request, 'read', context.max, context.ttl),
    });

    const createBudget = app.createRateLimit({
      max: limits.create,
      timeWindow: WINDOW_MS,
      keyGenerator: (request) => `create:${request.tenant ?? `ip:${request.ip}`}`,
      allowList: () => false,
      skipOnError: true,
    });
    const headers = (reply: FastifyReply, budget: { max: number; remaining: number; ttl: number }) =>
      reply.headers({
        'x-ratelimit-limit': budget.max,
        'x-ratelimit-remaining': budget.remaining,
        'x-ratelimit-reset': Math.ceil(budget.ttl / 1000),
      });
    app.addHook('preHandler', async (request, reply) => {
      if (groupOf(request) !== 'create') return;
      const budget = await createBudget(request, { increment: false });
      if (budget.isAllowed) return;
      if (budget.remaining > 0) return;
      const retryAfterSecs = Math.max(1, Math.ceil(budget.ttl / 1000));
      headers(reply, budget).header('retry-after', retryAfterSecs);
      throw overBudget(request, 'create', budget.max, budget.ttl);
    });
    app.addHook('onSend', async (request, reply) => {
      if (groupOf(request) !== 'create' || reply.statusCode >= 300) return;
      if (reply.getHeader('idempotent-replayed') === 'true') return;
      const budget = await createBudget(request);
      if (!budget.isAllowed) headers(reply, budget);
    });
  },
  { name: 'rate-limit', dependencies: ['auth', 'idempotency'] },
);
