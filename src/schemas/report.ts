// GET /v1/crawls/:id/report: the crawl's summary tables (pages by type, invalid pages by status, what was found
// per page, documents by type, timings, harvest over time, the link graph's structure, what a recrawl found
// changed) as one JSON document; report.html renders it.
import { type Static, Type } from 'typebox';
import { Defaulted, Nullable, Uuid } from './common.js';
import { ChangeCounts, CrawlStorage } from './crawls.js';
import { GraphFigures } from './rankings.js';

const Summary = Type.Object({
  mean: Nullable(Type.Number()),
  median: Nullable(Type.Number()),
  p95: Nullable(Type.Number()),
  max: Nullable(Type.Number()),
});

const FoundPerPage = Type.Object({
  total: Type.Integer(),
  perPageMean: Type.Number({ description: 'mean per HTML page' }),
  perPageMax: Type.Integer({ description: 'the most on one HTML page' }),
});

/** How many of a recrawl's changed and gone pages the report lists; the counts are whole. */
export const REPORT_CHANGED_PAGES = 100;

const ChangedPageRow = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  title: Nullable(Type.String()),
  textChanged: Nullable(Type.Boolean(), {
    description: 'whether its main text differs; null until the text job compared the two texts',
  }),
  similarity: Nullable(Type.Number({ description: '0–1, how alike the two main texts are' })),
});

const GonePageRow = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  status: Nullable(
    Type.Integer({
      description: 'the answer now (404, 410, …; a redirect followed: its end); null: unreachable',
    }),
  ),
  finalUrl: Nullable(Type.String({ description: 'where a redirect away led; null: no redirect' })),
  error: Nullable(Type.String()),
});

const WhatChanged = Type.Object({
  recrawlOf: Uuid,
  counts: ChangeCounts,
  changed: Type.Array(ChangedPageRow, {
    description: `changed pages, those whose main text changed first and the least alike first (at most ${REPORT_CHANGED_PAGES})`,
  }),
  gone: Type.Array(GonePageRow, {
    description: `gone pages in discovery order (at most ${REPORT_CHANGED_PAGES})`,
  }),
  missing: Type.Integer({
    description:
      'earlier pages this recrawl never reached (the page budget ran out, it was cancelled, robots.txt now refuses them): not counted gone',
  }),
  missingUrl: Type.String({ description: 'where they are listed (GET /v1/crawls/:id/changes/missing)' }),
});

export const CrawlReport = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    status: Type.String(),
    strategy: Type.String(),
    request: Type.Any({ description: 'the crawl request as stored (defaults filled in)' }),
    createdAt: Type.String({ format: 'date-time' }),
    startedAt: Nullable(Type.String({ format: 'date-time' })),
    finishedAt: Nullable(Type.String({ format: 'date-time' })),
    runningTimeMs: Nullable(Type.Integer()),
    pagesPerSecond: Type.Number(),
    storage: CrawlStorage,
    sites: Type.Integer({ description: 'hosts with at least one page requested' }),
    pages: Type.Object({
      fetched: Type.Integer({ description: 'pages requested (every type but FRONTIER and DISALLOWED)' }),
      byType: Type.Record(Type.String(), Type.Integer()),
      statusCodes: Type.Record(Type.String(), Type.Integer()),
      invalid: Type.Array(
        Type.Object({
          status: Nullable(Type.Integer()),
          error: Nullable(Type.String()),
          pages: Type.Integer(),
        }),
        { description: 'INVALID pages by HTTP status; network faults (no status) by error' },
      ),
      disallowed: Type.Integer(),
      frontier: Type.Integer({ description: 'URLs queued and never fetched' }),
    }),
    duplicates: Type.Object({
      pages: Type.Integer({ description: 'same canonical URL or same body SHA-256 as an earlier page' }),
      documents: Type.Integer({
        description:
          "downloaded documents whose bytes are an earlier one's (DUPLICATE pages), not in found.documents",
      }),
      images: Nullable(
        Type.Integer({
          description:
            "downloaded images (documents.types has image) whose bytes are an earlier page's (DUPLICATE pages served as image/*); null when the crawl does not download images",
        }),
      ),
      near: Nullable(
        Type.Integer({
          description:
            "pages whose main text's simhash is within duplicates.maxDistance bits of an earlier page's (nearDuplicateOf; kept and counted in pages.fetched); null when the crawl does not look for near-duplicates (duplicates.near)",
        }),
      ),
      note: Type.String({ description: 'what duplicates.images counts, or why it is null' }),
    }),
    found: Type.Object({
      htmlPages: Type.Integer(),
      links: FoundPerPage,
      images: FoundPerPage,
      documents: Type.Object({
        total: Type.Integer({
          description: 'downloaded documents, each body once: copies are duplicates.documents',
        }),
        byType: Type.Array(
          Type.Object({ type: Type.String(), documents: Type.Integer(), bytes: Type.Integer() }),
        ),
      }),
    }),
    timing: Type.Object({
      loadMs: Summary,
      queueWaitMs: Summary,
    }),
    focused: Nullable(
      Type.Object({
        scorer: Type.String(),
        threshold: Type.Number(),
        relevantPages: Type.Integer(),
        harvestRate: Type.Number(),
        harvestOverTime: Type.Array(
          Type.Object({
            pagesFetched: Type.Integer(),
            relevantPages: Type.Integer({ description: 'pages so far scored at least the threshold' }),
            harvestRate: Type.Number(),
            at: Type.String({ format: 'date-time' }),
          }),
        ),
      }),
      { description: 'crawls that score pages (a relevance is set)' },
    ),
    graph: Nullable(Type.Object({ vertices: Type.Integer() }), {
      description: 'topic crawls: the vertices of the link graph (at most maxPages)',
    }),
    changes: Nullable(WhatChanged, {
      description:
        'a recrawl: what changed against the earlier crawl (docs/reference.md#change-classes); null for a crawl that recrawls none',
    }),
    linkGraph: Nullable(GraphFigures, {
      description:
        "the link graph's structure figures (docs/reference.md#graph-structure), computed on request with a small search budget (so often exact: false); null for a graph of more than 200,000 pages, which a ranking (POST /v1/crawls/:id/rank) describes",
    }),
  },
  { $id: 'CrawlReport' },
);
export type CrawlReport = Static<typeof CrawlReport>;

export const ReportHtmlQuery = Type.Object(
  {
    rows: Defaulted(
      Type.Integer({ minimum: 0, maximum: 5000, default: 200, description: 'page rows in the table' }),
    ),
    token: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'a signed link’s token (POST /v1/crawls/:id/report-link), for a browser tab that cannot send the key',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReportLink = Type.Object({
  url: Type.String({ description: 'report.html, with a token standing for the key when one is in use' }),
  expiresAt: Nullable(Type.String({ format: 'date-time' }), {
    description: 'when the token stops working; null when the service runs open (no token)',
  }),
});
export type ReportLink = Static<typeof ReportLink>;
