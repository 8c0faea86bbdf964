// A big crawl's link graph exported (GET /v1/crawls/:id/graph as edges file, JSON and GEXF) while the same API
// answers /healthz: a finished crawl of 200,000 pages and 1.6 M links synthesized straight into PostgreSQL, the
// API alone in a child process (a fresh one per format, so its peak RSS is that format's). /healthz is polled
// every 20 ms during each export and, as the peer, for as long with nothing else running; prints the export's
// size, time and MB/s, the API's peak RSS and /healthz's p50 / p99 / worst against idle.
// Args: --pages N (default 200000), --links N per page (default 8)
import { residentMemory } from '../src/crawler/render/process-memory.js';
import { stopProcess } from '../test/support/processes.js';
import { numberArg } from './args.js';
import { dropBenchSchemas } from './peers/measure.js';
import { latencySummary, PROBE_EVERY_MS, probe } from './peers/probe.js';
import { insertFinishedCrawl, insertLinkedPages, openBenchSchema } from './peers/synthetic-crawl.js';
import { startApiProcess } from './peers/worker-processes.js';

const FORMATS = ['edges', 'json', 'gexf'] as const;

const peakRssMiB = (pid: number) => (residentMemory(pid)?.peakBytes ?? 0) / 2 ** 20;

export async function run(args: string[]): Promise<void> {
  const pages = numberArg(args, '--pages', 200_000);
  const linksPerPage = numberArg(args, '--links', 8);
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const { db, schema } = await openBenchSchema(databaseUrl, 'bench_graph');
  try {
    process.stdout.write(`synthesizing a finished crawl of ${pages.toLocaleString('en-US')} pages…\n`);
    const crawl = await insertFinishedCrawl(db, pages);
    await insertLinkedPages(db, crawl, pages, linksPerPage);
    const links = (
      await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM links l JOIN pages p ON p.id = l.from_page WHERE p.crawl_id = $1',
        [crawl.id],
      )
    ).rows[0]!.n;
    process.stdout.write(
      `${links.toLocaleString('en-US')} links; the API in its own process, /healthz every ${PROBE_EVERY_MS} ms\n`,
    );
    for (const format of FORMATS) {
      const { child, base } = await startApiProcess({ DATABASE_URL: databaseUrl, DB_SCHEMA: schema });
      try {
        const started = performance.now();
        // drained as it arrives, not gathered: holding 100 MB here would pause this process, not the API
        const exported = fetch(`${base}/v1/crawls/${crawl.id}/graph?format=${format}`).then(
          async (response) => {
            if (!response.ok || !response.body) throw new Error(`${format}: HTTP ${response.status}`);
            let bytes = 0;
            for await (const chunk of response.body) bytes += chunk.byteLength;
            return bytes;
          },
        );
        const during = await probe(`${base}/healthz`, exported);
        const bytes = await exported;
        const seconds = (performance.now() - started) / 1000;
        const peak = peakRssMiB(child.pid!);
        // the peer: the same API doing nothing else for as long
        const idle = await probe(
          `${base}/healthz`,
          new Promise((resolve) => setTimeout(resolve, seconds * 1000)),
        );
        process.stdout.write(
          `  ${format.padEnd(5)} ${(bytes / 1e6).toFixed(1).padStart(6)} MB  ${seconds.toFixed(1).padStart(5)} s  ` +
            `${(bytes / 1e6 / seconds).toFixed(1).padStart(5)} MB/s  API peak RSS ${peak.toFixed(0).padStart(4)} MiB\n` +
            `        /healthz during: ${latencySummary(during)}   idle: ${latencySummary(idle)}\n`,
        );
      } finally {
        await stopProcess(child);
      }
    }
  } finally {
    await dropBenchSchemas(db, schema);
    await db.end();
  }
}
