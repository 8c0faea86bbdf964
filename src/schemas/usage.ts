// GET /v1/usage: what each tenant fetched and stores (docs/operations.md#usage).
import { type Static, Type } from 'typebox';
import { CRAWL_STATUSES } from '../crawler/vocabulary.js';
import { Owner } from './common.js';

const Count = Type.Integer({ minimum: 0 });

export const TenantUsage = Type.Object(
  {
    tenant: Owner,
    crawls: Type.Object(
      { ...Object.fromEntries(CRAWL_STATUSES.map((status) => [status, Count])), total: Count },
      { description: 'its crawls by status' },
    ),
    pagesFetched: Type.Object(
      {
        thisMonth: Type.Integer({ description: 'pages requested this calendar month (UTC)' }),
        total: Type.Integer({ description: 'pages requested in all, purged crawls included' }),
      },
      { description: 'pages requested by its crawls (every type but FRONTIER and DISALLOWED)' },
    ),
    storage: Type.Object(
      {
        bytes: Type.Integer({ description: 'bodyBytes + warcBodyBytes + screenshotBytes' }),
        bodyBytes: Type.Integer(),
        warcBodyBytes: Type.Integer(),
        screenshotBytes: Type.Integer(),
        pageRows: Type.Integer(),
        linkRows: Type.Integer(),
      },
      { description: "the sum of its crawls' storage (as a crawl's status shows it)" },
    ),
  },
  { additionalProperties: false },
);
export type TenantUsage = Static<typeof TenantUsage>;

export const Usage = Type.Object(
  {
    month: Type.String({ description: 'the month pagesFetched.thisMonth counts, YYYY-MM (UTC)' }),
    tenants: Type.Array(TenantUsage, {
      description: "the caller's own usage; with an admin key, every tenant's",
    }),
  },
  { additionalProperties: false },
);
export type Usage = Static<typeof Usage>;
