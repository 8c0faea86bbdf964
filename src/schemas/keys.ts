// API key resources of the admin endpoints (/v1/keys). The key's text appears only in the create response.
import { type Static, Type } from 'typebox';
import { Nullable, Uuid } from './common.js';

const Limit = (description: string) =>
  Nullable(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description }));

/** A key's quotas (docs/operations.md#quotas); null: no limit of its own. */
export const KeyLimits = Type.Object(
  {
    runningCrawls: Limit(
      'crawls queued or running at once (a start past it is a 429); null: MAX_RUNNING_CRAWLS_PER_KEY',
    ),
    pagesPerMonth: Limit(
      'pages fetched per calendar month (UTC): a start at it is a 403, and a running crawl reaching it stops completed (stopReason quota)',
    ),
    storedBytes: Limit(
      'bytes its crawls store (their storage.bytes): a start at it is a 403, and a running crawl reaching it stops completed (stopReason quota)',
    ),
  },
  { additionalProperties: false },
);
export type KeyLimits = Static<typeof KeyLimits>;

/** Limits as a request gives them: each one left out stays as it is (at creation: no limit). */
export const KeyLimitsRequest = Type.Partial(KeyLimits, { additionalProperties: false });

export const ApiKey = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    prefix: Type.String({ description: 'the first characters of the key, to tell keys apart' }),
    admin: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    revokedAt: Nullable(Type.String({ format: 'date-time' })),
    limits: KeyLimits,
  },
  { additionalProperties: false },
);
export type ApiKey = Static<typeof ApiKey>;

export const ApiKeyCreated = Type.Object(
  {
    ...ApiKey.properties,
    key: Type.String({ description: 'the key itself: shown this once, stored only as a hash' }),
  },
  { additionalProperties: false },
);
export type ApiKeyCreated = Static<typeof ApiKeyCreated>;

export const ApiKeyRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'who or what uses the key' }),
    admin: Type.Optional(Type.Boolean({ description: 'may call the admin endpoints (default false)' })),
    limits: Type.Optional(KeyLimitsRequest),
  },
  { additionalProperties: false },
);
export type ApiKeyRequest = Static<typeof ApiKeyRequest>;

export const ApiKeyUpdate = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'who or what uses the key' }),
    ),
    limits: Type.Optional(KeyLimitsRequest),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ApiKeyUpdate = Static<typeof ApiKeyUpdate>;

export const ApiKeyList = Type.Object({ items: Type.Array(ApiKey) }, { additionalProperties: false });
export type ApiKeyList = Static<typeof ApiKeyList>;

export const ApiKeyParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'the key id, or its display prefix' }) },
  { additionalProperties: false },
);
