// /v1/crawls/:id/events (live progress as server-sent events) and /v1/crawls/:id/webhooks (delivery log).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import { CrawlStatus } from '../../../schemas/crawls.js';
import {
  LiveQuery,
  PageEvent,
  ProgressEvent,
  WebhookDeliveriesQuery,
  WebhookDeliveryList,
} from '../../../schemas/live.js';
import { formatServerSentEvent } from '../../../services/use-cases/live-progress.js';

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/events',
    {
      schema: {
        tags: ['crawls'],
        summary: 'Live progress of a crawl (server-sent events)',
        description:
          'text/event-stream. `progress` events (at most every 500 ms while the crawl runs), `page` events with ?pages=true, then one `status` event (the crawl status) after which the stream closes. Every event has an `id:`; reconnect with `Last-Event-ID` to resume: no page event is missed, a few may come again (dedupe on the page id). Works whichever process runs the crawl.',
        params: IdParams,
        querystring: LiveQuery,
        response: {
          200: {
            description: 'events: progress (ProgressEvent), page (PageEvent), status (CrawlStatus)',
            content: {
              'text/event-stream': {
                schema: Type.Union([ProgressEvent, PageEvent, CrawlStatus]),
              },
            },
          },
          ...problemResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const closed = new AbortController();
      const lastEventId = request.headers['last-event-id'];
      const stream = await app.runtime.live.open(request.params.id, requestScope(request), {
        pages: request.query.pages,
        lastEventId: Array.isArray(lastEventId) ? lastEventId[0] : lastEventId,
        signal: closed.signal,
      });
      reply.hijack();
      const raw = reply.raw;
      raw.on('close', () => closed.abort());
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        // nginx would otherwise buffer the stream
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 2000\n\n');
      try {
        for await (const event of stream) {
          if (closed.signal.aborted) break;
          raw.write(formatServerSentEvent(event));
        }
      } catch (err) {
        request.log.error({ err }, 'live progress stream failed');
      } finally {
        if (!closed.signal.aborted) await stream.return(undefined);
        raw.end();
      }
    },
  );

  app.get(
    '/:id/webhooks',
    {
      schema: {
        tags: ['crawls'],
        summary: "Webhook delivery attempts of a crawl, with the receiver's status codes",
        params: IdParams,
        querystring: WebhookDeliveriesQuery,
        response: { 200: WebhookDeliveryList, ...problemResponses(400, 404) },
      },
    },
    async (request) =>
      app.runtime.webhooks.deliveries(request.params.id, requestScope(request), {
        limit: request.query.limit,
        cursor: request.query.cursor,
        after: request.query.after,
      }),
  );
};

export default routes;
