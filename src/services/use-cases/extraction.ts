// Use case of POST /v1/extract: main content of one page, from HTML in the request or fetched by URL the way
// the crawl fetches (documents.ts), by the text-density extractor of src/crawler/extract, which runs on the
// CPU pool (pools/cpu-pool.ts), off the event loop for a large page.
import { InputError, TrawlError } from '../../errors.js';
import type { ExtractRequest } from '../../schemas/extract.js';
import type { CpuPool } from '../pools/cpu-pool.js';
import type { DocumentFetcher } from './documents.js';

export class ExtractionService {
  constructor(
    private readonly documents: DocumentFetcher,
    private readonly cpu: CpuPool,
  ) {}

  /** The response body: an ExtractResult as UTF-8 JSON, serialized on the CPU pool (see ExtractTask). */
  async extract(request: ExtractRequest): Promise<Uint8Array> {
    const options = {
      ...(request.method !== undefined ? { method: request.method } : {}),
      ...(request.threshold !== undefined ? { threshold: request.threshold } : {}),
    };
    const markdown = request.format === 'markdown';
    if (request.url !== undefined && request.html !== undefined) {
      throw new InputError('give url or html, not both', 'html');
    }
    if (request.html !== undefined) {
      const baseUrl = request.baseUrl !== undefined ? { baseUrl: request.baseUrl } : {};
      return this.cpu.run(
        'extract',
        { html: request.html, options: { ...options, ...baseUrl }, markdown },
        'html',
      );
    }
    if (request.url === undefined) throw new InputError('one of url and html is required', 'url');
    if (request.baseUrl !== undefined) {
      throw new InputError('baseUrl goes with html; a fetched page resolves against its own URL', 'baseUrl');
    }
    const document = await this.documents.session().get(request.url, 'url');
    // a document's text (PDF, DOCX, …) is its content: its lines become the paragraphs the extractor reads
    const html = document.documentType !== null ? linesAsHtml(document.text) : document.text;
    if (!document.isHtml && document.documentType === null) {
      throw new TrawlError('unprocessable', `${request.url} is not an HTML page`, {
        field: 'url',
        detail: { url: request.url, contentType: document.contentType },
      });
    }
    return this.cpu.run(
      'extract',
      {
        html,
        options: { ...options, baseUrl: document.finalUrl },
        fetched: { url: document.finalUrl, truncated: document.truncated },
        markdown,
      },
      'url',
    );
  }
}

function linesAsHtml(text: string): string {
  const escapeHtml = (line: string) =>
    line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const paragraphs = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `<p>${escapeHtml(line)}</p>`);
  return `<!doctype html><html><body><article>${paragraphs.join('')}</article></body></html>`;
}
