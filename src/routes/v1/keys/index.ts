// /v1/keys: issue, list, change (name, quotas) and revoke API keys. Admin keys only (config.auth = 'admin'); the CLI
// (`npm run keys`) does the same directly on the database, and is how the first admin key is made.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../../../schemas/common.js';
import {
  ApiKey,
  ApiKeyCreated,
  ApiKeyList,
  ApiKeyParams,
  ApiKeyRequest,
  ApiKeyUpdate,
} from '../../../schemas/keys.js';
import { sendCreated } from '../../created.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['keys'],
        summary: 'Issue an API key',
        description: 'The response carries the key itself, once; only its SHA-256 is stored.',
        body: ApiKeyRequest,
        response: { 201: ApiKeyCreated, ...problemResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const created = await app.runtime.keys.create(request.body);
      return sendCreated(reply, created, { location: `/v1/keys/${created.id}`, queued: false });
    },
  );

  app.get(
    '/',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['keys'],
        summary: 'List API keys, newest first (revoked ones too)',
        response: { 200: ApiKeyList, ...problemResponses(401, 403, 429) },
      },
    },
    async () => ({ items: await app.runtime.keys.list() }),
  );

  app.patch(
    '/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['keys'],
        summary: "Change an API key's name or limits",
        description:
          'Each limit given is set (null removes it), the others stay as they are; effective at the next crawl start and the next quota check of running crawls.',
        params: ApiKeyParams,
        body: ApiKeyUpdate,
        response: { 200: ApiKey, ...problemResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => app.runtime.keys.update(request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['keys'],
        summary: 'Revoke an API key',
        description: 'Effective at the next request. Revoking a revoked key changes nothing.',
        params: ApiKeyParams,
        response: { 200: ApiKey, ...problemResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => app.runtime.keys.revoke(request.params.id),
  );
};

export default routes;
