// GET /v1/crawls/:id/export: a crawl's pages in one streamed response, JSON lines or CSV, whatever its size.
// Read in keyset batches by page id (never one long transaction holding a pool connection), each batch's
// links, images, bodies and texts in one statement each, and produced as the client reads (an async generator
// under a Readable: a slow client pauses the reads, so memory stays flat). Works on running and cancelled
// crawls: what is stored so far. At most `maxConcurrent` exports run at once per process.
import type { CrawlsRepository, PageRow } from '../db/crawls-repo.js';
import type { TenantScope } from '../db/tenant-scope.js';
import { TrawlError } from '../errors.js';
import type { ExportField, ExportFormat, ExportInclude } from '../schemas/export.js';
import type { CrawlReader } from './crawl-reader.js';
import { storedBodyText } from './stored-body.js';
import { pageSummaryView } from './views.js';

export interface ExportRequest {
  format: ExportFormat;
  fields: ExportField[];
  include: ExportInclude[];
  type: string | null;
  status: number | null;
  host: string | null;
  minScore: number | null;
}

const BATCH_PAGES = 500;
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
    },
  ) {}

  /**
   * The export's lines, produced as they are read. Checks (404, the cap) happen before the first line, so a
   * refusal is a problem answer, not a broken stream.
   */
  async open(crawlId: string, request: ExportRequest, scope: TenantScope): Promise<AsyncIterable<string>> {
    await this.options.crawls.requireVisible(crawlId, scope);
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
    const lines = this.#lines(crawlId, request);
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

  async *#lines(crawlId: string, request: ExportRequest): AsyncGenerator<string> {
    const { repository } = this.options;
    if (request.format === 'csv') yield `${request.fields.join(',')}\r\n`;
    let afterId = 0;
    for (;;) {
      const rows = await repository.pages(crawlId, {
        afterId,
        type: request.type,
        status: request.status,
        host: request.host,
        limit: BATCH_PAGES,
        byScore: false,
        afterScore: null,
        minScore: request.minScore,
        result: null,
      });
      if (rows.length === 0) return;
      afterId = rows[rows.length - 1]!.id;
      if (request.format === 'csv') {
        yield rows.map((row) => `${this.#csvRow(row, request.fields)}\r\n`).join('');
      } else {
        const extras = await this.#extras(rows, request.include);
        let chunk = '';
        for (const row of rows) {
          chunk += `${JSON.stringify({ ...this.#pick(row, request.fields), ...(await extras(row)) })}\n`;
        }
        yield chunk;
      }
      if (rows.length < BATCH_PAGES) return;
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

  /** The batch's included parts, read once for all its pages; a function giving each page its own. */
  async #extras(rows: PageRow[], include: readonly ExportInclude[]) {
    const ids = rows.map((row) => row.id);
    const wanted = new Set(include);
    const [links, images, contents] = await Promise.all([
      wanted.has('links') ? this.options.repository.batchLinks(ids) : [],
      wanted.has('images') ? this.options.repository.batchImages(ids) : [],
      wanted.has('html') || wanted.has('text')
        ? this.options.repository.batchContents(ids, { html: wanted.has('html'), text: wanted.has('text') })
        : [],
    ]);
    const group = <T>(items: T[], key: (item: T) => number) => {
      const byPage = new Map<number, T[]>();
      for (const item of items) byPage.set(key(item), [...(byPage.get(key(item)) ?? []), item]);
      return byPage;
    };
    const linksOf = group(links, (link) => Number(link.from_page));
    const imagesOf = group(images, (image) => Number(image.page_id));
    const contentOf = new Map(contents.map((content) => [Number(content.page_id), content]));
    return async (row: PageRow): Promise<Record<string, unknown>> => {
      const extra: Record<string, unknown> = {};
      if (wanted.has('links')) {
        extra.links = (linksOf.get(row.id) ?? []).map(({ url, anchor }) => ({ url, anchor }));
      }
      if (wanted.has('images')) {
        extra.images = (imagesOf.get(row.id) ?? []).map(({ url, alt }) => ({ url, alt }));
      }
      const content = contentOf.get(row.id);
      if (wanted.has('html')) {
        extra.html = content?.html_gzip ? await storedBodyText(content.html_gzip, row.content_type) : null;
      }
      if (wanted.has('text')) extra.text = content?.main_text ?? null;
      return extra;
    };
  }
}
