// The crawl's page reader (crawler/engine/ports.ts HtmlPageReader) on the CPU pool: each stored HTML page is walked
// once, for its links and its main text, so the crawl-text job only counts words and no page's body is read
// back and parsed a second time. A page is read on a worker thread, so the crawl's event loop is not held, but
// for a small one, read inline: a thread's round trip with the page and its parse cloned both ways costs more.
import type { HtmlPageReader } from '../../crawler/engine/ports.js';
import type { ExtractionMethod } from '../../crawler/extract/index.js';
import type { PageReading } from '../../crawler/extract/page-reading.js';
import type { CpuPool } from './cpu-pool.js';

/**
 * Pages up to this many characters are read on the event loop: a few-kilobyte page's walk costs less than its
 * round trip to a thread, and a thread's work per page is what keeps a crawl of real-sized pages fast.
 */
const INLINE_PAGE_MAX_CHARS = 16 * 1024;

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
      return await this.cpu.run('readPage', { html, url: pageUrl, ...options }, 'html', {
        throughput: true,
        inlineMaxChars: INLINE_PAGE_MAX_CHARS,
      });
    } catch {
      return null;
    }
  }
}
