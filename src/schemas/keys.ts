// API key resources of the admin endpoints (/v1/keys). The key's text appears only in the create response.
import { type Static, Type } from 'typebox';
import { Nullable, Uuid } from './common.js';

export const ApiKey = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    prefix: Type.String({ description: 'the first characters of the key, to tell keys apart' }),
    admin: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    revokedAt: Nullable(Type.String({ format: 'date-time' })),
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
  },
  { additionalProperties: false },
);
export type ApiKeyRequest = Static<typeof ApiKeyRequest>;

export const ApiKeyList = Type.Object({ items: Type.Array(ApiKey) }, { additionalProperties: false });
export type ApiKeyList = Static<typeof ApiKeyList>;

export const ApiKeyParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'the key id, or its display prefix' }) },
  { additionalProperties: false },
);
