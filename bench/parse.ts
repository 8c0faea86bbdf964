// parseHtml's cost on ordinary pages (Mozilla Readability's 130 test pages) and on hostile nesting, beside the
// same parse driven by htmlparser2's Parser (its open-element stack is quadratic in nesting depth; parseHtml
// now uses walkHtml). Targets: nesting costs nothing extra, i.e. a page of deeply nested tags parses within 3×
// the time of a page of as many bytes of flat tags (a page made only of tags costs several times an ordinary
// page per MB, with either parser: that is per tag, not per depth); and walkHtml is not slower than the Parser
// on ordinary pages (within 10%). Args: --passes N (timed passes over the 130 pages, default 5).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Parser } from 'htmlparser2';
import { type HtmlEventHandler, walkHtml } from '../src/crawler/parse/html-events.js';
import { parseHtmlEvents } from '../src/crawler/parse/parse-html.js';
import { sharedDataPath } from '../test/support/shared-data.js';
import { numberArg } from './args.js';

const PAGES_DIR = sharedDataPath('readability-test-pages/');
/** The Parser is skipped above this size: quadratic in unclosed tags, it would take hours on larger pages. */
const PARSER_MAX_CHARS = 400_000;
const MAX_NESTING_RATIO = 3;

type Walk = (html: string, handler: HtmlEventHandler) => void;

function parserWalk(html: string, handler: HtmlEventHandler): void {
  new Parser(handler, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }).end(html);
}

function timeMs(walk: Walk, pages: string[]): number {
  const started = performance.now();
  for (const html of pages) parseHtmlEvents(walk, html, 'https://example.com/');
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const mb = (chars: number): number => chars / 1_048_576;

export async function run(args: string[]): Promise<void> {
  const passes = numberArg(args, '--passes', 5);
  const pages = readdirSync(PAGES_DIR)
    .sort()
    .map((name) => `${PAGES_DIR}${name}/source.html`)
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path, 'utf8'));
  const pagesMb = mb(pages.reduce((sum, html) => sum + html.length, 0));
  const ordinary: Record<string, number> = {};
  for (const [label, walk] of [
    ['walkHtml', walkHtml],
    ['Parser', parserWalk],
  ] as const) {
    timeMs(walk, pages); // warm-up
    const ms = median(Array.from({ length: passes }, () => timeMs(walk, pages)));
    ordinary[label] = ms / pagesMb;
    process.stdout.write(
      `${pages.length} pages (${pagesMb.toFixed(1)} MB), ${label}: ${ms.toFixed(0)} ms, ${(ms / pagesMb).toFixed(0)} ms/MB\n`,
    );
  }

  const tail = '<p>after <a href="/x1">x1</a> <a href="/x2">x2</a></p>';
  const tenMiB = 10 * 1_048_576;
  /** Flat tags of the same length as `html`: `<tag></tag>` repeated. */
  const flat = (tag: string, html: string): string =>
    `<${tag}></${tag}>`.repeat(Math.ceil(html.length / (2 * tag.length + 5))).slice(0, html.length);
  const hostile: Array<[string, string, string]> = [
    ['64,000 unclosed <div>', `${'<div>'.repeat(64_000)}${tail}`, 'div'],
    ['32,000 <span> + 32,000 </b>', `${'<span>'.repeat(32_000)}${'</b>'.repeat(32_000)}${tail}`, 'span'],
    ['10 MiB of unclosed <div>', `${'<div>'.repeat(tenMiB / 5)}${tail}`, 'div'],
    [
      '10 MiB of <span> then </b>',
      `${'<span>'.repeat(Math.floor(tenMiB / 12))}${'</b>'.repeat(tenMiB / 8)}${tail}`,
      'span',
    ],
  ];
  let worstRatio = 0;
  for (const [label, html, tag] of hostile) {
    const ms = timeMs(walkHtml, [html]);
    const flatMs = timeMs(walkHtml, [flat(tag, html)]);
    worstRatio = Math.max(worstRatio, ms / flatMs);
    const perMb = ms / mb(html.length) / (ordinary.walkHtml as number);
    const parser =
      html.length <= PARSER_MAX_CHARS ? `; Parser ${timeMs(parserWalk, [html]).toFixed(0)} ms` : '';
    process.stdout.write(
      `${label} (${mb(html.length).toFixed(2)} MB): walkHtml ${ms.toFixed(0)} ms, flat <${tag}></${tag}> as long ${flatMs.toFixed(0)} ms (${perMb.toFixed(1)}× an ordinary page per MB)${parser}\n`,
    );
  }
  const nestingMet = worstRatio <= MAX_NESTING_RATIO;
  const ordinaryMet = (ordinary.walkHtml as number) <= (ordinary.Parser as number) * 1.1;
  process.stdout.write(
    `nested ≤ ${MAX_NESTING_RATIO}× flat tags: ${nestingMet ? 'met' : 'NOT met'} (worst ${worstRatio.toFixed(1)}×); ` +
      `walkHtml within 10% of the Parser on ordinary pages: ${ordinaryMet ? 'met' : 'NOT met'}\n`,
  );
}
