// The crawl's page reader (crawler/engine/ports.ts HtmlPageReader) on the CPU pool: each stored HTML page is walked
// once on a worker thread, for its links and its main text, so the crawl's event loop parses nothing, the
// crawl-text job only counts words, and no page's body is read back and parsed a second time.
import type { HtmlPageReader } from '../../crawler/engine/ports.js';
import type { ExtractionMethod } from '../../crawler/extract/index.js';
import type { PageReading } from '../../crawler/extract/page-reading.js';
import type { CpuPool } from './cpu-pool.js';

export class CrawlPageReader implements HtmlPageReader {
  constructor(private readonly cpu: CpuPool) {}

  /**
   * Null when the page costs more than the pool's task deadline or a thread's heap, or the pool is closing:
   * the crawl parses the page itself, and the text job reads its main text from the stored body with a job's
   * deadline, recording there why it could not.
   */
  async read(
    html: string,
    pageUrl: string,
    options: { method: ExtractionMethod; robotsToken: string; words: boolean },
  ): Promise<PageReading | null> {
    try {
      return await this.cpu.run('readPage', { html, url: pageUrl, ...options }, 'html', { throughput: true });
    } catch {
      return null;
    }
  }
}
