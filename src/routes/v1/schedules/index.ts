// /v1/schedules: crawls run on time, each a recrawl of the last one of the schedule that completed
// (docs/guide.md#schedules). Make, list, read, change and delete a schedule; handlers call the service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import {
  Schedule,
  ScheduleList,
  ScheduleListQuery,
  SchedulePatch,
  ScheduleRequest,
} from '../../../schemas/schedules.js';
import { sendCreated } from '../../created.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/',
    {
      schema: {
        tags: ['schedules'],
        summary: 'Make a schedule',
        description:
          'Runs the crawl request every interval (`every`) or when a cron expression matches in a time zone (`cron`, `timezone`). The first run is a plain crawl; each later run recrawls the last crawl of the schedule that completed. A run due while the crawl of the previous one is still queued or running is skipped and counted (skippedRuns).',
        body: ScheduleRequest,
        response: { 201: Schedule, ...problemResponses(400, 404, 409, 415, 503) },
      },
    },
    async (request, reply) => {
      const created = await app.runtime.schedules.create(request.body, requestScope(request));
      return sendCreated(reply, created, { location: created._links.self, queued: false });
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags: ['schedules'],
        summary: 'List schedules, newest first',
        querystring: ScheduleListQuery,
        response: { 200: ScheduleList, ...problemResponses(400) },
      },
    },
    async (request) => app.runtime.schedules.list(request.query, requestScope(request)),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['schedules'],
        summary: 'A schedule: its crawl request, its next run, its runs and skipped runs',
        params: IdParams,
        response: { 200: Schedule, ...problemResponses(400, 404) },
      },
    },
    async (request) => app.runtime.schedules.get(request.params.id, requestScope(request)),
  );

  app.patch(
    '/:id',
    {
      schema: {
        tags: ['schedules'],
        summary: 'Change a schedule',
        description:
          'Changes its name, its crawl request (replaced whole; the next run uses it) or when it runs (the next run is computed again).',
        params: IdParams,
        body: SchedulePatch,
        response: { 200: Schedule, ...problemResponses(400, 404, 409, 415, 503) },
      },
    },
    async (request) => app.runtime.schedules.update(request.params.id, request.body, requestScope(request)),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['schedules'],
        summary: 'Delete a schedule',
        description:
          'No run starts after it; its crawls stay, and a crawl it started runs on. Answers the schedule as it was last (nextRunAt null).',
        params: IdParams,
        response: { 200: Schedule, ...problemResponses(400, 404, 503) },
      },
    },
    async (request) => app.runtime.schedules.remove(request.params.id, requestScope(request)),
  );
};

export default routes;
