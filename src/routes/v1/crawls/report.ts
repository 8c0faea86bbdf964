// /v1/crawls/:id/report (the crawl's summary tables as JSON) and /v1/crawls/:id/report.html (the same, with
// plots, top pages and the first pages, as one self-contained page).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requestScope } from '../../../plugins/auth.js';
import { IdParams, problemResponses } from '../../../schemas/common.js';
import { CrawlReport, ReportHtmlQuery, ReportLink } from '../../../schemas/report.js';
import { REPORT_CSP } from '../../../services/presentation/report-html.js';

/** How long a signed report link works: long enough to open it, short enough that a copied one soon dies. */
const REPORT_LINK_TTL_SECS = 300;

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/report',
    {
      schema: {
        tags: ['crawls'],
        summary: "The crawl's report: pages by type and status, what was found per page, timings, harvest",
        description:
          "Running time, sites, pages by type, invalid pages by status code (network faults by error), links, images and documents (total, mean and most per HTML page, documents by type), load time and queue wait (mean, median, p95, max), pages/s; for crawls that score pages the harvest rate over time; for topic crawls the graph size. Counts are the status endpoint's.",
        params: IdParams,
        response: { 200: CrawlReport, ...problemResponses(400, 404) },
      },
    },
    async (request) => app.runtime.reports.report(request.params.id, requestScope(request)),
  );

  app.post(
    '/:id/report-link',
    {
      schema: {
        tags: ['crawls'],
        summary: 'A link to report.html that a browser tab can open without the key',
        description: `The report's URL with a token that stands for the caller's key for ${REPORT_LINK_TTL_SECS} seconds, for that report only (dead once the key is revoked). Without keys (the service runs open) the plain URL.`,
        params: IdParams,
        response: { 200: ReportLink, ...problemResponses(400, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await app.runtime.crawls.requireVisible(id, requestScope(request));
      const path = `/v1/crawls/${id}/report.html`;
      if (!request.principal) return { url: path, expiresAt: null };
      const signed = await app.runtime.keys.signLink(request.principal, path, REPORT_LINK_TTL_SECS);
      return { url: `${path}?token=${signed.token}`, expiresAt: signed.expiresAt.toISOString() };
    },
  );

  app.get(
    '/:id/report.html',
    {
      config: { signedLinks: true },
      schema: {
        tags: ['crawls'],
        summary: 'The crawl report as one self-contained HTML page',
        description:
          'Inline CSS and SVG, no script and no external asset (it works offline and as an e-mail attachment): the tables of /report, the load-time, harvest and word plots, the top pages by PageRank and by score, the first `rows` pages and the crawl request. Served with a Content-Security-Policy that allows no script.',
        params: IdParams,
        querystring: ReportHtmlQuery,
        response: {
          200: { description: 'the report page', content: { 'text/html': { schema: Type.String() } } },
          ...problemResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const html = await app.runtime.reports.reportHtml(
        request.params.id,
        request.query.rows,
        requestScope(request),
      );
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', REPORT_CSP)
        .header('x-content-type-options', 'nosniff')
        .send(html);
    },
  );
};

export default routes;
