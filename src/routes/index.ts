// The API's table of contents: each route plugin with the URL prefix its folder names. Registered explicitly
// rather than autoloaded because @fastify/autoload cannot see TypeScript loaded through `node --import tsx`.
import type { FastifyInstance } from 'fastify';
import health from './health.js';
import metrics from './metrics.js';
import corpora from './v1/corpora/index.js';
import crawls from './v1/crawls/index.js';
import extract from './v1/extract/index.js';
import keys from './v1/keys/index.js';
import rankings from './v1/rankings/index.js';
import schedules from './v1/schedules/index.js';
import score from './v1/score/index.js';
import usage from './v1/usage/index.js';

export default async function routes(app: FastifyInstance): Promise<void> {
  await app.register(health);
  await app.register(metrics);
  await app.register(crawls, { prefix: '/v1/crawls' });
  await app.register(rankings, { prefix: '/v1/rankings' });
  await app.register(extract, { prefix: '/v1/extract' });
  await app.register(score, { prefix: '/v1/score' });
  await app.register(corpora, { prefix: '/v1/corpora' });
  await app.register(schedules, { prefix: '/v1/schedules' });
  await app.register(keys, { prefix: '/v1/keys' });
  await app.register(usage, { prefix: '/v1/usage' });
}
