// GET /v1/crawls/:id/events (server-sent events) and GET /v1/crawls/:id/webhooks.
import { Type } from 'typebox';
import { RowId } from './common.js';

export const LiveQuery = Type.Object(
  {
    pages: Type.Optional(
      Type.Boolean({ default: false, description: 'also send a `page` event for each written page' }),
    ),
  },
  { additionalProperties: false },
);

export const ProgressEvent = Type.Object(
  {
    id: Type.String(),
    status: Type.String(),
    counts: Type.Record(Type.String(), Type.Integer()),
    pagesFetched: Type.Integer(),
    pagesPerSecond: Type.Number(),
    frontier: Type.Integer(),
    elapsedMs: Type.Union([Type.Integer(), Type.Null()]),
    relevantPages: Type.Optional(Type.Integer()),
    harvestRate: Type.Optional(Type.Number()),
  },
  { description: '`event: progress`, at most every 500 ms while the crawl is queued or running' },
);

export const PageEvent = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    type: Type.String(),
    status: Type.Union([Type.Integer(), Type.Null()]),
    contentType: Type.Union([Type.String(), Type.Null()]),
    bytes: Type.Union([Type.Integer(), Type.Null()]),
    loadMs: Type.Union([Type.Integer(), Type.Null()]),
    depth: Type.Integer(),
    score: Type.Union([Type.Number(), Type.Null()]),
    title: Type.Union([Type.String(), Type.Null()]),
    fetchedAt: Type.Union([Type.String(), Type.Null()]),
  },
  { description: '`event: page` (with ?pages=true), once per written page; dedupe on id after a resume' },
);

export const WebhookDeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    after: Type.Optional(RowId({ minimum: 0, description: 'delivery id to list after (cursor)' })),
  },
  { additionalProperties: false },
);

export const WebhookDeliveryList = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      eventId: Type.Integer({
        description: 'the x-trawl-delivery header: the same for every attempt of an event',
      }),
      event: Type.String({ enum: ['started', 'page', 'completed', 'failed', 'cancelled'] }),
      attempt: Type.Integer(),
      status: Type.Union([Type.Integer(), Type.Null()], { description: "the receiver's HTTP status" }),
      outcome: Type.String({ enum: ['delivered', 'retrying', 'failed'] }),
      error: Type.Union([Type.String(), Type.Null()]),
      durationMs: Type.Integer(),
      attemptedAt: Type.String({ format: 'date-time' }),
    }),
  ),
  next: Type.Union([Type.String(), Type.Null()]),
});
