// Schemas every route shares: RFC 9457 problem details, ids, pagination.
import { type Static, type TSchema, type TSchemaOptions, Type } from 'typebox';
import { OPEN_TENANT } from '../db/tenant-scope.js';

/** A value or null (the Type.Union([schema, Type.Null()]) of OpenAPI's anyOf). */
export function Nullable<T extends TSchema>(schema: T, options?: TSchemaOptions) {
  return Type.Union([schema, Type.Null()], options);
}

export const Problem = Type.Object(
  {
    type: Type.String({ description: 'URI reference naming the kind of problem' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.Optional(Type.String()),
    instance: Type.Optional(Type.String()),
    field: Type.Optional(Type.String({ description: 'the offending field, for validation problems' })),
    errors: Type.Optional(
      Type.Array(
        Type.Object({ field: Type.String(), message: Type.String() }, { additionalProperties: true }),
      ),
    ),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem details' },
);
export type Problem = Static<typeof Problem>;

/** Error responses as they are sent: application/problem+json bodies (RFC 9457). */
export const problemResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: 'problem+json (RFC 9457)',
        content: { 'application/problem+json': { schema: Type.Ref('Problem') } },
      },
    ]),
  );

export const Uuid = Type.String({ format: 'uuid' });

/** A bigint row id (pages, webhook deliveries) as JSON has it: a safe integer, so it reaches PostgreSQL whole. */
export const RowId = (options: { minimum: number; description?: string }) =>
  Type.Integer({ maximum: Number.MAX_SAFE_INTEGER, ...options });

/** The `:id` of a crawl, corpus or ranking. */
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

/**
 * A query-string field left out takes its schema's `default`, filled by the validator (app.ts fills defaults
 * in query strings, never in bodies), so a handler reads it as present: optional in the JSON schema and the
 * OpenAPI file, required in the static type.
 */
export function Defaulted<T extends TSchema>(schema: T): T {
  if (!('default' in schema)) throw new Error('Defaulted: the schema has no default to fill in');
  return Type.Optional(schema) as unknown as T;
}

export const PageQueryLimit = Type.Integer({ minimum: 1, maximum: 1000, default: 50 });
export const Cursor = Type.String({
  maxLength: 200,
  description: 'opaque cursor from a previous `next` link',
});

/**
 * A page of a cursor-paginated list, as paginate() (services/presentation/pagination.ts) answers every list
 * endpoint.
 */
export function ListPage<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    next: Nullable(Type.String(), { description: 'the next page, or null on the last' }),
  });
}

/**
 * The parts a page may carry beside its record, for `include` (a comma list); each endpoint takes the ones it
 * can serve, in this order.
 */
export const INCLUDE_PARTS = ['links', 'images', 'html', 'text', 'markdown', 'model'] as const;
export type IncludePart = (typeof INCLUDE_PARTS)[number];

/** The pattern of a comma list of `values` (a query's `include` or `fields`). */
export const commaListPattern = (values: readonly string[]) =>
  `^(${values.join('|')})(,(${values.join('|')}))*$`;

export const IsoDate = Nullable(Type.String({ format: 'date-time' }));

const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://';
const TENANT_PATTERN = `^(${OPEN_TENANT}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})$`;

/** What a person is told when a string misses a pattern the schemas share (Ajv would quote the regex). */
export const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [HTTP_URL_PATTERN]: 'must be an http(s) URL',
  [TENANT_PATTERN]: `must be an API key id or "${OPEN_TENANT}"`,
};

/** An absolute http(s) URL, as seeds and documents are given. */
export const httpUrl = (description?: string) =>
  Type.String({
    minLength: 8,
    maxLength: 2048,
    pattern: HTTP_URL_PATTERN,
    format: 'uri',
    ...(description ? { description } : {}),
  });

/** The text settings of TF-IDF: a crawl's relevance, /v1/score, a stored corpus (docs/reference.md#document-model). */
export const TextSettingsProperties = {
  stopWords: Type.Optional(
    Type.Union(
      [
        Type.Literal('default'),
        Type.Literal('none'),
        Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 2000 }),
      ],
      {
        description:
          "TF-IDF's stop words: default (the Snowball project's 174 English function words; when absent), none, or your own list",
      },
    ),
  ),
  stem: Type.Optional(
    Type.Boolean({
      description:
        'TF-IDF: reduce words to their Porter stems, so "cats" and "cat" are one term (default false)',
    }),
  ),
};

/** Whose a crawl, ranking or corpus is, as lists show it (an admin key lists every tenant's). */
export const Owner = Type.String({
  description: `the tenant it belongs to: the API key id that made it, or \`${OPEN_TENANT}\` if it was made while the service ran open`,
});

/** `?owner=` of a list: one tenant's resources, for admin keys (which otherwise list every tenant's). */
export const OwnerFilter = Type.String({
  pattern: TENANT_PATTERN,
  description: `admin keys: only the resources of this tenant, an API key id or \`${OPEN_TENANT}\` (made while the service ran open without keys); without it an admin key lists every tenant's. Another key may name only itself`,
});

/** The query of a list of a tenant's resources (crawls, rankings, corpora): a page of them, by cursor. */
export const OwnedListQuery = Type.Object(
  { limit: Defaulted(PageQueryLimit), cursor: Type.Optional(Cursor), owner: Type.Optional(OwnerFilter) },
  { additionalProperties: false },
);
