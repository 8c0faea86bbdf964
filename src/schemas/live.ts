// GET /v1/crawls/:id/events (server-sent events) and GET /v1/crawls/:id/webhooks.
import { type Static, Type } from 'typebox';
import { WEBHOOK_EVENTS } from '../crawler/vocabulary.js';
import { Cursor, Defaulted, ListPage, Nullable, RowId } from './common.js';
import { PageSummary } from './crawls.js';

export const LiveQuery = Type.Object(
  {
    pages: Defaulted(
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
    elapsedMs: Nullable(Type.Integer()),
    relevantPages: Type.Optional(Type.Integer()),
    harvestRate: Type.Optional(Type.Number()),
  },
  { description: '`event: progress`, at most every 500 ms while the crawl is queued or running' },
);
export type ProgressEvent = Static<typeof ProgressEvent>;

export const PageEvent = Type.Pick(
  PageSummary,
  ['id', 'url', 'type', 'status', 'contentType', 'bytes', 'loadMs', 'depth', 'score', 'title', 'fetchedAt'],
  { description: '`event: page` (with ?pages=true), once per written page; dedupe on id after a resume' },
);
export type PageEvent = Static<typeof PageEvent>;

export const WebhookDeliveriesQuery = Type.Object(
  {
    limit: Defaulted(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    cursor: Type.Optional(Cursor),
    after: Type.Optional(
      RowId({
        minimum: 0,
        description: 'delivery id to list after: the older form of `cursor`, kept as its alias',
      }),
    ),
  },
  { additionalProperties: false },
);

export const WebhookDeliveryList = ListPage(
  Type.Object({
    id: Type.Integer(),
    eventId: Type.Integer({
      description: 'the x-trawl-delivery header: the same for every attempt of an event',
    }),
    event: Type.String({ enum: [...WEBHOOK_EVENTS] }),
    attempt: Type.Integer(),
    status: Nullable(Type.Integer(), { description: "the receiver's HTTP status" }),
    outcome: Type.String({ enum: ['delivered', 'retrying', 'failed'] }),
    error: Nullable(Type.String()),
    durationMs: Type.Integer(),
    attemptedAt: Type.String({ format: 'date-time' }),
  }),
);
export type WebhookDeliveryList = Static<typeof WebhookDeliveryList>;
