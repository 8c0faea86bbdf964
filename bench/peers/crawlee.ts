// The Crawlee peer for bench/crawl.ts: CheerioCrawler (Crawlee 3) with in-memory storage, robots.txt
// respected (respectRobotsTxtFile, user agent `*` as Crawlee checks by default), every link into the test
// web's origins enqueued (strategy 'all' narrowed by a regexp), concurrency pinned at the crawl's figure so
// the autoscaler's slow ramp from 1 does not handicap it. Run in its own process so RSS and CPU are its own.
import { CheerioCrawler, Configuration, log } from '@crawlee/cheerio';
import type { CrawlChildOptions, CrawlerReport } from './measure.js';
import { ownUsage } from './measure.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export async function crawlWithCrawlee(options: CrawlChildOptions): Promise<CrawlerReport> {
  log.setLevel(log.LEVELS.WARNING);
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const inWeb = new RegExp(`^(${options.origins.map(escapeRegExp).join('|')})/`);
  let pages = 0;
  let failed = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: options.concurrency,
      maxConcurrency: options.concurrency,
      maxRequestsPerCrawl: options.maxPages,
      respectRobotsTxtFile: true,
      maxRequestRetries: 2,
      async requestHandler({ enqueueLinks }) {
        pages++;
        await enqueueLinks({ strategy: 'all', regexps: [inWeb] });
      },
      failedRequestHandler() {
        failed++;
      },
    },
    config,
  );
  const cpuBefore = ownUsage().cpuSecs;
  const startedMs = performance.now();
  const stats = await crawler.run(options.seeds);
  const crawlMs = performance.now() - startedMs;
  const { cpuSecs, peakRssMiB } = ownUsage();
  return {
    crawlMs,
    cpuSecs: cpuSecs - cpuBefore,
    peakRssMiB,
    serverCpuSecs: {},
    notes: `handled ${pages}, failed ${failed}, finished ${stats.requestsFinished}`,
  };
}

if (process.argv[2] === '--child' && process.send) {
  const options = JSON.parse(process.argv[3] ?? '{}') as CrawlChildOptions;
  crawlWithCrawlee(options).then(
    (report) => process.send?.({ report }, () => process.exit(0)),
    (error: unknown) =>
      process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () =>
        process.exit(1),
      ),
  );
}
