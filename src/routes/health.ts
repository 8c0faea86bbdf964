// Liveness (the process answers) and readiness (the database and the job backend answer).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { TrawlError } from '../errors.js';
import { problemResponses } from '../schemas/common.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        summary: 'The process is up',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'The database and the job queue answer',
        response: {
          200: Type.Object({ status: Type.Literal('ready'), database: Type.String(), queue: Type.String() }),
          ...problemResponses(503),
        },
      },
    },
    async () => {
      const { db, jobs } = app.runtime;
      try {
        await db.pool.query('SELECT 1');
        await jobs.ping();
      } catch (error) {
        throw new TrawlError('unavailable', 'database or job queue not answering', { cause: error });
      }
      return { status: 'ready' as const, database: 'ok', queue: jobs.kind };
    },
  );
};

export default routes;
