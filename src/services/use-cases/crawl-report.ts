// The crawl report: the tables a crawl's user would otherwise compute by hand (pages by type, invalid pages by
// status, links/images/documents per page, documents by type, load time and queue wait, harvest over time),
// the link graph's structure, what a recrawl found changed, as JSON (GET /v1/crawls/:id/report) and as one self-contained HTML page
// (report.html, report-html.ts).
// Counts come from the status endpoint, so the report and the status never disagree.
import { fetchesImages } from '../../crawler/crawl-request.js';
import type { ReportRepository } from '../../db/report-repo.js';
import type { TenantScope } from '../../db/tenant-scope.js';
import type { CrawlStatus } from '../../schemas/crawls.js';
import { type CrawlReport, REPORT_CHANGED_PAGES } from '../../schemas/report.js';
import { type ReportExtras, renderReportHtml } from '../presentation/report-html.js';
import type { CrawlReader } from './crawl-reader.js';
import type { CrawlStatsService } from './crawl-stats.js';
import type { RankingService } from './rankings.js';

/** Points of the harvest-over-time series at most (one every ⌈fetched / this⌉ pages). */
const HARVEST_POINTS = 100;
/** PageRank and the structure figures for the report are computed on request; larger graphs belong to a ranking job. */
const REPORT_RANK_MAX_VERTICES = 200_000;
const TOP_PAGES = 10;
/**
 * The report's structure figures search at most this many edge visits (tens of breadth-first searches of a
 * crawl's graph): a report is read on request, so its diameters may be bounds where a ranking's are exact.
 */
const REPORT_STRUCTURE_WORK_BUDGET = 1 << 25;
const ZIPF_ROWS = 20;
/** What duplicates.images holds, or why it is null. */
const DUPLICATE_IMAGES_COUNTED =
  "images are downloaded (documents.types has image), those pages show and those they link: duplicates.images counts the ones served as image/* whose bytes are an earlier page's (DUPLICATE pages, also counted in duplicates.pages)";
const DUPLICATE_IMAGES_UNKNOWN =
  'images linked from pages are recorded by URL without downloading them, so duplicates among them are not known';

export class CrawlReportService {
  constructor(
    private readonly options: {
      crawls: CrawlReader;
      stats: CrawlStatsService;
      rankings: RankingService;
      repository: ReportRepository;
    },
  ) {}

  async report(crawlId: string, scope: TenantScope): Promise<CrawlReport> {
    await this.options.crawls.requireVisible(crawlId, scope);
    const status = await this.options.crawls.status(crawlId, scope);
    const repository = this.options.repository;
    const imagesFetched = fetchesImages(status.request.documents);
    const [sites, invalid, documentsByType, duplicateImages, found, timings, linkGraph, changes] =
      await Promise.all([
        repository.sites(crawlId),
        repository.invalidPages(crawlId),
        repository.documentsByType(crawlId),
        imagesFetched ? repository.duplicateImages(crawlId) : null,
        repository.foundPerPage(crawlId),
        repository.timings(crawlId),
        this.options.rankings.crawlStructureFigures(
          crawlId,
          { maxVertices: REPORT_RANK_MAX_VERTICES, workBudget: REPORT_STRUCTURE_WORK_BUDGET },
          scope,
        ),
        this.whatChanged(status),
      ]);
    const scoring = 'scoring' in status ? status.scoring : undefined;
    let focused: CrawlReport['focused'] = null;
    if (scoring) {
      const every = Math.max(1, Math.ceil(status.pagesFetched / HARVEST_POINTS));
      const series = await repository.harvest(crawlId, scoring.threshold, every);
      focused = {
        scorer: scoring.scorer,
        threshold: scoring.threshold,
        relevantPages: status.relevantPages ?? 0,
        harvestRate: status.harvestRate ?? 0,
        harvestOverTime: series.map((point) => ({
          pagesFetched: point.pages_fetched,
          relevantPages: point.relevant,
          harvestRate: round(point.relevant / point.pages_fetched, 4),
          at: point.fetched_at.toISOString(),
        })),
      };
    }
    // each document's bytes counted once: a copy (DUPLICATE) is a duplicate, not another document of its type
    const distinctDocuments = documentsByType.filter((row) => row.documents > 0);
    const { strategy } = status;
    const graph =
      strategy === 'topic'
        ? {
            vertices: (await this.options.crawls.linkGraph(crawlId, scope)).graph.vertexCount,
          }
        : null;
    const summary = (mean: number | null, median: number | null, p95: number | null, max: number | null) => ({
      mean: nullableRound(mean),
      median: nullableRound(median),
      p95: nullableRound(p95),
      max: nullableRound(max),
    });
    return {
      id: status.id,
      status: status.status,
      strategy,
      request: status.request,
      createdAt: status.createdAt,
      startedAt: status.startedAt,
      finishedAt: status.finishedAt,
      runningTimeMs: status.elapsedMs,
      pagesPerSecond: status.pagesPerSecond,
      storage: status.storage,
      sites,
      pages: {
        fetched: status.pagesFetched,
        byType: status.counts,
        statusCodes: status.statusCodes,
        invalid: invalid.map((row) => ({ status: row.status, error: row.error, pages: row.pages })),
        disallowed: status.counts.DISALLOWED,
        frontier: status.frontier,
      },
      duplicates: {
        pages: status.duplicates,
        documents: documentsByType.reduce((sum, row) => sum + row.duplicates, 0),
        images: duplicateImages,
        near: status.nearDuplicates ?? null,
        note: imagesFetched ? DUPLICATE_IMAGES_COUNTED : DUPLICATE_IMAGES_UNKNOWN,
      },
      found: {
        htmlPages: found.html_pages,
        links: { total: status.links, perPageMean: round(found.links_mean, 2), perPageMax: found.links_max },
        images: {
          total: status.images,
          perPageMean: round(found.images_mean, 2),
          perPageMax: found.images_max,
        },
        documents: {
          total: distinctDocuments.reduce((sum, row) => sum + row.documents, 0),
          byType: distinctDocuments.map((row) => ({
            type: row.data_type,
            documents: row.documents,
            bytes: Number(row.bytes),
          })),
        },
      },
      timing: {
        loadMs: summary(timings.load_mean, timings.load_p50, timings.load_p95, timings.load_max),
        queueWaitMs: summary(timings.wait_mean, timings.wait_p50, timings.wait_p95, timings.wait_max),
      },
      focused,
      graph,
      changes,
      linkGraph,
    };
  }

  /** A recrawl's counts (the status's), its changed and gone pages, and how many earlier pages it never reached. */
  private async whatChanged(
    status: Pick<CrawlStatus, 'id' | 'recrawlOf' | 'changes'>,
  ): Promise<CrawlReport['changes']> {
    if (!status.recrawlOf) return null;
    const repository = this.options.repository;
    const [changed, gone, missing] = await Promise.all([
      repository.recrawlPages(status.id, 'changed', REPORT_CHANGED_PAGES),
      repository.recrawlPages(status.id, 'gone', REPORT_CHANGED_PAGES),
      repository.recrawlMissing(status.id),
    ]);
    return {
      recrawlOf: status.recrawlOf,
      counts: status.changes ?? { new: 0, changed: 0, unchanged: 0, gone: 0 },
      changed: changed.map((row) => ({
        id: Number(row.id),
        url: row.url,
        title: row.title,
        textChanged: row.text_changed,
        similarity: row.similarity === null ? null : round(row.similarity, 3),
      })),
      gone: gone.map((row) => ({
        id: Number(row.id),
        url: row.url,
        status: row.status,
        finalUrl: row.final_url === row.url ? null : row.final_url,
        error: row.error,
      })),
      missing,
      missingUrl: `/v1/crawls/${status.id}/changes/missing`,
    };
  }

  /** report.html: the report, the first `rows` pages, the top pages, the word and timing plots. */
  async reportHtml(crawlId: string, rows: number, scope: TenantScope): Promise<string> {
    const report = await this.report(crawlId, scope);
    const [pages, topScored, topRanked, words, wordsSvg, loadTimesSvg] = await Promise.all([
      this.options.repository.firstPages(crawlId, rows),
      this.options.repository.topScored(crawlId, TOP_PAGES),
      this.options.rankings.crawlTopPageRank(crawlId, TOP_PAGES, REPORT_RANK_MAX_VERTICES, scope),
      this.options.stats.words(crawlId, ZIPF_ROWS, scope).catch((error: unknown) => unavailable(error)),
      this.options.stats.wordsSvg(crawlId, 1000, scope).catch(() => null),
      this.options.stats.loadTimesSvg(crawlId, scope),
    ]);
    const extras: ReportExtras = {
      pages,
      rowsAsked: rows,
      topScored,
      topRanked,
      words: 'unavailable' in words ? null : words,
      wordsUnavailable: 'unavailable' in words ? words.unavailable : null,
      wordsSvg,
      loadTimesSvg,
      generatedAt: new Date().toISOString(),
    };
    return renderReportHtml(report, extras);
  }
}

function unavailable(error: unknown): { unavailable: string } {
  return { unavailable: error instanceof Error ? error.message : String(error) };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function nullableRound(value: number | null): number | null {
  return value === null ? null : round(Number(value), 1);
}
