// Crawl throughput against peers measured in the same run: trawl (API + worker, PostgreSQL queue and, when
// Redis answers, the Redis queue), Crawlee's CheerioCrawler and Scrapy each crawl the same test web (8 hosts ×
// 2,000 pages, plain pages + robots.txt rules incl. a host whose robots.txt answers 500), no politeness delay,
// 64 requests in flight, robots obeyed. Each crawler runs in a child process of its own; the test web is served
// from this process, and its request log is the judge of what each one fetched.
// Args: --web plain|realistic (the test web's profile: small pages with ~8 links, or real-site pages of
// 30–120 KB with 50–150 links: menus, footers, inline scripts and styles, long articles), --runs N (every
// crawler N times, the order rotated each run; the summary gives medians, since the peers vary 2–3× between
// runs on these machines), --hosts N, --pages-per-host N, --links-per-page N,
// --only trawl,trawl-pg,trawl-redis,crawlee,scrapy, --workers N (trawl runner jobs), --concurrency N,
// --seed N, --profile (trawl's crawl window CPU-profiled and its PostgreSQL statements counted: where the time
// goes; slows trawl a little, so not for the figures of record).
import { type ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BENCHMARK_FEATURES,
  countDisallowedRequests,
  countRepeatedRequests,
  loggedPageUrls,
  startTestWeb,
  type TestWeb,
} from '../test/support/testweb/index.js';
import { numberArg, stringArg } from './args.js';
import type { CrawlChildOptions, CrawlerReport } from './peers/measure.js';

const CRAWLERS = ['trawl-pg', 'trawl-redis', 'crawlee', 'scrapy'] as const;
type Crawler = (typeof CRAWLERS)[number];
const PEERS_DIR = fileURLToPath(new URL('./peers/', import.meta.url));
const CHILD_TIMEOUT_MS = 10 * 60_000;

/** Targets from the issue, printed beside the figures (a benchmark reports, it does not assert). */
const TARGETS = { vsCrawlee: 5, vsScrapy: 5 };

interface Row {
  crawler: Crawler;
  /** robots.txt group the crawler reads (trawl's token, or `*` for peers that check as `*`/their own name). */
  agent: string;
  report: CrawlerReport | null;
  skipped?: string;
  failed?: string;
  pages: number;
  reachable: number;
  missed: number;
  disallowed: number;
  repeated: number;
  /** First to last request in the test web's log. */
  fetchSpanMs: number;
  /** CPU the test web (this process) spent serving the crawl. */
  webCpuSecs: number;
}

function onlyArg(args: string[]): Set<Crawler> {
  const index = args.indexOf('--only');
  if (index === -1) return new Set(CRAWLERS);
  const chosen = new Set<Crawler>();
  for (const name of (args[index + 1] ?? '').split(',').filter(Boolean)) {
    if (name === 'trawl') {
      chosen.add('trawl-pg');
      chosen.add('trawl-redis');
    } else if ((CRAWLERS as readonly string[]).includes(name)) chosen.add(name as Crawler);
    else throw new Error(`--only: unknown crawler "${name}" (known: trawl, ${CRAWLERS.join(', ')})`);
  }
  return chosen;
}

/**
 * The test web is code in this process too: the first crawler to hit it would pay for its JIT warm-up
 * (and trawl-pg always runs first). A few thousand requests before any crawler level the field; the web's
 * request log is reset per crawler, so they count for nobody.
 */
const WARM_UP_PAGES = 3000;
async function warmUp(urls: string[]): Promise<void> {
  let next = 0;
  const fetchSome = async () => {
    while (next < urls.length) {
      const response = await fetch(urls[next++]!);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 16 }, fetchSome));
}

/** Forks a TypeScript child (bench/peers/<file>) that answers with one IPC message { report } or { error }. */
function forkChild(file: string, options: CrawlChildOptions): Promise<CrawlerReport> {
  return new Promise((resolve, reject) => {
    const child = fork(join(PEERS_DIR, file), ['--child', JSON.stringify(options)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let answer: { report?: CrawlerReport; error?: string } = {};
    child.once('message', (message) => {
      answer = message as typeof answer;
    });
    settleChild(
      child,
      file,
      resolve,
      reject,
      () => answer.report ?? null,
      () => answer.error ?? null,
    );
  });
}

/** Resolves with `report()` once the child has exited; rejects when it has none (or runs too long). */
function settleChild(
  child: ChildProcess,
  name: string,
  resolve: (report: CrawlerReport) => void,
  reject: (error: Error) => void,
  report: () => CrawlerReport | null,
  failure: () => string | null = () => null,
): void {
  const timer = setTimeout(() => {
    child.kill('SIGKILL');
    reject(new Error(`${name} ran over ${CHILD_TIMEOUT_MS / 1000} s and was killed`));
  }, CHILD_TIMEOUT_MS);
  child.once('error', (error) => {
    clearTimeout(timer);
    reject(error);
  });
  child.once('exit', (code, signal) => {
    clearTimeout(timer);
    let result: CrawlerReport | null = null;
    try {
      result = report();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (result) resolve(result);
    else reject(new Error(failure() ?? `${name} exited with ${code ?? signal} and reported nothing`));
  });
}

/** The first Python that imports scrapy: $PYTHON, python3 on PATH, then Debian's own (pyenv may shadow it). */
function findScrapyPython(): string | null {
  const candidates = [process.env.PYTHON, 'python3', '/usr/bin/python3'].filter(
    (candidate): candidate is string => Boolean(candidate),
  );
  for (const python of candidates) {
    const probe = spawnSync(python, ['-c', 'import scrapy'], { stdio: 'ignore' });
    if (probe.status === 0) return python;
  }
  return null;
}

function runScrapy(python: string, options: CrawlChildOptions): Promise<CrawlerReport> {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-bench-scrapy-'));
  const itemsPath = join(dir, 'items.jsonl');
  const args = [
    '-m',
    'scrapy',
    'runspider',
    join(PEERS_DIR, 'scrapy_spider.py'),
    '-a',
    `origins=${options.origins.join(',')}`,
    '-a',
    `seeds=${options.seeds.join(',')}`,
    '-s',
    `CONCURRENT_REQUESTS=${options.concurrency}`,
    '-s',
    `CONCURRENT_REQUESTS_PER_DOMAIN=${options.concurrency}`,
    '-s',
    `CLOSESPIDER_PAGECOUNT=${options.maxPages}`,
    '-O',
    itemsPath,
  ];
  return new Promise<CrawlerReport>((resolve, reject) => {
    const child = spawn(python, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    // Scrapy logs to stderr; keep its tail for a failure message and its closing stats.
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-20_000);
    });
    settleChild(
      child,
      'scrapy',
      resolve,
      (error) => reject(new Error(`${error.message}\n${stderr.slice(-3000)}`)),
      () => {
        const line = stdout.split('\n').find((text) => text.startsWith('RESULT '));
        if (!line) return null;
        const report = JSON.parse(line.slice('RESULT '.length)) as CrawlerReport;
        const items = readFileSync(itemsPath, 'utf8').split('\n').filter(Boolean).length;
        const errors = /'log_count\/ERROR': (\d+)/.exec(stderr)?.[1] ?? '0';
        return { ...report, notes: `${report.notes}, items file ${items} lines, log ERRORs ${errors}` };
      },
    );
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Where a profiled function lives: a package, a trawl source file, Node's internals or V8's buckets. */
function codeArea(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(src|bench|test)\/(.*)$/.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  if (url.startsWith('node:')) return url.replace(/^node:internal\/(deps\/)?/, 'node:').split('/')[0]!;
  return url;
}

/** Self time of a .cpuprofile by code area and by function, the largest first. */
function summarizeCpuProfile(path: string, top = 12): string {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  // Native self time says little by itself ("write", "parse"): charge it to the JavaScript that called it.
  const nativeByCaller = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const us = profile.timeDeltas[index] ?? 0;
    if (!node || node.callFrame.functionName === '(idle)') return;
    totalUs += us;
    const area = codeArea(node.callFrame.url, node.callFrame.functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${area}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    if (area !== '(native)') return;
    let caller = parentOf.get(node.id);
    while (caller && !caller.callFrame.url) caller = parentOf.get(caller.id);
    if (!caller) return;
    const callerArea = codeArea(caller.callFrame.url, caller.callFrame.functionName);
    const callerName = `${node.callFrame.functionName} ← ${caller.callFrame.functionName || '(anonymous)'} ${callerArea}:${caller.callFrame.lineNumber + 1}`;
    nativeByCaller.set(callerName, (nativeByCaller.get(callerName) ?? 0) + us);
  });
  const list = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([name, us]) =>
          `    ${((us / totalUs) * 100).toFixed(1).padStart(5)}%  ${(us / 1e6).toFixed(2).padStart(6)} s  ${name}`,
      )
      .join('\n');
  return `  busy (non-idle) samples ${(totalUs / 1e6).toFixed(1)} s\n  by area:\n${list(byArea)}\n  by function:\n${list(byFunction)}\n  native time by caller:\n${list(nativeByCaller)}\n`;
}

function printProfile(crawler: Crawler, row: Row, cpuProfileDir: string): void {
  process.stdout.write(`\n--- profile of ${crawler} (${row.pages} pages)\n`);
  const statements = row.report?.statements;
  if (statements) {
    const entries = Object.entries(statements).sort((a, b) => b[1].count - a[1].count);
    const total = entries.reduce((sum, [, s]) => sum + s.count, 0);
    process.stdout.write(
      `  PostgreSQL statements: ${total} (${(total / Math.max(1, row.pages)).toFixed(1)} per page fetched)\n`,
    );
    for (const [name, s] of entries.slice(0, 20)) {
      process.stdout.write(
        `    ${String(s.count).padStart(7)}  ${(s.count / Math.max(1, row.pages)).toFixed(2).padStart(6)}/page  ` +
          `${(s.ms / s.count).toFixed(2).padStart(7)} ms avg  ${name}\n`,
      );
    }
  }
  for (const file of readdirSync(cpuProfileDir).filter((name) => name.endsWith('.cpuprofile'))) {
    process.stdout.write(`  CPU profile ${file}:\n${summarizeCpuProfile(join(cpuProfileDir, file))}`);
  }
}

function redisReachable(redisUrl: string): Promise<boolean> {
  const url = new URL(redisUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function measureCrawler(
  web: TestWeb,
  crawler: Crawler,
  reachable: Map<string, Set<string>>,
  crawl: () => Promise<CrawlerReport>,
): Promise<Row> {
  const agent = crawler.startsWith('trawl') ? 'trawl' : '*';
  web.resetLog();
  const cpuBefore = process.cpuUsage();
  let report: CrawlerReport | null = null;
  let failed: string | undefined;
  try {
    report = await crawl();
  } catch (error) {
    failed = error instanceof Error ? error.message : String(error);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const fetched = loggedPageUrls(web);
  const truth = reachable.get(agent) ?? new Set<string>();
  const requested = new Set([...fetched].map((url) => new URL(url).href));
  const times = web.log.map((entry) => entry.at);
  return {
    crawler,
    agent,
    report,
    ...(failed ? { failed } : {}),
    pages: fetched.size,
    reachable: truth.size,
    missed: [...truth].filter((url) => !requested.has(url)).length,
    disallowed: countDisallowedRequests(web, agent),
    repeated: countRepeatedRequests(web),
    fetchSpanMs: times.length ? Math.max(...times) - Math.min(...times) : 0,
    webCpuSecs: (cpu.user + cpu.system) / 1e6,
  };
}

function serverCpu(report: CrawlerReport): number {
  return Object.values(report.serverCpuSecs).reduce((sum, secs) => sum + secs, 0);
}

function pagesPerSecond(row: Row): number | null {
  return row.report && row.report.crawlMs > 0 ? row.pages / (row.report.crawlMs / 1000) : null;
}

function printTable(rows: Row[]): void {
  const header = [
    'crawler',
    'pages',
    'missed',
    'crawl s',
    'pages/s',
    'fetch span s',
    'peak RSS MB',
    'CPU s',
    'CPU ms/page',
    'server CPU s',
    'server ms/page',
    'web CPU s',
    'disallowed',
    'repeated',
  ];
  const body = rows.map((row) => {
    const r = row.report;
    const pps = pagesPerSecond(row);
    const server = r
      ? Object.entries(r.serverCpuSecs)
          .map(([name, secs]) => `${name} ${secs.toFixed(1)}`)
          .join(', ') || '-'
      : '-';
    if (row.skipped) return [row.crawler, `skipped: ${row.skipped}`, ...Array(header.length - 2).fill('')];
    return [
      row.crawler,
      String(row.pages),
      `${row.missed}/${row.reachable}`,
      r ? (r.crawlMs / 1000).toFixed(1) : 'failed',
      pps === null ? '-' : pps.toFixed(0),
      (row.fetchSpanMs / 1000).toFixed(1),
      r ? r.peakRssMiB.toFixed(0) : '-',
      r ? r.cpuSecs.toFixed(1) : '-',
      r && row.pages ? ((r.cpuSecs * 1000) / row.pages).toFixed(2) : '-',
      server,
      r && row.pages ? ((serverCpu(r) * 1000) / row.pages).toFixed(2) : '-',
      row.webCpuSecs.toFixed(1),
      String(row.disallowed),
      String(row.repeated),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  process.stdout.write(`${line(header)}\n${body.map((cells) => line(cells as string[])).join('\n')}\n`);
}

function printRatios(rows: Row[]): void {
  const rate = (crawler: Crawler) => {
    const row = rows.find((candidate) => candidate.crawler === crawler);
    return row ? pagesPerSecond(row) : null;
  };
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  for (const trawl of ['trawl-pg', 'trawl-redis'] as const) {
    const ours = rate(trawl);
    const row = rows.find((candidate) => candidate.crawler === trawl);
    if (ours === null || !row) continue;
    const parts: string[] = [];
    const crawlee = rate('crawlee');
    const scrapy = rate('scrapy');
    if (crawlee !== null) {
      const ratio = ours / crawlee;
      parts.push(
        `${ratio.toFixed(2)}× Crawlee (target ≥ ${TARGETS.vsCrawlee}×: ${verdict(ratio >= TARGETS.vsCrawlee)})`,
      );
    }
    if (scrapy !== null) {
      const ratio = ours / scrapy;
      parts.push(
        `${ratio.toFixed(2)}× Scrapy (target ≥ ${TARGETS.vsScrapy}×: ${verdict(ratio >= TARGETS.vsScrapy)})`,
      );
    }
    parts.push(`disallowed fetches ${row.disallowed} (target 0: ${verdict(row.disallowed === 0)})`);
    process.stdout.write(`${trawl}: ${parts.join('; ')}\n`);
  }
}

export async function run(args: string[]): Promise<void> {
  const webProfile = stringArg(args, '--web', 'plain');
  if (webProfile !== 'plain' && webProfile !== 'realistic')
    throw new Error('--web expects plain or realistic');
  const realistic = webProfile === 'realistic';
  const hosts = numberArg(args, '--hosts', 8);
  const pagesPerHost = numberArg(args, '--pages-per-host', realistic ? 1000 : 2000);
  const linksPerPage = numberArg(args, '--links-per-page', realistic ? 30 : 8);
  const concurrency = numberArg(args, '--concurrency', 64);
  const workers = numberArg(args, '--workers', 2);
  const seed = numberArg(args, '--seed', 42);
  const runs = numberArg(args, '--runs', 1);
  const only = onlyArg(args);
  const profile = args.includes('--profile');
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

  const web = await startTestWeb({
    hosts,
    pagesPerHost,
    linksPerPage,
    features: BENCHMARK_FEATURES,
    seed,
    profile: webProfile,
  });
  const allRuns: Row[][] = [];
  try {
    const reachable = new Map<string, Set<string>>();
    for (const agent of ['trawl', '*']) {
      reachable.set(agent, web.groundTruth({ maxDepth: null, sitemaps: false, userAgent: agent }).fetched);
    }
    // Room for every page plus robots-disallowed links (they are recorded, and counted against the budget).
    const maxPages = hosts * pagesPerHost * 2 + 1000;
    const options: CrawlChildOptions = {
      seeds: web.seeds,
      origins: web.hosts,
      concurrency,
      maxPages,
      workers,
    };
    process.stdout.write(
      `test web: ${webProfile} profile, ${hosts} hosts × ${pagesPerHost} pages (seed ${seed}, ` +
        `${realistic ? '30–120 KB pages with 50–150 links: menus, footers, scripts, styles, articles' : `plain pages with ~${linksPerPage} links`} + robots.txt), ` +
        `${reachable.get('trawl')?.size} page URLs a robots-obeying crawler named "trawl" fetches, ` +
        `${reachable.get('*')?.size} for "*"; concurrency ${concurrency}, delay 0, robots obeyed, ` +
        `trawl stores HTML (raw, compressed by PostgreSQL) with ${workers} runner jobs; ${runs} run(s)\n` +
        `peers' settings: Crawlee CheerioCrawler min/maxConcurrency ${concurrency}, in-memory storage, robots.txt ` +
        `obeyed; Scrapy CONCURRENT_REQUESTS and _PER_DOMAIN ${concurrency}, DOWNLOAD_DELAY 0, AUTOTHROTTLE off, ` +
        'ROBOTSTXT_OBEY on, items to JSON lines (bench/peers/)\n',
    );

    await warmUp([...(reachable.get('*') ?? [])].slice(0, WARM_UP_PAGES));

    const order = CRAWLERS.filter((crawler) => only.has(crawler));
    for (let runIndex = 0; runIndex < runs; runIndex++) {
      // rotate who goes first: a machine that warms up or slows down over a run favours nobody
      const rotated = order.map((_, i) => order[(i + runIndex) % order.length]!);
      if (runs > 1) process.stdout.write(`\n=== run ${runIndex + 1} of ${runs}: ${rotated.join(', ')}\n`);
      const rows: Row[] = [];
      for (const crawler of rotated) {
        rows.push(await runCrawler(crawler, { web, reachable, options, profile, redisUrl }));
      }
      allRuns.push(rows);
      process.stdout.write('\n');
      printTable(CRAWLERS.flatMap((crawler) => rows.filter((row) => row.crawler === crawler)));
    }
  } finally {
    await web.close();
  }

  process.stdout.write(
    '\npages: page URLs requested (test web log, robots.txt excluded); missed: reachable URLs never requested; ' +
      'pages/s = pages / crawl s (crawl start to the crawler reporting done, process start-up excluded); ' +
      'CPU s: the crawler process over the crawl (trawl: API + worker + its pg/BullMQ clients); ' +
      'server CPU s: PostgreSQL backends of the run + background writers, and the whole redis-server; ' +
      'ms/page: those CPU seconds per page requested; ' +
      'web CPU s: the test web serving it (this process); disallowed: robots.txt-forbidden URLs requested, ' +
      'judged for the group the crawler reads ("trawl" for trawl, "*" for the peers); repeated: URLs requested twice.\n\n',
  );
  if (allRuns.length === 1) printRatios(allRuns[0]!);
  else printMedians(allRuns);
  const failures = allRuns.flat().filter((row) => row.failed);
  if (failures.length > 0)
    throw new Error(`crawler(s) failed: ${failures.map((row) => row.crawler).join(', ')}`);
}

async function runCrawler(
  crawler: Crawler,
  context: {
    web: TestWeb;
    reachable: Map<string, Set<string>>;
    options: CrawlChildOptions;
    profile: boolean;
    redisUrl: string;
  },
): Promise<Row> {
  const { web, reachable, options, profile, redisUrl } = context;
  let crawl: (() => Promise<CrawlerReport>) | null = null;
  let skipped: string | null = null;
  const cpuProfileDir =
    profile && crawler.startsWith('trawl') ? mkdtempSync(join(tmpdir(), 'trawl-bench-prof-')) : undefined;
  const trawlOptions = {
    ...options,
    profile,
    // DATABASE_URL picks another PostgreSQL (one with pg_stat_statements, say); default the local test database
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    ...(cpuProfileDir ? { cpuProfilePath: join(cpuProfileDir, 'crawl.cpuprofile') } : {}),
  };
  if (crawler === 'trawl-pg') crawl = () => forkChild('trawl.ts', { ...trawlOptions, redisUrl: null });
  if (crawler === 'trawl-redis') {
    if (await redisReachable(redisUrl)) crawl = () => forkChild('trawl.ts', { ...trawlOptions, redisUrl });
    else skipped = `no Redis at ${redisUrl}`;
  }
  if (crawler === 'crawlee') crawl = () => forkChild('crawlee.ts', options);
  if (crawler === 'scrapy') {
    const python = findScrapyPython();
    if (python) crawl = () => runScrapy(python, options);
    else skipped = 'python3 cannot import scrapy (apt-get install python3-scrapy)';
  }
  if (!crawl) {
    process.stdout.write(`${crawler}: skipped: ${skipped}\n`);
    return { ...emptyRow(crawler), skipped: skipped ?? 'not run' };
  }
  process.stdout.write(`${crawler}: crawling…\n`);
  const row = await measureCrawler(web, crawler, reachable, crawl);
  if (row.failed) process.stdout.write(`${crawler}: FAILED: ${row.failed}\n`);
  else process.stdout.write(`${crawler}: ${row.report?.notes}\n`);
  const text = row.report?.textJob;
  if (text && row.pages > 0) {
    process.stdout.write(
      `${crawler}: text job after the crawl: ${(text.ms / 1000).toFixed(1)} s, CPU ` +
        `${((text.cpuSecs * 1000) / row.pages).toFixed(2)} ms/page + PostgreSQL ` +
        `${((text.serverCpuSecs * 1000) / row.pages).toFixed(2)} ms/page (not in the crawl's figures)\n`,
    );
  }
  if (cpuProfileDir) {
    printProfile(crawler, row, cpuProfileDir);
    rmSync(cpuProfileDir, { recursive: true, force: true });
  }
  return row;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Over several runs: each crawler's median pages/s and CPU per page, and the median of per-run ratios. */
function printMedians(runs: Row[][]): void {
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const rateIn = (rows: Row[], crawler: Crawler) => {
    const row = rows.find((candidate) => candidate.crawler === crawler);
    return row ? pagesPerSecond(row) : null;
  };
  process.stdout.write(`medians over ${runs.length} runs:\n`);
  for (const crawler of CRAWLERS) {
    const rows = runs.flatMap((rowsOfRun) =>
      rowsOfRun.filter((row) => row.crawler === crawler && row.report),
    );
    if (rows.length === 0) continue;
    const rates = rows.map((row) => pagesPerSecond(row)!).filter((rate) => rate !== null);
    const cpu = rows.map((row) => (row.report!.cpuSecs * 1000) / Math.max(1, row.pages));
    const server = rows.map((row) => (serverCpu(row.report!) * 1000) / Math.max(1, row.pages));
    const rss = rows.map((row) => row.report!.peakRssMiB);
    const textRows = rows.filter((row) => row.report!.textJob);
    const textCpu = textRows.map(
      (row) =>
        ((row.report!.textJob!.cpuSecs + row.report!.textJob!.serverCpuSecs) * 1000) / Math.max(1, row.pages),
    );
    const textJob =
      textCpu.length > 0
        ? `; then the text job ${median(textCpu)?.toFixed(2)} ms/page (worker + PostgreSQL)`
        : '';
    process.stdout.write(
      `  ${crawler.padEnd(12)} ${median(rates)?.toFixed(0).padStart(5)} pages/s (runs: ${rates.map((rate) => rate.toFixed(0)).join(', ')}), ` +
        `CPU ${median(cpu)?.toFixed(2)} ms/page + server ${median(server)?.toFixed(2)} ms/page, peak RSS ${median(rss)?.toFixed(0)} MB${textJob}\n`,
    );
  }
  for (const trawl of ['trawl-pg', 'trawl-redis'] as const) {
    const parts: string[] = [];
    for (const [peer, target] of [
      ['crawlee', TARGETS.vsCrawlee],
      ['scrapy', TARGETS.vsScrapy],
    ] as const) {
      const ratios = runs
        .map((rows) => {
          const ours = rateIn(rows, trawl);
          const theirs = rateIn(rows, peer);
          return ours !== null && theirs !== null && theirs > 0 ? ours / theirs : null;
        })
        .filter((ratio): ratio is number => ratio !== null);
      const middle = median(ratios);
      if (middle === null) continue;
      parts.push(
        `${middle.toFixed(2)}× ${peer} (median of ${ratios.map((ratio) => ratio.toFixed(2)).join(', ')}; ` +
          `target ≥ ${target}×: ${verdict(middle >= target)})`,
      );
    }
    const disallowed = runs
      .flat()
      .filter((row) => row.crawler === trawl)
      .reduce((sum, row) => sum + row.disallowed, 0);
    if (parts.length || runs.flat().some((row) => row.crawler === trawl && row.report)) {
      parts.push(`disallowed fetches ${disallowed} in all runs (target 0: ${verdict(disallowed === 0)})`);
      process.stdout.write(`${trawl}: ${parts.join('; ')}\n`);
    }
  }
}

function emptyRow(crawler: Crawler): Row {
  return {
    crawler,
    agent: '',
    report: null,
    pages: 0,
    reachable: 0,
    missed: 0,
    disallowed: 0,
    repeated: 0,
    fetchSpanMs: 0,
    webCpuSecs: 0,
  };
}
