// GET /v1/crawls/:id/export: a crawl's pages in one streamed response, JSON lines, CSV or WARC (warc-records.ts),
// whatever its size.
// Read in keyset batches by page id (never one long transaction holding a pool connection), each batch's
// links and images in one statement each, its bodies and texts a bounded few at a time (page-content.ts), made as the
// client reads (an async generator under a Readable: a slow client pauses the reads, so memory stays flat).
// A JSON line's bodies are cut at bodyMaxBytes (docs/reference.md#export-memory). Works on running and
// cancelled crawls: what is stored so far. At most `maxConcurrent` exports run at once per process.

import type { ExtractionMethod } from '../../crawler/extract/index.js';
import type { CrawlsRepository, PageRow } from '../../db/crawls-repo.js';
import type { TenantScope } from '../../db/tenant-scope.js';
import { TrawlError } from '../../errors.js';
import type { ExportField, ExportFormat, ExportInclude } from '../../schemas/export.js';
import type { StoredPageContent } from '../content/page-content.js';
import { pageSummaryView } from '../presentation/views.js';
import { pageRecords, type WarcExport, warcinfoRecord } from '../presentation/warc-records.js';
import type { CrawlReader } from './crawl-reader.js';

export interface ExportRequest {
  format: ExportFormat;
  fields: ExportField[];
  include: ExportInclude[];
  type: string | null;
  status: number | null;
  host: string | null;
  minScore: number | null;
  /** A recrawl's pages of one change class (absent or null: all). */
  change?: string | null;
}

/** Pages per batch when a batch holds only their records (CSV, JSON lines of fields, links and images). */
const BATCH_PAGES = 500;
/**
 * Pages per batch when their records carry bodies: a WARC's records, or JSON lines with html, markdown or text.
 * JSON lines read the batch's bodies a few at a time within it (#bodies).
 */
const BODIES_BATCH_PAGES = 50;
/** The includes that carry a page's content, each up to a body's size. */
const BODY_INCLUDES: ReadonlySet<ExportInclude> = new Set(['html', 'markdown', 'text']);
/** Seconds a client refused for the cap is told to wait (Retry-After). */
const BUSY_RETRY_AFTER_SECS = 5;

/**
 * A CSV cell (RFC 4180): quoted when it holds a quote, comma or line break. A cell a spreadsheet would run as
 * a formula (=, +, -, @, tab, CR first: OWASP's CSV injection list) gets a leading apostrophe.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export class CrawlExportService {
  #running = 0;

  constructor(
    private readonly options: {
      crawls: CrawlReader;
      repository: CrawlsRepository;
      maxConcurrent: number;
      /** The stored bodies and texts, read bounded and encoded off the event loop (page-content.ts). */
      content: StoredPageContent;
      /**
       * A record's html, text and markdown come from the first this many bytes of its body (characters of
       * its text); a longer one is cut there and the record says `truncated: true` (EXPORT_BODY_MAX_BYTES).
       */
      bodyMaxBytes: number;
    },
  ) {}

  /**
   * The export's lines, produced as they are read. Checks (404, the cap) happen before the first line, so a
   * refusal is a problem answer, not a broken stream.
   */
  async open(
    crawlId: string,
    request: ExportRequest,
    scope: TenantScope,
  ): Promise<AsyncIterable<string | Uint8Array>> {
    await this.options.crawls.requireVisible(crawlId, scope);
    const crawl = await this.options.repository.get(crawlId, scope);
    if (!crawl) throw new TrawlError('not_found', `no crawl with id ${crawlId}`);
    const stored = crawl.request;
    if (request.format === 'warc' && !stored.store.html && !stored.store.warc) {
      // an archive of requests without responses is not one: say what is missing and how to get it
      throw new TrawlError(
        'conflict',
        `crawl ${crawlId} kept no responses (store.html and store.warc were false): its WARC would hold requests only; crawl again with store.warc: true`,
        { field: 'format', detail: { store: stored.store } },
      );
    }
    if (this.#running >= this.options.maxConcurrent) {
      throw new TrawlError(
        'unavailable',
        `${this.options.maxConcurrent} exports are running; retry shortly`,
        {
          detail: { retryAfterSecs: BUSY_RETRY_AFTER_SECS },
        },
      );
    }
    this.#running++;
    const release = (() => {
      let released = false;
      return () => {
        if (!released) this.#running--;
        released = true;
      };
    })();
    const lines =
      request.format === 'warc'
        ? this.#warc(
            {
              crawlId,
              request: stored,
              createdAt: crawl.created_at,
              filename: `crawl-${crawlId}.warc.gz`,
            },
            request,
          )
        : this.#lines(crawlId, request, stored.extract.method);
    return {
      [Symbol.asyncIterator]: () => {
        const iterator = lines[Symbol.asyncIterator]();
        return {
          next: async () => {
            try {
              const step = await iterator.next();
              if (step.done) release();
              return step;
            } catch (error) {
              release();
              throw error;
            }
          },
          return: async () => {
            release();
            return (await iterator.return?.(undefined)) ?? { done: true, value: undefined };
          },
        };
      },
    };
  }

  /** The filtered pages in id order, a batch of `batchPages` at a time, each batch its own short query. */
  async *#batches(crawlId: string, request: ExportRequest, batchPages: number): AsyncGenerator<PageRow[]> {
    let afterId = 0;
    for (;;) {
      const rows = await this.options.repository.pages(crawlId, {
        afterId,
        type: request.type,
        status: request.status,
        host: request.host,
        limit: batchPages,
        byScore: false,
        afterScore: null,
        minScore: request.minScore,
        result: null,
        change: request.change ?? null,
      });
      if (rows.length === 0) return;
      afterId = rows[rows.length - 1]!.id;
      yield rows;
      if (rows.length < batchPages) return;
    }
  }

  async *#lines(
    crawlId: string,
    request: ExportRequest,
    method: ExtractionMethod,
  ): AsyncGenerator<string | Uint8Array> {
    if (request.format === 'csv') yield `${request.fields.join(',')}\r\n`;
    const withBodies = request.include.some((part) => BODY_INCLUDES.has(part));
    for await (const rows of this.#batches(crawlId, request, withBodies ? BODIES_BATCH_PAGES : BATCH_PAGES)) {
      if (request.format === 'csv') {
        yield rows.map((row) => `${this.#csvRow(row, request.fields)}\r\n`).join('');
        continue;
      }
      const extras = await this.#extras(rows, request.include);
      const record = (row: PageRow) => ({ ...this.#pick(row, request.fields), ...extras(row) });
      if (!withBodies) {
        yield rows.map((row) => `${JSON.stringify(record(row))}\n`).join('');
        continue;
      }
      // one record at a time, its bodies as they were encoded on the CPU pool: a batch's bodies never make
      // one string (a string of 50 large bodies passes V8's longest)
      const include = {
        html: request.include.includes('html'),
        markdown: request.include.includes('markdown'),
        text: request.include.includes('text'),
      };
      const records = this.options.content.bounded(rows, include, method, this.options.bodyMaxBytes);
      for await (const { row, bodies } of records) {
        const head = JSON.stringify(record(row));
        let separator = head === '{}' ? '' : ',';
        yield head.slice(0, -1);
        for (const part of ['html', 'text', 'markdown'] as const) {
          if (!request.include.includes(part)) continue;
          yield `${separator}${JSON.stringify(part)}:`;
          yield bodies[part] ?? 'null';
          separator = ',';
        }
        yield `,"truncated":${bodies.cut}}\n`;
      }
    }
  }

  /** The WARC: its warcinfo record, then each batch's records (warc-records.ts), gzip members end to end. */
  async *#warc(warc: WarcExport, request: ExportRequest): AsyncGenerator<Uint8Array> {
    yield await warcinfoRecord(warc);
    for await (const rows of this.#batches(warc.crawlId, request, BODIES_BATCH_PAGES)) {
      const fetched = rows.filter((row) => row.status !== null);
      if (fetched.length === 0) continue;
      const stored = new Map(
        (await this.options.repository.batchResponses(fetched.map((row) => row.id))).map((response) => [
          Number(response.id),
          response,
        ]),
      );
      // a page's records at a time: a batch's bodies in one buffer could pass the largest a buffer may be
      for (const row of fetched) yield Buffer.concat(await pageRecords(warc, row, stored.get(row.id)));
    }
  }

  #pick(row: PageRow, fields: readonly ExportField[]): Record<string, unknown> {
    const view = pageSummaryView(row) as Record<string, unknown>;
    return Object.fromEntries(fields.map((field) => [field, view[field] ?? null]));
  }

  #csvRow(row: PageRow, fields: readonly ExportField[]): string {
    const picked = this.#pick(row, fields);
    return fields.map((field) => csvCell(picked[field])).join(',');
  }

  /** The batch's links and images, read once for all its pages; a function giving each page its own. */
  async #extras(rows: PageRow[], include: readonly ExportInclude[]) {
    const ids = rows.map((row) => row.id);
    const wanted = new Set(include);
    const [links, images] = await Promise.all([
      wanted.has('links') ? this.options.repository.batchLinks(ids) : [],
      wanted.has('images') ? this.options.repository.batchImages(ids) : [],
    ]);
    const group = <T>(items: T[], key: (item: T) => number) => {
      const byPage = new Map<number, T[]>();
      for (const item of items) byPage.set(key(item), [...(byPage.get(key(item)) ?? []), item]);
      return byPage;
    };
    const linksOf = group(links, (link) => Number(link.from_page));
    const imagesOf = group(images, (image) => Number(image.page_id));
    return (row: PageRow): Record<string, unknown> => {
      const extra: Record<string, unknown> = {};
      if (wanted.has('links')) {
        extra.links = (linksOf.get(row.id) ?? []).map(({ url, anchor }) => ({ url, anchor }));
      }
      if (wanted.has('images')) {
        extra.images = (imagesOf.get(row.id) ?? []).map(({ url, alt }) => ({ url, alt }));
      }
      return extra;
    };
  }
}
