// Human-readable renderings of the API's answers for a terminal. Every command prints the API's JSON instead
// when piped or given --json; these are only what a person reads.
import { CHANGE_CLASSES, PAGE_TYPES } from '../crawler/vocabulary.js';
import type { CrawlStatus, PageSummary } from '../schemas/crawls.js';
import type { GraphFigures } from '../schemas/rankings.js';
import type { Schedule } from '../schemas/schedules.js';

export function formatCrawlStatus(status: CrawlStatus): string {
  const lines: string[] = [];
  const strategy =
    typeof status.strategy === 'string' ? status.strategy : String(status.request.strategy ?? 'bfs');
  lines.push(`crawl ${status.id}  ${status.status.toUpperCase()}  (${strategy})`);
  if (status.error) lines.push(`error     ${status.error}`);
  const warnings = Array.isArray(status.warnings) ? (status.warnings as unknown[]) : [];
  for (const warning of warnings) lines.push(`warning   ${String(warning)}`);
  const elapsed = status.elapsedMs === null ? '' : ` · ${(status.elapsedMs / 1000).toFixed(1)} s`;
  lines.push(
    `pages     ${status.pagesFetched} fetched · ${status.frontier} in frontier · ${status.pagesPerSecond.toFixed(1)} pages/s${elapsed}`,
  );
  const types = Object.entries(status.counts)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([type, count]) => `${type} ${count}`);
  if (types.length) lines.push(`types     ${types.join(' · ')}`);
  const codes = Object.entries((status.statusCodes as Record<string, number> | undefined) ?? {}).map(
    ([code, count]) => `${code}: ${count}`,
  );
  if (codes.length) lines.push(`HTTP      ${codes.join(' · ')}`);
  lines.push(`found     ${status.links} links · ${status.images} images · ${status.documents} documents`);
  const load = status.loadMs as { p50: number | null; p95: number | null } | undefined;
  const wait = status.queueWaitMs as { p50: number | null; p95: number | null } | undefined;
  if (load?.p50 != null) {
    lines.push(
      `load      p50 ${ms(load.p50)} · p95 ${ms(load.p95)}   queue wait p50 ${ms(wait?.p50)} · p95 ${ms(wait?.p95)}`,
    );
  }
  if (status.recrawlOf && status.changes) lines.push(formatChangeCounts(status.recrawlOf, status.changes));
  if (status.harvestRate !== undefined) {
    lines.push(
      `harvest   ${(status.harvestRate * 100).toFixed(1)}% (${status.relevantPages ?? 0} relevant pages)`,
    );
  }
  return lines.join('\n');
}

/** A recrawl's counts by change class, in the vocabulary's order, and the crawl it recrawled. */
export function formatChangeCounts(recrawlOf: string, changes: NonNullable<CrawlStatus['changes']>): string {
  const counts = CHANGE_CLASSES.map((change) => `${change} ${changes[change]}`).join(' · ');
  return `changes   ${counts}  (recrawl of ${recrawlOf})`;
}

/** A recrawl's page as `trawl changes` lists it. */
export type ChangedPage = Pick<
  PageSummary,
  'id' | 'url' | 'finalUrl' | 'status' | 'title' | 'change' | 'textChanged' | 'similarity' | 'error'
>;

/**
 * A recrawl's pages with their change class; a changed page says whether its main text changed (a number
 * alone is not) and how alike the two texts are, which stay blank until the text job compared them.
 */
export function formatChangedPages(pages: ChangedPage[], columns: number | undefined): string {
  return formatTable(
    ['CHANGE', 'ID', 'HTTP', 'TEXT', 'SIMILAR', 'TITLE', 'URL'],
    pages.map((page) => [
      page.change ?? '',
      String(page.id),
      httpCell(page),
      page.textChanged === null ? '' : page.textChanged ? 'changed' : 'same',
      page.similarity === null ? '' : page.similarity.toFixed(2),
      clip(page.title ?? '', 24),
      page.url,
    ]),
    columns,
  );
}

/** A page redirected away says so: the status it shows is the redirect's end, not the page's. */
function httpCell(page: ChangedPage): string {
  if (page.finalUrl && page.finalUrl !== page.url) return 'moved';
  return page.status === null ? (page.error ? 'error' : '') : String(page.status);
}

function rank(type: string): number {
  const at = (PAGE_TYPES as readonly string[]).indexOf(type);
  return at < 0 ? PAGE_TYPES.length : at;
}

function ms(value: number | null | undefined): string {
  return value == null ? '–' : `${Math.round(value)} ms`;
}

/** Rows cut to the terminal's width (`columns` of stdout): the URL column takes what the others leave. */
export function formatTable(header: string[], rows: string[][], columns: number | undefined): string {
  const width = columns || 120;
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const last = header.length - 1;
  const fixed = widths.slice(0, last).reduce((sum, w) => sum + w + 2, 0);
  widths[last] = Math.max(10, Math.min(widths[last]!, width - fixed));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => {
        const w = widths[column]!;
        const text = cell.length > w ? `${cell.slice(0, w - 1)}…` : cell;
        return column === last ? text : text.padEnd(w);
      })
      .join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

export function formatScore(score: number | null | undefined): string {
  return score == null ? '' : score.toFixed(3);
}

/** A time as a person reads it in a table or a line: to the minute, in UTC, which the reader is told. */
export const minuteUtc = (iso: string | null): string => (iso ? iso.slice(0, 16).replace('T', ' ') : '');

/** When a schedule runs: its cron expression in its time zone, or its interval. */
export const scheduleWhen = (schedule: Pick<Schedule, 'cron' | 'timezone' | 'every'>): string =>
  schedule.cron ? `${schedule.cron} (${schedule.timezone})` : `every ${schedule.every}`;

/** A schedule in one line, after `verb` was done to it: its id, name, when it runs and its next run in UTC. */
export function formatScheduleLine(schedule: Schedule, verb: string): string {
  const name = schedule.name ? ` "${schedule.name}"` : '';
  const next = schedule.nextRunAt ? `, next run ${minuteUtc(schedule.nextRunAt)} UTC` : '';
  return `schedule ${schedule.id}${name} ${verb}: ${scheduleWhen(schedule)}${next}`;
}

/** Text cut to `length` characters, an ellipsis marking the cut. */
export function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

const real = (value: number) =>
  value === 0 || Math.abs(value) >= 0.001 ? value.toFixed(3) : value.toExponential(2);

/**
 * The structure figures as a network scientist words them ("723 nodes and 13,181 links; average degree
 * 18.231; diameter 121; …"), a line per theme; a diameter that did not close is shown with its bounds.
 */
export function graphFigureLines(graph: GraphFigures): string[] {
  const { components, clustering, diameter } = graph;
  const span = (which: 'directed' | 'undirected') => {
    const { lower, upper } = diameter.bounds[which];
    return lower === upper ? `${lower}` : `${lower}–${upper}`;
  };
  const average =
    diameter.averageShortestPath === null
      ? 'no connected pair searched'
      : `${real(diameter.averageShortestPath)}` +
        (diameter.averageShortestPathSources === graph.vertices
          ? ''
          : ` (estimated from ${diameter.averageShortestPathSources} sources)`);
  return [
    `graph     ${graph.vertices} nodes and ${graph.edges} links; average degree ${real(graph.averageDegree)}; ` +
      `density ${real(graph.density)}; reciprocity ${real(graph.reciprocity)}; ${graph.isolated} isolated`,
    `components ${components.weak.count} weak (largest ${components.weak.largest}), ` +
      `${components.strong.count} strong (largest ${components.strong.largest})`,
    `clustering average ${real(clustering.average)}, transitivity ${real(clustering.transitivity)}`,
    `diameter  ${span('directed')} directed, ${span('undirected')} undirected; average shortest path ${average}` +
      (diameter.exact ? '' : ' (not exact: the searches ran out of budget or time)'),
  ];
}
