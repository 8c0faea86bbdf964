// A crawl's stored page content, read back: bodies (decoded as the crawl decoded them), main texts and
// Markdown, for one page, a list of pages and an export alike. The one loader of stored content, so a page
// reads the same in ?include=, GET /v1/crawls/:id/pages/:pageId and the export.
import type { ExtractionMethod } from '../../crawler/extract/index.js';
import type { CrawlsRepository, PageRow } from '../../db/crawls-repo.js';
import { TrawlError } from '../../errors.js';
import type { CpuPool } from '../pools/cpu-pool.js';
import type { ExportBodyResult, ExportBodyTask } from '../pools/cpu-tasks.js';
import { storedBody, storedBodyText, storedPrefixBytes } from './stored-body.js';

/**
 * Bytes of stored bodies and texts (their first bodyMaxBytes each) a bounded read takes from the database at
 * once, past its first page: with one record in the making, what bounds an export's memory.
 */
const BOUNDED_READ_MAX_BYTES = 32 * 1024 * 1024;
/** A record's bodies may take this long on the CPU pool before the export fails: a busy pool is no fault. */
const BOUNDED_TASK_TIMEOUT_MS = 120_000;

/** What a page needs for its Markdown: its type and URL (the final one, after redirects, when known). */
export interface MarkdownPage {
  type: string;
  url: string;
  final_url: string | null;
}

/** Which content a bounded read includes for each page. */
export interface ContentIncludes {
  html: boolean;
  markdown: boolean;
  text: boolean;
}

export class StoredPageContent {
  constructor(
    private readonly options: {
      repository: Pick<CrawlsRepository, 'pageHtml' | 'batchContents' | 'boundedContents'>;
      /** Where bodies are made Markdown and encoded, off the event loop. */
      cpu: Pick<CpuPool, 'run'>;
    },
  ) {}

  /** A page's stored body as text (storedBodyText); null when none was stored. */
  async html(pageId: number, contentType: string | null): Promise<string | null> {
    const row = await this.options.repository.pageHtml(pageId);
    const body = storedBody(row?.html, row?.html_gzip);
    return body ? await storedBodyText(body, contentType) : null;
  }

  /**
   * A stored page's main content as Markdown by its crawl's extraction method, on a worker thread, from its
   * stored body decoded: null unless the page is HTML with a stored body.
   */
  async markdown(html: string | null, page: MarkdownPage, method: ExtractionMethod): Promise<string | null> {
    if (html === null || page.type !== 'HTML') return null;
    return this.options.cpu.run('markdown', { html, url: page.final_url ?? page.url, method }, 'include');
  }

  /**
   * Main text and/or Markdown of a list of pages (their whole bodies), read for the whole list in one
   * statement, made one page at a time: the pool's queue is bounded, and a list is short.
   */
  async forList<
    P extends { id: number; type: string; url: string; finalUrl: string | null; contentType: string | null },
  >(
    pages: P[],
    include: { text: boolean; markdown: boolean },
    method: ExtractionMethod,
  ): Promise<Array<P & { text?: string | null; markdown?: string | null }>> {
    const contents = new Map(
      (
        await this.options.repository.batchContents(
          pages.map((page) => page.id),
          { html: include.markdown, text: include.text },
        )
      ).map((row) => [Number(row.page_id), row]),
    );
    const withContent: Array<P & { text?: string | null; markdown?: string | null }> = [];
    for (const page of pages) {
      const content = contents.get(page.id);
      const extra: { text?: string | null; markdown?: string | null } = {};
      if (include.text) extra.text = content?.main_text ?? null;
      if (include.markdown) {
        const body = storedBody(content?.html, content?.html_gzip);
        const html = body ? await storedBodyText(body, page.contentType) : null;
        extra.markdown = await this.markdown(
          html,
          { type: page.type, url: page.url, final_url: page.finalUrl },
          method,
        );
      }
      withContent.push({ ...page, ...extra });
    }
    return withContent;
  }

  /**
   * Each page's included bodies, encoded on the CPU pool, in page order: read a few pages at a time (as many as
   * fit BOUNDED_READ_MAX_BYTES), each body only its first `maxBytes` and each text its first `maxBytes`
   * characters, so a reader holds about that much whatever the pages' sizes. A body too costly to process
   * (past the pool's deadline or a thread's heap) is left out, null and the record cut, rather than ending
   * the reader half done.
   */
  async *bounded(
    rows: PageRow[],
    include: ContentIncludes,
    method: ExtractionMethod,
    maxBytes: number,
  ): AsyncGenerator<{ row: PageRow; bodies: ExportBodyResult }> {
    const want = { html: include.html || include.markdown, text: include.text };
    const limits = {
      bodyBytes: storedPrefixBytes(maxBytes),
      textChars: maxBytes,
      batchBytes: BOUNDED_READ_MAX_BYTES,
    };
    let next = 0;
    while (next < rows.length) {
      const contents = await this.options.repository.boundedContents(
        rows.slice(next).map((row) => row.id),
        want,
        limits,
      );
      for (const content of contents) {
        const row = rows[next++]!;
        const body = row.type === 'HTML' || include.html ? storedBody(content.html, content.html_gzip) : null;
        const bodies = await this.#encodeBodies({
          body,
          contentType: row.content_type,
          maxBytes,
          html: include.html,
          markdown:
            include.markdown && row.type === 'HTML' ? { url: row.final_url ?? row.url, method } : null,
          text: include.text ? content.main_text : null,
        });
        yield { row, bodies: { ...bodies, cut: bodies.cut || content.text_cut } };
      }
    }
  }

  async #encodeBodies(task: ExportBodyTask): Promise<ExportBodyResult> {
    try {
      return await this.options.cpu.run('exportBody', task, 'include', {
        timeoutMs: BOUNDED_TASK_TIMEOUT_MS,
      });
    } catch (error) {
      if (!(error instanceof TrawlError) || error.code !== 'unprocessable') throw error;
      return { html: null, markdown: null, text: null, cut: true };
    }
  }
}
