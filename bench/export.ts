// Exporting a finished crawl of ~14,000 pages (synthesized straight into PostgreSQL: 90 % HTML pages with
// real bodies, the shared readability test pages (test/support/shared-data.ts) cut at 48 KiB and made unique,
// stored gzip with headers, and duplicates, 404s and binaries) as JSON lines, JSON lines with bodies, CSV and
// WARC. Each export runs in a child process of its own so its peak RSS is its own; it is drained as fast as
// the service produces it (no client is slower than the export). Prints size, time, pages/s and peak RSS per
// format.
// Args: --pages N (default 14000)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { pino } from 'pino';
import { tenantScope } from '../src/db/tenant-scope.js';
import { openRuntime } from '../src/runtime.js';
import type { ExportFormat, ExportInclude } from '../src/schemas/export.js';
import { EXPORT_FIELDS } from '../src/schemas/export.js';
import { sharedDataPath } from '../test/support/shared-data.js';
import { numberArg, stringArg } from './args.js';
import { benchTrawlConfig, dropBenchSchemas } from './peers/measure.js';
import { insertFinishedCrawl, openBenchSchema } from './peers/synthetic-crawl.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VARIANTS: Array<{ name: string; format: ExportFormat; include: ExportInclude[] }> = [
  { name: 'jsonl', format: 'jsonl', include: [] },
  { name: 'jsonl +html', format: 'jsonl', include: ['html'] },
  { name: 'csv', format: 'csv', include: [] },
  { name: 'warc', format: 'warc', include: [] },
];

/** A body's size at most: the readability pages run to 300 KB, the web's median HTML page is about 30 KB. */
const MAX_BODY_BYTES = 48 * 1024;

/** The readability test pages' sources: real HTML, cut at MAX_BODY_BYTES. */
function sampleBodies(): Buffer[] {
  const dir = sharedDataPath('readability-test-pages/');
  return readdirSync(dir).map((name) =>
    readFileSync(`${dir}${name}/source.html`).subarray(0, MAX_BODY_BYTES),
  );
}

async function synthesize(db: pg.Client, pages: number): Promise<string> {
  const { id, site } = await insertFinishedCrawl(db, pages);
  const samples = sampleBodies();
  const hashes: string[] = [];
  const BATCH = 500;
  for (let from = 0; from < pages; from += BATCH) {
    const rows: Array<{
      url: string;
      type: string;
      status: number;
      contentType: string;
      body: Buffer | null;
      sha256: string | null;
      duplicateOf: string | null;
    }> = [];
    for (let g = from; g < Math.min(pages, from + BATCH); g++) {
      const kind = g % 100;
      const url = `https://bench.invalid/p${g}`;
      if (kind < 90 || g < 100) {
        const body = Buffer.concat([samples[g % samples.length]!, Buffer.from(`\n<!-- page ${g} -->\n`)]);
        const sha256 = createHash('sha256').update(body).digest('hex');
        hashes.push(sha256);
        rows.push({
          url,
          type: 'HTML',
          status: 200,
          contentType: 'text/html; charset=utf-8',
          body,
          sha256,
          duplicateOf: null,
        });
      } else if (kind < 95) {
        rows.push({
          url,
          type: 'DUPLICATE',
          status: 200,
          contentType: 'text/html; charset=utf-8',
          body: null,
          sha256: hashes[g % 50]!,
          duplicateOf: String(g % 50),
        });
      } else if (kind < 98) {
        rows.push({
          url,
          type: 'INVALID',
          status: 404,
          contentType: 'text/html',
          body: null,
          sha256: null,
          duplicateOf: null,
        });
      } else {
        rows.push({
          url,
          type: 'BINARY',
          status: 200,
          contentType: 'application/pdf',
          body: null,
          sha256: null,
          duplicateOf: null,
        });
      }
    }
    const inserted = await db.query<{ id: string; url: string }>(
      `INSERT INTO pages (crawl_id, site_id, url, canonical_url, type, status, content_type, depth, load_ms, queued_at,
                          fetched_at, bytes, sha256, duplicate_of)
       SELECT $1, $2, r.url, r.url, r.type, r.status, r.content_type, 1, 50, now() - interval '1 hour', now(),
              r.bytes, r.sha256,
              CASE WHEN r.dup IS NULL THEN NULL ELSE (SELECT id FROM pages WHERE crawl_id = $1 AND url = 'https://bench.invalid/p' || r.dup) END
       FROM unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::int[], $8::text[], $9::text[])
            AS r(url, type, status, content_type, bytes, sha256, dup)
       RETURNING id, url`,
      [
        id,
        site,
        rows.map((row) => row.url),
        rows.map((row) => row.type),
        rows.map((row) => row.status),
        rows.map((row) => row.contentType),
        rows.map((row) => row.body?.length ?? 2048),
        rows.map((row) => row.sha256),
        rows.map((row) => row.duplicateOf),
      ],
    );
    const idOf = new Map(inserted.rows.map((row) => [row.url, row.id]));
    const withBody = rows.filter((row) => row.body !== null);
    // bodies raw, as a crawl stores them
    await db.query(
      'INSERT INTO page_contents (page_id, html) SELECT * FROM unnest($1::bigint[], $2::bytea[])',
      [withBody.map((row) => idOf.get(row.url)), withBody.map((row) => row.body!)],
    );
    await db.query(
      'INSERT INTO page_responses (page_id, headers) SELECT * FROM unnest($1::bigint[], $2::jsonb[])',
      [
        rows.map((row) => idOf.get(row.url)),
        rows.map((row) =>
          JSON.stringify([
            ['content-type', row.contentType],
            ['content-encoding', 'gzip'],
            ['server', 'bench'],
            ['date', 'Thu, 26 Nov 2026 12:00:00 GMT'],
          ]),
        ),
      ],
    );
  }
  await db.query('ANALYZE pages; ANALYZE page_contents; ANALYZE page_responses');
  return id;
}

/** Child mode: one export drained to nowhere; prints {bytes, seconds, peakRssBytes} as one JSON line. */
async function exportOnce(args: string[]): Promise<void> {
  const schema = stringArg(args, '--schema', '');
  const crawlId = stringArg(args, '--crawl', '');
  const variant = VARIANTS.find((each) => each.name === stringArg(args, '--variant', ''))!;
  const runtime = await openRuntime(
    benchTrawlConfig(process.env.DATABASE_URL ?? '', '', schema),
    pino({ level: 'error' }),
  );
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  let bytes = 0;
  const started = performance.now();
  const chunks = await runtime.exports.open(
    crawlId,
    {
      format: variant.format,
      fields: [...EXPORT_FIELDS],
      include: variant.include,
      type: null,
      status: null,
      host: null,
      minScore: null,
    },
    tenantScope(null),
  );
  await pipeline(
    Readable.from(chunks),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done();
      },
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await runtime.close();
  process.stdout.write(`${JSON.stringify({ bytes, seconds, peakRssBytes: peak })}\n`);
}

function child(args: string[]): Promise<{ bytes: number; seconds: number; peakRssBytes: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'export', '--child', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    proc.on('exit', (code) => {
      const line = out.split('\n').find((each) => each.startsWith('{"bytes"'));
      if (code !== 0 || !line) reject(new Error(`export child exited ${code}: ${out}`));
      else resolve(JSON.parse(line));
    });
  });
}

export async function run(args: string[]): Promise<void> {
  if (args.includes('--child')) return exportOnce(args);
  const pages = numberArg(args, '--pages', 14_000);
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  process.env.DATABASE_URL = databaseUrl;
  const { db, schema } = await openBenchSchema(databaseUrl, 'bench_export');
  try {
    process.stdout.write(`synthesizing a finished crawl of ${pages.toLocaleString('en-US')} pages…\n`);
    const crawlId = await synthesize(db, pages);
    const stored = (await db.query<{ n: string }>('SELECT sum(length(html))::bigint AS n FROM page_contents'))
      .rows[0]!.n;
    process.stdout.write(
      `stored bodies: ${(Number(stored) / 2 ** 20).toFixed(1)} MiB raw; each export in a process of its own, drained at once\n`,
    );
    for (const variant of VARIANTS) {
      const result = await child(['--schema', schema, '--crawl', crawlId, '--variant', variant.name]);
      process.stdout.write(
        `  ${variant.name.padEnd(12)} ${(result.bytes / 2 ** 20).toFixed(1).padStart(8)} MiB  ${result.seconds.toFixed(1).padStart(6)} s  ` +
          `${(pages / result.seconds).toFixed(0).padStart(6)} pages/s  ${(result.bytes / 2 ** 20 / result.seconds).toFixed(1).padStart(6)} MiB/s  ` +
          `peak RSS ${(result.peakRssBytes / 2 ** 20).toFixed(0).padStart(4)} MiB\n`,
      );
    }
  } finally {
    await dropBenchSchemas(db, schema);
    await db.end();
  }
}
