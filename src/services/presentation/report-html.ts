// report.html: one self-contained page (inline CSS and SVG, no script, no external asset) that works offline
// and as an e-mail attachment. Everything that comes from a crawled page (URLs, titles, words, errors) is
// hostile: escaped, and linked only when it is an http(s) URL. The server sends it with a CSP that allows
// no script at all, so a mistake here cannot run code.
import { harvestPlotSvg } from '../../crawler/stats/index.js';
import type { ReportPageRow, ScoredPageRow } from '../../db/report-repo.js';
import type { CrawlReport } from '../../schemas/report.js';
import type { WordStats } from '../../schemas/stats.js';

export interface ReportExtras {
  pages: ReportPageRow[];
  rowsAsked: number;
  topScored: ScoredPageRow[];
  topRanked: { vertices: number; top: Array<{ url: string; rank: number; inDegree: number }> } | null;
  words: WordStats | null;
  wordsUnavailable: string | null;
  /** trawl's own plots (crawler/stats/plot.ts): they escape every text they draw */
  wordsSvg: string | null;
  loadTimesSvg: string;
  generatedAt: string;
}

/** The Content-Security-Policy report.html is served with: inline styles only. */
export const REPORT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A link for an http(s) URL; any other text (javascript:, data:, …) is shown, never linked. */
function link(url: string, label = url): string {
  let safe = false;
  try {
    safe = ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    safe = false;
  }
  return safe
    ? `<a href="${escapeHtml(url)}" rel="noopener noreferrer nofollow">${escapeHtml(label)}</a>`
    : escapeHtml(label);
}

const number = (value: number | null | undefined, digits = 1) =>
  value == null ? '–' : value.toLocaleString('en-US', { maximumFractionDigits: digits });

function duration(ms: number | null): string {
  if (ms == null) return '–';
  const seconds = ms / 1000;
  if (seconds < 60) return `${number(seconds, 1)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes} min ${Math.round(seconds % 60)} s`
    : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function table(caption: string, header: string[], rows: string[][], className = ''): string {
  return [
    `<table${className ? ` class="${className}"` : ''}><caption>${escapeHtml(caption)}</caption>`,
    `<thead><tr>${header.map((cell) => `<th scope="col">${escapeHtml(cell)}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('')}</tbody>`,
    '</table>',
  ].join('');
}

/** Two-column rows: a label (escaped here) and an already-safe value. */
function facts(caption: string, rows: Array<[string, string]>): string {
  return [
    `<table class="facts"><caption>${escapeHtml(caption)}</caption><tbody>`,
    ...rows.map(([label, value]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${value}</td></tr>`),
    '</tbody></table>',
  ].join('');
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d1d1f;margin:0;background:#f5f6f8}
main{max-width:1100px;margin:0 auto;padding:24px 28px 48px;background:#fff}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 10px;border-bottom:1px solid #e3e3e3;padding-bottom:4px}
.sub{color:#555;margin:0 0 16px}.status{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;background:#e8eef9;color:#1a4fa0}
.status.completed{background:#e3f4e6;color:#1e6b31}.status.failed,.status.cancelled{background:#fbe6e6;color:#9b1c1c}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:16px 28px;align-items:start}
table{border-collapse:collapse;width:100%;margin:0 0 8px}caption{text-align:left;font-weight:600;padding:4px 0}
th,td{padding:4px 8px;border-bottom:1px solid #eceef1;text-align:left;vertical-align:top}
thead th{background:#f0f2f5;font-weight:600}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
table.facts th{font-weight:500;color:#444;width:55%}table.facts td{text-align:right;font-variant-numeric:tabular-nums}
table.pages td:nth-child(n+4){text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
table.pages td:nth-child(2){max-width:380px;overflow-wrap:anywhere}
pre{background:#f6f8fa;padding:10px;overflow:auto;font-size:12px;border-radius:4px}
table.changes td:first-child{width:5em}table.changes td:nth-child(2){overflow-wrap:anywhere}
table.changed-pages td:nth-child(4),table.changed-pages th:nth-child(4){text-align:right;font-variant-numeric:tabular-nums}
table.changed-pages td:nth-child(5){text-align:right}
.counts{display:flex;flex-wrap:wrap;gap:10px;margin:0 0 12px;padding:0;list-style:none}
.counts li{padding:6px 14px;border-radius:6px;background:#f0f2f5}.counts b{font-size:18px;margin-right:6px}
.counts .new{background:#e3f4e6}.counts .changed{background:#fff4dc}.counts .gone{background:#fbe6e6}
a{color:#1558b0}.note{color:#555;font-size:12px}figure{margin:8px 0 0}svg{max-width:100%;height:auto}
`;

export function renderReportHtml(report: CrawlReport, extras: ReportExtras): string {
  const seeds = (report.request as { seeds?: string[] }).seeds ?? [];
  const title = `${report.changes ? 'Recrawl' : 'Crawl'} report: ${seeds[0] ? new URL(seeds[0]).host : report.id}`;
  // the fetched types; duplicates, robots.txt refusals and the frontier have rows of their own
  const byType = ['HTML', 'BINARY', 'INVALID']
    .filter((type) => (report.pages.byType[type] ?? 0) > 0)
    .map((type) => [`${type} pages`, number(report.pages.byType[type])] as [string, string]);
  const sections: string[] = [];

  sections.push(
    `<header><h1>${escapeHtml(title)}</h1><p class="sub">crawl <code>${escapeHtml(report.id)}</code> · <span class="status ${escapeHtml(report.status)}">${escapeHtml(report.status)}</span> · ${escapeHtml(report.strategy)} · generated ${escapeHtml(extras.generatedAt)}</p></header>`,
  );

  sections.push('<h2>Overview</h2><div class="grid">');
  sections.push(
    facts('Table 1: the crawl', [
      ['running time', duration(report.runningTimeMs)],
      ['started', escapeHtml(report.startedAt ?? '–')],
      ['finished', escapeHtml(report.finishedAt ?? '–')],
      ['sites', number(report.sites)],
      ['pages fetched', number(report.pages.fetched)],
      ['pages per second', number(report.pagesPerSecond, 2)],
      [
        'stored',
        `${number(report.storage.bytes / 1e6, 1)} MB (bodies ${number(report.storage.bodyBytes / 1e6, 1)}, WARC-only ${number(report.storage.warcBodyBytes / 1e6, 1)}, screenshots ${number(report.storage.screenshotBytes / 1e6, 1)})`,
      ],
      ...byType,
      ['duplicate pages', number(report.duplicates.pages)],
      ...(report.duplicates.near === null
        ? []
        : [['near-duplicate pages', number(report.duplicates.near)] as [string, string]]),
      ['disallowed by robots.txt', number(report.pages.disallowed)],
      ['queued, never fetched', number(report.pages.frontier)],
      ['duplicate documents', number(report.duplicates.documents)],
      [
        'duplicate images',
        report.duplicates.images === null ? 'not known' : number(report.duplicates.images),
      ],
      ...(report.focused
        ? ([
            ['relevant pages', number(report.focused.relevantPages)],
            ['harvest rate', `${number(report.focused.harvestRate * 100, 1)} %`],
          ] as Array<[string, string]>)
        : []),
      ...(report.graph
        ? ([['graph vertices', number(report.graph.vertices)]] as Array<[string, string]>)
        : []),
    ]),
  );
  sections.push(
    facts('Table 2: what was found', [
      ['links', number(report.found.links.total)],
      [
        'links per HTML page (mean / max)',
        `${number(report.found.links.perPageMean, 2)} / ${number(report.found.links.perPageMax)}`,
      ],
      ['images', number(report.found.images.total)],
      [
        'images per HTML page (mean / max)',
        `${number(report.found.images.perPageMean, 2)} / ${number(report.found.images.perPageMax)}`,
      ],
      ['documents', number(report.found.documents.total)],
      ...report.found.documents.byType.map(
        (row) =>
          [`${row.type} documents`, `${number(row.documents)} (${number(row.bytes / 1024, 0)} KiB)`] as [
            string,
            string,
          ],
      ),
    ]),
  );
  sections.push('</div>');
  sections.push(`<p class="note">${escapeHtml(report.duplicates.note)}.</p>`);

  const invalidRows = report.pages.invalid.map((row) => [
    row.status === null ? escapeHtml(row.error ?? 'network fault') : escapeHtml(row.status),
    `<span class="n">${number(row.pages)}</span>`,
  ]);
  const codes = Object.entries(report.pages.statusCodes).map(([code, count]) => [
    escapeHtml(code),
    number(count),
  ]);
  sections.push('<div class="grid">');
  sections.push(table('HTTP status codes', ['status', 'pages'], codes));
  sections.push(
    invalidRows.length
      ? table('Invalid pages by status or error', ['status / error', 'pages'], invalidRows)
      : '',
  );
  sections.push('</div>');

  if (report.changes) sections.push(whatChangedHtml(report.id, report.changes));

  sections.push('<h2>Load time and queue wait</h2>');
  const timing = (name: string, summary: CrawlReport['timing']['loadMs']) => [
    escapeHtml(name),
    number(summary.mean),
    number(summary.median),
    number(summary.p95),
    number(summary.max),
  ];
  sections.push(
    table(
      'milliseconds; median and p95 as the status endpoint computes them',
      ['', 'mean', 'median', 'p95', 'max'],
      [
        timing('load time', report.timing.loadMs),
        timing('queue wait (fetched − queued)', report.timing.queueWaitMs),
      ],
    ),
  );
  sections.push(`<figure>${extras.loadTimesSvg}</figure>`);

  if (report.focused) {
    sections.push('<h2>Harvest rate</h2>');
    sections.push(
      `<p>${escapeHtml(report.focused.scorer)} scorer, threshold ${number(report.focused.threshold, 3)}: a page is relevant when it scores at least that.</p>`,
    );
    sections.push(
      `<figure>${harvestPlotSvg(report.focused.harvestOverTime, 'Harvest rate as the crawl went on')}</figure>`,
    );
  }

  sections.push(linkGraphHtml(report.linkGraph));

  sections.push('<h2>Top pages</h2><div class="grid">');
  if (extras.topRanked) {
    sections.push(
      table(
        `By PageRank (of ${number(extras.topRanked.vertices)} vertices)`,
        ['#', 'page', 'PageRank', 'in-links'],
        extras.topRanked.top.map((row, index) => [
          String(index + 1),
          link(row.url),
          `<span class="n">${row.rank.toExponential(3)}</span>`,
          `<span class="n">${number(row.inDegree)}</span>`,
        ]),
      ),
    );
  } else {
    sections.push(
      '<p class="note">The graph is too large to rank here: POST /v1/crawls/:id/rank ranks it as a job.</p>',
    );
  }
  if (extras.topScored.length) {
    sections.push(
      table(
        'By relevance score',
        ['#', 'page', 'score'],
        extras.topScored.map((row, index) => [
          String(index + 1),
          `${link(row.url, row.title || row.url)}`,
          `<span class="n">${number(row.score, 3)}</span>`,
        ]),
      ),
    );
  }
  sections.push('</div>');

  sections.push('<h2>Words</h2>');
  if (extras.words && extras.words.words.length === 0) {
    // an empty table and a blank plot say nothing: say why there are no words yet
    const w = extras.words;
    sections.push(
      `<p class="note">No words counted yet: the text job has read ${number(w.pagesCounted)} of ${number(w.htmlPages)} HTML pages${w.complete ? '' : ' and is still running; reload this report when it is done'}.</p>`,
    );
  } else if (extras.words) {
    const w = extras.words;
    sections.push(
      `<p>${number(w.totalWords)} words, ${number(w.distinctWords)} distinct, in the main text of ${number(w.pagesCounted)} of ${number(w.htmlPages)} HTML pages${w.complete ? '' : ' (still being counted)'}.</p>`,
    );
    sections.push('<div class="grid">');
    sections.push(
      table(
        "The most frequent words and Zipf's r·f/N",
        ['rank r', 'word', 'frequency f', 'r·f/N'],
        w.words.map((row) => [
          String(row.rank),
          escapeHtml(row.word),
          `<span class="n">${number(row.frequency)}</span>`,
          `<span class="n">${number(row.zipf, 4)}</span>`,
        ]),
      ),
    );
    sections.push(`<figure>${extras.wordsSvg ?? ''}</figure></div>`);
  } else {
    sections.push(
      `<p class="note">Word statistics are not available: ${escapeHtml(extras.wordsUnavailable)}</p>`,
    );
  }

  sections.push('<h2>Pages</h2>');
  const shown = extras.pages.length;
  const csv = `/v1/crawls/${encodeURIComponent(report.id)}/export?format=csv`;
  sections.push(
    `<p>The first ${number(shown)} of ${number(report.pages.fetched)} pages requested, in discovery order${shown < report.pages.fetched ? `; all of them: <a href="${escapeHtml(csv)}">CSV export</a> (with your API key)` : ''}.</p>`,
  );
  sections.push(
    table(
      'Pages',
      ['id', 'URL', 'title', 'status', 'type', 'KiB', 'links', 'images', 'load ms', 'score'],
      extras.pages.map((page) => [
        escapeHtml(page.id),
        link(page.url),
        escapeHtml(page.title ?? ''),
        page.status === null ? '' : escapeHtml(page.status),
        escapeHtml(page.type),
        page.bytes === null ? '' : number(page.bytes / 1024, 1),
        number(page.links),
        number(page.images),
        page.load_ms === null ? '' : number(page.load_ms),
        page.score === null ? '' : number(page.score, 3),
      ]),
      'pages',
    ),
  );

  sections.push('<h2>The crawl request</h2>');
  sections.push(`<pre>${escapeHtml(JSON.stringify(report.request, null, 2))}</pre>`);

  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(REPORT_CSP)}">`,
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>`,
    `<body><main>${sections.join('\n')}</main></body></html>`,
  ].join('\n');
}

/**
 * The "Link graph" section: the structure figures in the words network scientists use for a crawl's graph
 * ("723 nodes and 13,181 links; average degree 18.231; diameter 121; 3 main connected components").
 */
export function linkGraphHtml(figures: CrawlReport['linkGraph']): string {
  if (!figures) {
    return '<h2>Link graph</h2><p class="note">The graph is too large to describe here: POST /v1/crawls/:id/rank computes its figures as a job.</p>';
  }
  const { components, clustering, diameter } = figures;
  const real = (value: number) => (value === 0 || value >= 0.001 ? number(value, 3) : value.toExponential(2));
  const span = (which: 'directed' | 'undirected') => {
    const { lower, upper } = diameter.bounds[which];
    return lower === upper ? number(lower) : `${number(lower)}–${number(upper)}`;
  };
  const sizes = (figure: typeof components.weak) =>
    `${number(figure.count)} (largest ${number(figure.largest)}${
      figure.sizes.length > 1
        ? `; next ${figure.sizes
            .slice(1, 4)
            .map((size) => number(size))
            .join(', ')}`
        : ''
    })`;
  const average =
    diameter.averageShortestPath === null
      ? '–'
      : real(diameter.averageShortestPath) +
        (diameter.averageShortestPathSources === figures.vertices
          ? ''
          : ` (from ${number(diameter.averageShortestPathSources)} of ${number(figures.vertices)} pages)`);
  const rows: Array<[string, string]> = [
    ['nodes (pages)', number(figures.vertices)],
    ['links', number(figures.edges)],
    ['average degree (links per page)', real(figures.averageDegree)],
    ['density', real(figures.density)],
    ['reciprocity (links returned)', real(figures.reciprocity)],
    ['isolated pages', number(figures.isolated)],
    ['connected components (weak)', sizes(components.weak)],
    ['strongly connected components', sizes(components.strong)],
    ['average clustering coefficient', real(clustering.average)],
    ['transitivity', real(clustering.transitivity)],
    ['diameter (links followed)', span('directed')],
    ['diameter (links either way)', span('undirected')],
    ['average shortest path', average],
  ];
  const summary =
    `${number(figures.vertices)} nodes and ${number(figures.edges)} links; average degree ${real(figures.averageDegree)}; ` +
    `diameter ${span('directed')}; ${number(components.weak.count)} connected components; average clustering coefficient ${real(clustering.average)}.`;
  return [
    '<h2>Link graph</h2>',
    `<p>${escapeHtml(summary)}</p>`,
    facts(
      "The crawl's link graph: pages are nodes, links between them edges",
      rows.map(([name, value]) => [name, `<span class="n">${escapeHtml(value)}</span>`]),
    ),
    diameter.exact
      ? ''
      : '<p class="note">Not exact: the searches stopped at their budget, so a diameter shown as a range lies within it, and the average shortest path is over a sample of pages.</p>',
  ].join('');
}

/**
 * The "What changed" section of a recrawl: its pages by change class, its changed pages (whether the main text
 * changed and how alike the two texts are, with a link to each diff) and its gone pages, and the earlier pages
 * it never reached, which are not counted gone (docs/reference.md#change-classes).
 */
export function whatChangedHtml(crawlId: string, changes: NonNullable<CrawlReport['changes']>): string {
  const base = `/v1/crawls/${encodeURIComponent(crawlId)}`;
  const { counts } = changes;
  const parts = [
    '<h2>What changed</h2>',
    `<p>Against the earlier crawl <code>${escapeHtml(changes.recrawlOf)}</code>:</p>`,
    `<ul class="counts">${(['new', 'changed', 'unchanged', 'gone'] as const)
      .map((change) => `<li class="${change}"><b>${number(counts[change])}</b>${change}</li>`)
      .join('')}</ul>`,
  ];
  if (changes.changed.length) {
    parts.push(
      table(
        `Changed pages${counts.changed > changes.changed.length ? ` (the first ${number(changes.changed.length)} of ${number(counts.changed)})` : ''}: those whose main text changed first, the least alike first; a diff compares the two texts (with your API key)`,
        ['id', 'page', 'main text', 'similarity', ''],
        changes.changed.map((page) => [
          escapeHtml(page.id),
          link(page.url, page.title || page.url),
          page.textChanged === null ? 'not compared yet' : page.textChanged ? 'changed' : 'the same',
          page.similarity === null ? '–' : page.similarity.toFixed(3),
          `<a href="${escapeHtml(`${base}/pages/${page.id}/diff`)}">diff</a>`,
        ]),
        'changes changed-pages',
      ),
    );
  }
  if (changes.gone.length) {
    parts.push(
      table(
        `Gone pages${counts.gone > changes.gone.length ? ` (the first ${number(changes.gone.length)} of ${number(counts.gone)})` : ''}: fetched before, now an error, unreachable or redirected away`,
        ['id', 'page', 'now'],
        changes.gone.map((page) => [escapeHtml(page.id), link(page.url), goneNow(page)]),
        'changes',
      ),
    );
  }
  parts.push(
    changes.missing
      ? `<p class="note">${number(changes.missing)} pages of the earlier crawl were never reached (the page budget ran out, the crawl was cancelled, or robots.txt now refuses them) and are not counted gone: <a href="${escapeHtml(changes.missingUrl)}">the missing pages</a> (with your API key).</p>`
      : '<p class="note">Every page of the earlier crawl was reached again.</p>',
  );
  return parts.join('');
}

/** What a gone page answers now: redirected away (where to), an error status, or the fault that met it. */
function goneNow(page: NonNullable<CrawlReport['changes']>['gone'][number]): string {
  if (page.finalUrl && page.finalUrl !== page.url) return `redirected to ${link(page.finalUrl)}`;
  if (page.status === null) return escapeHtml(page.error ?? 'unreachable');
  return escapeHtml(page.status);
}
