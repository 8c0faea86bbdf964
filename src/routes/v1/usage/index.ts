// /v1/usage: what the caller's crawls fetched and store (an admin key: every tenant's). Handlers call the service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requestScope } from '../../../plugins/auth.js';
import { problemResponses } from '../../../schemas/common.js';
import { Usage } from '../../../schemas/usage.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    {
      schema: {
        tags: ['usage'],
        summary: "The caller's usage: crawls by status, pages fetched, bytes stored",
        description:
          "Per tenant: its crawls by status, pages fetched this month (UTC) and in all, and what its crawls store. A key sees its own; an admin key every tenant's; open mode the open tenant's.",
        response: { 200: Usage, ...problemResponses(401) },
      },
    },
    async (request) => app.runtime.usage.usage(requestScope(request)),
  );
};

export default routes;
