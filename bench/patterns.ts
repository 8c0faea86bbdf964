// User scope patterns on RE2 (CrawlScope) beside V8's RegExp measured in the same run, and the sitemap reader
// on hostile files. Prints µs per URL check for typical pattern lists (each URL new, then each URL again:
// the verdict cache), the hostile patterns of the scope tests on their worst inputs (V8 only where it ends:
// short runs, to show its growth), the costliest pattern the program budget admits, and sitemap parse times.
// `npm run bench -- patterns [--urls N]` (N above the scope's 10,000 remembered verdicts: no cache hits)
import { RE2JS } from 're2js';
import { CrawlScope } from '../src/crawler/frontier/scope.js';
import {
  MAX_PATTERN_PROGRAM_SIZE,
  MAX_PATTERN_URL_LENGTH,
  patternBudget,
  UrlPatternList,
} from '../src/crawler/frontier/url-patterns.js';
import { parseSitemap } from '../src/crawler/sitemap/parse.js';
import { numberArg } from './args.js';

const ORIGIN = 'https://example.com';

function timeMs(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

/** Canonical URLs (canonicalizeUrl leaves them as they are). */
function typicalUrls(count: number): string[] {
  const sections = ['blog', 'news', 'shop', 'en/docs', 'de/hilfe', 'private', 'tag'];
  return Array.from(
    { length: count },
    (_, i) =>
      `${ORIGIN}/${sections[i % sections.length]}/${2000 + (i % 25)}/item-${i}${i % 5 === 0 ? '.pdf' : '.html'}${i % 3 === 0 ? `?page=${i % 7}` : ''}`,
  );
}

function compareTypical(urls: string[]): void {
  const lists: Array<{ name: string; include: string[]; exclude: string[] }> = [
    { name: '2 patterns', include: ['/blog/', '/news/'], exclude: [] },
    {
      name: '6 patterns',
      include: ['^https?://[^/]+/(blog|news|en/docs)/', '/20(0[0-9]|1[0-9])/'],
      exclude: ['\\.pdf$', '/private/', '[?&]page=[3-6]', '/tag/'],
    },
    {
      name: '16 patterns',
      include: Array.from({ length: 8 }, (_, i) => `/item-${i}[0-9]*\\.html`),
      exclude: Array.from({ length: 8 }, (_, i) => `/20${String(i).padStart(2, '0')}/item-[0-9]*5\\.`),
    },
  ];
  process.stdout.write(`typical lists, ${urls.length} distinct canonical URLs (µs per URL)\n`);
  process.stdout.write(
    'list           V8 RegExp   RE2 lists   check, no patterns   check, patterns   again (cached)\n',
  );
  const bare = new CrawlScope({ seeds: [`${ORIGIN}/`] });
  for (const list of lists) {
    const include = list.include.map((source) => new RegExp(source));
    const exclude = list.exclude.map((source) => new RegExp(source));
    const admitV8 = (url: string) =>
      !exclude.some((regex) => regex.test(url)) &&
      (include.length === 0 || include.some((regex) => regex.test(url)));
    const budget = patternBudget();
    const includeRe2 = UrlPatternList.compile(list.include, 'include', budget);
    const excludeRe2 = UrlPatternList.compile(list.exclude, 'exclude', budget);
    const admitRe2 = (url: string) =>
      !excludeRe2.matches(url) && (includeRe2.isEmpty || includeRe2.matches(url));
    const scope = new CrawlScope({ seeds: [`${ORIGIN}/`], include: list.include, exclude: list.exclude });
    let v8In = 0;
    let re2In = 0;
    let scopeIn = 0;
    const v8Ms = timeMs(() => {
      for (const url of urls) if (admitV8(url)) v8In++;
    });
    const re2Ms = timeMs(() => {
      for (const url of urls) if (admitRe2(url)) re2In++;
    });
    const bareMs = timeMs(() => {
      for (const url of urls) bare.check(url, 1);
    });
    const firstMs = timeMs(() => {
      for (const url of urls) if (scope.check(url, 1).inScope) scopeIn++;
    });
    const againMs = timeMs(() => {
      for (const url of urls) scope.check(url, 1);
    });
    if (v8In !== re2In || v8In !== scopeIn) {
      throw new Error(`${list.name}: V8 admits ${v8In} URLs, RE2 ${re2In}, the scope ${scopeIn}`);
    }
    const perUrl = (ms: number, width: number) => ((ms * 1000) / urls.length).toFixed(2).padStart(width);
    process.stdout.write(
      `${list.name.padEnd(12)} ${perUrl(v8Ms, 10)}  ${perUrl(re2Ms, 10)}  ${perUrl(bareMs, 19)}  ${perUrl(firstMs, 16)}  ${perUrl(againMs, 15)}\n`,
    );
  }
}

function hostilePatterns(): void {
  const cases: Array<{ pattern: string; path: (n: number) => string; v8Sizes: number[] }> = [
    { pattern: '(a|a)+$', path: (n) => `/${'a'.repeat(n)}!`, v8Sizes: [18, 20, 22] },
    { pattern: '(?:a|a)*b', path: (n) => `/${'a'.repeat(n)}!`, v8Sizes: [18, 20, 22] },
    { pattern: '([a-z]|[a-z0-9])+\\.x$', path: (n) => `/${'a'.repeat(n)}!`, v8Sizes: [14, 16, 18] },
    { pattern: '(a|aa)+$', path: (n) => `/${'a'.repeat(n)}!`, v8Sizes: [26, 28, 30] },
    { pattern: '.*.*.*.*.*x$', path: (n) => `/${'a'.repeat(n)}!`, v8Sizes: [25, 50, 75] },
    { pattern: 'a*a*a*a*a*a*a*b', path: (n) => `/${'a'.repeat(n)}!`, v8Sizes: [12, 25, 40] },
  ];
  process.stdout.write(
    '\nhostile patterns (ms per URL check; RE2 on runs of 40, 1,000 and 100,000 "a", the last out of scope by its length)\n',
  );
  for (const { pattern, path, v8Sizes } of cases) {
    const v8 = v8Sizes
      .map((n) => {
        const regex = new RegExp(pattern);
        const url = `${ORIGIN}${path(n)}`;
        return `n=${n}: ${timeMs(() => regex.test(url)).toFixed(1)}`;
      })
      .join(', ');
    const scope = new CrawlScope({ seeds: [`${ORIGIN}/`], exclude: [pattern] });
    const re2 = [40, 1000, 100_000]
      .map((n) => timeMs(() => scope.check(`${ORIGIN}${path(n)}`, 1)).toFixed(2))
      .join(' / ');
    process.stdout.write(`${pattern.padEnd(24)} RE2 ${re2}   V8 ${v8}\n`);
  }
  // The costliest kind of pattern within the program budget: a DFA that needs a new state per character.
  // Before: a 1000-instruction budget and patterns run on URLs of any length; after: 300 instructions, and
  // URLs past MAX_PATTERN_URL_LENGTH are out of scope without a match (each URL is new: no verdict cache).
  let seed = 7;
  const letter = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed & 1024 ? 'a' : 'b';
  };
  const worst = (check: (url: string) => void, length: number): number => {
    const times = Array.from({ length: 5 }, () => {
      const url = `${ORIGIN}/${Array.from({ length: length - ORIGIN.length - 1 }, letter).join('')}`;
      return timeMs(() => check(url));
    }).sort((a, b) => a - b);
    return times[2] ?? 0;
  };
  const before = '(a|b)*a(a|b){300}x';
  // compiled directly: the budget now refuses it
  const beforeProgram = RE2JS.compile(before);
  const after = '(a|b)*a(a|b){97}x';
  const afterScope = new CrawlScope({ seeds: [`${ORIGIN}/`], exclude: [after] });
  process.stdout.write(`worst pattern a budget admits, random a/b URLs (median of 5, ms per URL check)\n`);
  for (const length of [200, MAX_PATTERN_URL_LENGTH, 2048, 8192]) {
    const beforeMs = worst((url) => beforeProgram.test(url), length);
    const afterMs = worst((url) => afterScope.check(url, 1), length);
    process.stdout.write(
      `  ${String(length).padStart(5)}-char URL: before (${before}, 1000 budget, any length) ${beforeMs.toFixed(1)}   after (${after}, ${MAX_PATTERN_PROGRAM_SIZE} budget, ≤ ${MAX_PATTERN_URL_LENGTH} chars) ${afterMs.toFixed(1)}   ratio ${(beforeMs / Math.max(afterMs, 0.001)).toFixed(1)}×\n`,
    );
  }
}

function sitemaps(): void {
  const url = `${ORIGIN}/sitemap.xml`;
  const unclosed = (n: number) =>
    `<urlset>${Array.from({ length: n }, (_, i) => `<url><loc>${ORIGIN}/p${i}</loc>`).join('')}`;
  const cases: Array<[string, string]> = [
    ['650 KB of unclosed <url>', `<urlset>${'<url>'.repeat(130_000)}`],
    ['6.5 MB of unclosed <url>', `<urlset>${'<url>'.repeat(1_300_000)}`],
    ['20,000 entries without </url> (810 KB)', unclosed(20_000)],
    [
      '50,000 well-formed entries',
      `<urlset>${Array.from({ length: 50_000 }, (_, i) => `<url><loc>${ORIGIN}/p${i}</loc><lastmod>2024-01-01</lastmod></url>`).join('')}</urlset>`,
    ],
  ];
  process.stdout.write('\nsitemaps (ms per parse)\n');
  for (const [name, xml] of cases) {
    let entries = 0;
    const ms = timeMs(() => {
      entries = parseSitemap(xml, url).urls.length;
    });
    process.stdout.write(`${name.padEnd(42)} ${ms.toFixed(0).padStart(6)} ms, ${entries} URLs\n`);
  }
}

export async function run(args: string[]): Promise<void> {
  const urls = typicalUrls(numberArg(args, '--urls', 8000));
  compareTypical(urls);
  hostilePatterns();
  sitemaps();
}
