// The crawl's text comparer (crawler/engine/ports.ts TextComparer) on the CPU pool: a recrawl's changed page's
// main text is compared with the earlier one as the page is recorded, so its page.changed event can say whether
// its words changed; two long texts take milliseconds to tokenize and hash, which the event loop is spared.
import type { TextComparer } from '../../crawler/engine/ports.js';
import type { TextComparison } from '../../crawler/text/simhash.js';
import type { CpuPool } from './cpu-pool.js';

export class CrawlTextComparer implements TextComparer {
  constructor(private readonly cpu: CpuPool) {}

  /** Null when the pool cannot (past its deadline, closing): the text job compares the stored texts later. */
  async compare(before: string, after: string): Promise<TextComparison | null> {
    try {
      // short texts are compared inline, as the pool runs any small task
      return await this.cpu.run('compareTexts', { before, after }, 'text', { throughput: true });
    } catch {
      return null;
    }
  }
}
