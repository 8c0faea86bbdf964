// Main-content extraction on two development sets, every trawl method beside @mozilla/readability (on linkedom)
// and defuddle (on linkedom) measured in the same run:
// - readability: Mozilla Readability's 130 test pages (shared/data/readability-test-pages; expected.html is
//   Firefox Reader View's output, which leaves the headline out), scored on `text`;
// - dragnet: 500 hand-marked pages (shared/data/extraction-dragnet; expected.txt includes the headline), scored
//   on `title + text`.
// Scores: token and word-4-gram shingle precision/recall averaged over pages, F1 of the means; speed: pages/s and
// CPU ms per page (process.cpuUsage over the timed passes), with ratios against Readability. Each extractor runs
// in its own child process, so its speed and memory are its own. `--ablation` adds `auto` with each of its signals
// turned off in turn (scores only); `--pages` lists each extractor's 15 worst pages by shingle F1 (`--worst N`
// lists N); `--only a,b` picks extractors.
import { fork } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { AUTO_SIGNALS } from '../src/crawler/extract/auto.js';
import {
  EXTRACTION_METHODS,
  extractMainContent,
  htmlToText,
  meanScore,
  shingleF1,
  type TokenScore,
  tokenF1,
} from '../src/crawler/extract/index.js';
import { decodeBody } from '../src/crawler/fetch/charset.js';
import { numberArg, stringArg } from './args.js';

const DATA_DIR = fileURLToPath(new URL('../../shared/data/', import.meta.url));
const READABILITY_DIR = `${DATA_DIR}readability-test-pages/`;
const DRAGNET_DIR = `${DATA_DIR}extraction-dragnet/pages/`;
const READABILITY = 'readability';
const DEFUDDLE = 'defuddle';
const ABLATION = 'ablation';
/** Timed passes over every page after one untimed (scoring) pass; pages/s and CPU come from their total. */
const TIMED_PASSES = 2;
/** Worst pages listed per extractor and set by `--pages` unless `--worst N` says how many. */
const DEFAULT_WORST_PAGES = 15;

type SetName = 'readability' | 'dragnet';

interface Page {
  set: SetName;
  name: string;
  source: string;
  expected: string;
}

interface Extraction {
  title: string;
  text: string;
}

type Extractor = (html: string) => Extraction | Promise<Extraction>;

interface SetReport {
  set: SetName;
  pages: number;
  /** Pages on which the extractor threw (scored as empty). */
  failures: number;
  token: TokenScore;
  shingle: TokenScore;
  pagesPerSecond: number;
  cpuMsPerPage: number;
  /** The pages with the lowest shingle F1 (the held-out benchmark's measure), lowest first. */
  worst: Array<{ name: string; token: number; shingle: number }>;
}

interface ChildReport {
  extractor: string;
  sets: SetReport[];
  peakRssMiB: number;
}

function loadPages(): Page[] {
  const pages: Page[] = [];
  for (const name of readdirSync(READABILITY_DIR).sort()) {
    const dir = `${READABILITY_DIR}${name}/`;
    if (!existsSync(`${dir}source.html`) || !existsSync(`${dir}expected.html`)) continue;
    pages.push({
      set: 'readability',
      name,
      source: readFileSync(`${dir}source.html`, 'utf8'),
      expected: htmlToText(readFileSync(`${dir}expected.html`, 'utf8')),
    });
  }
  for (const name of readdirSync(DRAGNET_DIR).sort()) {
    const dir = `${DRAGNET_DIR}${name}/`;
    // The pages were crawled in their own charsets (a few windows-1252): decode as the fetcher would.
    const { text } = decodeBody(gunzipSync(readFileSync(`${dir}source.html.gz`)), null);
    pages.push({ set: 'dragnet', name, source: text, expected: readFileSync(`${dir}expected.txt`, 'utf8') });
  }
  return pages;
}

/** What each set's expected text is compared with (see the module comment). */
function scoredText(set: SetName, extraction: Extraction): string {
  return set === 'dragnet' ? `${extraction.title}\n\n${extraction.text}` : extraction.text;
}

function extractorFor(name: string): Extractor {
  if (name === READABILITY) {
    // Readability's textContent runs block elements together; its HTML goes through the same text rendering.
    return (html) => {
      const { document } = parseHTML(html);
      const article = new Readability(
        document as unknown as ConstructorParameters<typeof Readability>[0],
      ).parse();
      return { title: article?.title ?? '', text: article?.content ? htmlToText(article.content) : '' };
    };
  }
  if (name === DEFUDDLE) {
    return async (html) => {
      const { Defuddle } = await import('defuddle/node');
      const { document } = parseHTML(html);
      const result = await Defuddle(
        document as unknown as Parameters<typeof Defuddle>[0],
        'https://example.org/',
      );
      return { title: result.title ?? '', text: result.content ? htmlToText(result.content) : '' };
    };
  }
  const without = name.startsWith('auto-without-') ? name.slice('auto-without-'.length) : undefined;
  if (without !== undefined) {
    const signal = AUTO_SIGNALS.find((s) => s === without);
    if (signal === undefined) throw new Error(`unknown auto signal ${without}`);
    const autoSignals = AUTO_SIGNALS.filter((s) => s !== signal);
    return (html) => extractMainContent(html, { method: 'auto', autoSignals });
  }
  const method = EXTRACTION_METHODS.find((m) => m === name);
  if (method === undefined) throw new Error(`unknown extractor ${name}`);
  return (html) => extractMainContent(html, { method });
}

async function score(extract: Extractor, pages: Page[], failures: Map<SetName, number>) {
  const perPage: Array<{ page: Page; token: TokenScore; shingle: TokenScore }> = [];
  for (const page of pages) {
    let extraction: Extraction = { title: '', text: '' };
    try {
      extraction = await extract(page.source);
    } catch {
      // A peer that throws on a page (Readability on linkedom does on a few) scores that page as empty.
      failures.set(page.set, (failures.get(page.set) ?? 0) + 1);
    }
    const got = scoredText(page.set, extraction);
    perPage.push({ page, token: tokenF1(got, page.expected), shingle: shingleF1(got, page.expected) });
  }
  return perPage;
}

async function measure(extractor: string, timed: boolean, worstPages: number): Promise<ChildReport> {
  const pages = loadPages();
  const extract = extractorFor(extractor);
  const failures = new Map<SetName, number>();
  const perPage = await score(extract, pages, failures);
  const sets: SetReport[] = [];
  for (const set of ['readability', 'dragnet'] as const) {
    const inSet = pages.filter((p) => p.set === set);
    const scores = perPage.filter((p) => p.page.set === set);
    let seconds = Number.NaN;
    let cpuMs = Number.NaN;
    if (timed) {
      const cpuStart = process.cpuUsage();
      const start = process.hrtime.bigint();
      for (let pass = 0; pass < TIMED_PASSES; pass++) {
        for (const page of inSet) {
          try {
            await extract(page.source);
          } catch {
            // counted in the scoring pass
          }
        }
      }
      seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const cpu = process.cpuUsage(cpuStart);
      cpuMs = (cpu.user + cpu.system) / 1000;
    }
    sets.push({
      set,
      pages: inSet.length,
      failures: failures.get(set) ?? 0,
      token: meanScore(scores.map((s) => s.token)),
      shingle: meanScore(scores.map((s) => s.shingle)),
      pagesPerSecond: (inSet.length * TIMED_PASSES) / seconds,
      cpuMsPerPage: cpuMs / (inSet.length * TIMED_PASSES),
      worst: scores
        .map((s) => ({ name: s.page.name, token: s.token.f1, shingle: s.shingle.f1 }))
        .sort((a, b) => a.shingle - b.shingle || a.token - b.token)
        .slice(0, worstPages),
    });
  }
  return { extractor, sets, peakRssMiB: process.resourceUsage().maxRSS / 1024 };
}

function runChild(args: string[]): Promise<ChildReport[]> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', ...args], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (message) => resolve(message as ChildReport[]));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} child exited with ${code}`));
    });
  });
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i]!)).join('  ');
  return `${line(header)}\n${rows.map(line).join('\n')}\n`;
}

const f3 = (value: number) => value.toFixed(3);
const f2 = (value: number) => value.toFixed(2);

export async function run(args: string[]): Promise<void> {
  if (!existsSync(READABILITY_DIR) || !existsSync(DRAGNET_DIR)) {
    process.stdout.write(`skipped: ${READABILITY_DIR} or ${DRAGNET_DIR} not present\n`);
    return;
  }
  const everyExtractor = [...EXTRACTION_METHODS, READABILITY, DEFUDDLE];
  const only = stringArg(args, '--only', '');
  const extractors = only === '' ? everyExtractor : only.split(',');
  if (!extractors.includes(READABILITY)) extractors.push(READABILITY);
  const worstPages = numberArg(args, '--worst', DEFAULT_WORST_PAGES);
  const reports: ChildReport[] = [];
  for (const extractor of extractors) reports.push(...(await runChild([extractor, String(worstPages)])));
  const peer = reports.find((r) => r.extractor === READABILITY)!;
  for (const set of ['readability', 'dragnet'] as const) {
    const peerSet = peer.sets.find((s) => s.set === set)!;
    const rows = reports.map((r) => {
      const s = r.sets.find((x) => x.set === set)!;
      return [
        r.extractor,
        f3(s.token.precision),
        f3(s.token.recall),
        f3(s.token.f1),
        f3(s.shingle.precision),
        f3(s.shingle.recall),
        f3(s.shingle.f1),
        s.pagesPerSecond.toFixed(1),
        `${(s.pagesPerSecond / peerSet.pagesPerSecond).toFixed(2)}×`,
        s.cpuMsPerPage.toFixed(2),
        `${(peerSet.cpuMsPerPage / s.cpuMsPerPage).toFixed(2)}×`,
        r.peakRssMiB.toFixed(0),
        String(s.failures),
      ];
    });
    const scoredOn = set === 'dragnet' ? 'title + text' : 'text';
    process.stdout.write(`\n${set} (${peerSet.pages} pages, scored on ${scoredOn})\n`);
    process.stdout.write(
      table(
        [
          'extractor',
          'tok P',
          'tok R',
          'tok F1',
          'shi P',
          'shi R',
          'shi F1',
          'pages/s',
          'vs readability',
          'CPU ms/page',
          'CPU vs readability',
          'peak RSS MiB',
          'threw',
        ],
        rows,
      ),
    );
  }
  if (args.includes('--pages') || args.includes('--worst')) {
    for (const r of reports) {
      for (const s of r.sets) {
        const worst = s.worst.map((p) => `${p.name} ${f2(p.shingle)}/${f2(p.token)}`).join(', ');
        process.stdout.write(`\n${r.extractor} worst ${s.set} pages (shingle/token F1): ${worst}\n`);
      }
    }
  }
  if (args.includes('--ablation')) {
    // The ablation child scores auto with every signal first, so each difference comes from one run of one code.
    const [auto, ...variants] = await runChild([ABLATION, '0']);
    if (auto === undefined) throw new Error('the ablation child reported nothing');
    const rows = variants.map((v) => {
      const cells = [v.extractor.slice('auto-without-'.length)];
      for (const set of ['readability', 'dragnet'] as const) {
        const with_ = auto.sets.find((s) => s.set === set)!;
        const without = v.sets.find((s) => s.set === set)!;
        cells.push(
          f3(without.token.f1),
          `${with_.token.f1 - without.token.f1 >= 0 ? '+' : ''}${f3(with_.token.f1 - without.token.f1)}`,
          f3(without.shingle.f1),
          `${with_.shingle.f1 - without.shingle.f1 >= 0 ? '+' : ''}${f3(with_.shingle.f1 - without.shingle.f1)}`,
        );
      }
      return cells;
    });
    process.stdout.write('\nablation: auto with one signal off (F1 without it, and what the signal adds)\n');
    process.stdout.write(
      table(
        [
          'signal off',
          'readab. tok F1',
          'adds',
          'readab. shi F1',
          'adds',
          'dragnet tok F1',
          'adds',
          'dragnet shi F1',
          'adds',
        ],
        rows,
      ),
    );
  }
}

if (process.argv[2] === '--child' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const name = process.argv[3] ?? '';
  const worstPages = Number(process.argv[4] ?? DEFAULT_WORST_PAGES);
  const reports: ChildReport[] = [];
  if (name === ABLATION) {
    reports.push(await measure('auto', false, worstPages));
    for (const signal of AUTO_SIGNALS)
      reports.push(await measure(`auto-without-${signal}`, false, worstPages));
  } else {
    reports.push(await measure(name, true, worstPages));
  }
  process.send?.(reports, () => process.exit(0));
}
