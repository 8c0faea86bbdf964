// Liveness (the process answers) and readiness (the database and the job backend answer).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { TrawlError } from '../errors.js';
import { withDeadline } from '../outage.js';
import { problemResponses } from '../schemas/common.js';

/** /readyz answers within this long, whatever the database and the queue do. */
const READY_DEADLINE_MS = 2000;

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
      // both at once, each bounded: a dependency that is down or hanging is a 503 within READY_DEADLINE_MS
      const [database, queue] = await Promise.allSettled([
        withDeadline(db.pool.query('SELECT 1'), READY_DEADLINE_MS, 'postgres'),
        withDeadline(jobs.ping(), READY_DEADLINE_MS, jobs.kind),
      ]);
      const down = [
        ...(database.status === 'rejected' ? ['the database'] : []),
        ...(queue.status === 'rejected' ? [`the job queue (${jobs.kind})`] : []),
      ];
      if (down.length > 0) {
        const cause =
          database.status === 'rejected' ? database.reason : (queue as PromiseRejectedResult).reason;
        throw new TrawlError('unavailable', `${down.join(' and ')} not answering`, { cause });
      }
      return { status: 'ready' as const, database: 'ok', queue: jobs.kind };
    },
  );
};

export default routes;
