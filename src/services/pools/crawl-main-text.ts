// The crawl's main-text reader (crawler/engine/ports.ts MainTextReader) on the CPU pool: each stored HTML page's
// main text is extracted on a worker thread while the crawl's event loop parses the same page for its links,
// so the crawl-text job only counts words and no page's body is read back and parsed a second time.
import type { MainTextReader } from '../../crawler/engine/ports.js';
import type { ExtractionMethod } from '../../crawler/extract/index.js';
import type { CpuPool } from './cpu-pool.js';

export class CrawlMainText implements MainTextReader {
  constructor(private readonly cpu: CpuPool) {}

  /**
   * Null when the page costs more than the pool's task deadline or a thread's heap, or the pool is closing:
   * the crawl goes on, and the text job reads the page's text from its stored body with a job's deadline,
   * recording there why it could not.
   */
  async read(html: string, method: ExtractionMethod): Promise<string | null> {
    try {
      return await this.cpu.run('mainText', { html, method }, 'html', { throughput: true });
    } catch {
      return null;
    }
  }
}
