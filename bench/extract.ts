// Main-content extraction on Mozilla Readability's 130 test pages (shared/data/readability-test-pages, whose
// expected.html is Firefox Reader View's output): token precision/recall/F1 per page, averaged, plus pages/s and
// peak RSS, for every trawl method beside @mozilla/readability on linkedom measured in the same run.
// Each extractor runs in its own child process so its peak RSS is its own.
import { fork } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { EXTRACTION_METHODS, extractMainContent, htmlToText, tokenF1 } from '../src/crawler/extract/index.js';

const PAGES_DIR = fileURLToPath(new URL('../../shared/data/readability-test-pages/', import.meta.url));
const READABILITY = 'readability';
/** Timed passes over all pages after one untimed (scoring) pass; the median pass gives pages/s. */
const TIMED_PASSES = 3;

interface Page {
  name: string;
  source: string;
  expectedText: string;
}

interface ChildReport {
  extractor: string;
  pages: number;
  precision: number;
  recall: number;
  f1: number;
  pagesPerSecond: number;
  peakRssMiB: number;
  perPage: Array<{ name: string; f1: number }>;
}

function loadPages(): Page[] {
  return readdirSync(PAGES_DIR)
    .sort()
    .filter(
      (name) =>
        existsSync(`${PAGES_DIR}${name}/source.html`) && existsSync(`${PAGES_DIR}${name}/expected.html`),
    )
    .map((name) => ({
      name,
      source: readFileSync(`${PAGES_DIR}${name}/source.html`, 'utf8'),
      expectedText: htmlToText(readFileSync(`${PAGES_DIR}${name}/expected.html`, 'utf8')),
    }));
}

/** The extractor under test, as page HTML → main-content text. */
function extractorFor(name: string): (html: string) => string {
  if (name === READABILITY) {
    // Readability's textContent runs block elements together; its HTML goes through the same text rendering.
    return (html) => {
      const { document } = parseHTML(html);
      const article = new Readability(
        document as unknown as ConstructorParameters<typeof Readability>[0],
      ).parse();
      return article?.content ? htmlToText(article.content) : '';
    };
  }
  const method = EXTRACTION_METHODS.find((m) => m === name);
  if (method === undefined) throw new Error(`unknown extractor ${name}`);
  return (html) => extractMainContent(html, { method }).text;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function measure(extractor: string): ChildReport {
  const pages = loadPages();
  const extract = extractorFor(extractor);
  const perPage = pages.map((page) => {
    const score = tokenF1(extract(page.source), page.expectedText);
    return { name: page.name, ...score };
  });
  const passMs: number[] = [];
  for (let pass = 0; pass < TIMED_PASSES; pass++) {
    const start = process.hrtime.bigint();
    for (const page of pages) extract(page.source);
    passMs.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const mean = (pick: (p: (typeof perPage)[number]) => number) =>
    perPage.reduce((sum, p) => sum + pick(p), 0) / Math.max(perPage.length, 1);
  return {
    extractor,
    pages: pages.length,
    precision: mean((p) => p.precision),
    recall: mean((p) => p.recall),
    f1: mean((p) => p.f1),
    pagesPerSecond: pages.length / (median(passMs) / 1000),
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    perPage: perPage.map(({ name, f1 }) => ({ name, f1 })),
  };
}

function runChild(extractor: string): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', extractor], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (message) => resolve(message as ChildReport));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${extractor} child exited with ${code}`));
    });
  });
}

export async function run(args: string[]): Promise<void> {
  if (!existsSync(PAGES_DIR)) {
    process.stdout.write(`skipped: ${PAGES_DIR} not present\n`);
    return;
  }
  const verbose = args.includes('--pages');
  const reports: ChildReport[] = [];
  for (const extractor of [...EXTRACTION_METHODS, READABILITY]) reports.push(await runChild(extractor));
  const peer = reports.find((r) => r.extractor === READABILITY)!;
  const rows = reports.map((r) => [
    r.extractor,
    String(r.pages),
    r.precision.toFixed(3),
    r.recall.toFixed(3),
    r.f1.toFixed(3),
    r.pagesPerSecond.toFixed(1),
    `${(r.pagesPerSecond / peer.pagesPerSecond).toFixed(2)}×`,
    r.peakRssMiB.toFixed(0),
  ]);
  const header = [
    'extractor',
    'pages',
    'precision',
    'recall',
    'F1',
    'pages/s',
    'vs readability',
    'peak RSS MiB',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i]!)).join('  ');
  process.stdout.write(`${line(header)}\n${rows.map(line).join('\n')}\n`);
  if (verbose) {
    for (const r of reports) {
      const worst = [...r.perPage].sort((a, b) => a.f1 - b.f1).slice(0, 15);
      process.stdout.write(
        `\n${r.extractor} worst pages: ${worst.map((p) => `${p.name} ${p.f1.toFixed(2)}`).join(', ')}\n`,
      );
    }
  }
}

if (process.argv[2] === '--child' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const report = measure(process.argv[3] ?? '');
  process.send?.(report, () => process.exit(0));
}
