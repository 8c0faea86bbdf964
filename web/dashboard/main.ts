// trawl's dashboard: a client of /v1 like any other (api.ts), no framework (plain DOM keeps the bundle a few
// KB), routed by the URL's hash: #/ the crawls and the form that starts one, #/crawls/<id> one crawl live,
// #/crawls/<id>/graph its link graph (a chunk of its own, loaded only there: sigma and the layout are most of
// the code), #/rankings and #/corpora. Everything a crawled page said is set as text (dom.ts).
import { isFinished, PAGE_TYPES } from '../../src/crawler/vocabulary.js';
import { apiKey, blobUrl, getJson, postJson, request, setApiKey, streamEvents } from './api.js';
import { corporaView, corpusView } from './corpora.js';
import { createOnSubmit, field, h, number, pageLink, problemBanner, show, when } from './dom.js';
import { HarvestChart, type HarvestPoint } from './harvest.js';
import { rankingsView, rankingView } from './rankings.js';

// ---- the API key ------------------------------------------------------------------------------------------

function keyForm(): HTMLElement {
  const input = h('input', {
    id: 'api-key',
    type: 'password',
    autocomplete: 'off',
    value: apiKey(),
    placeholder: 'open mode: none',
  });
  return h(
    'form',
    {
      class: 'key',
      onsubmit: (event) => {
        event.preventDefault();
        setApiKey(input.value.trim());
        route();
      },
    },
    h('label', { for: 'api-key', class: 'key-label' }, 'API key'),
    input,
    h('button', { type: 'submit' }, 'Use'),
  );
}

// ---- crawls: the list and the form ---------------------------------------------------------------------------

interface CrawlSummary {
  id: string;
  status: string;
  seeds: string[];
  createdAt: string;
  finishedAt: string | null;
  pagesFetched: number;
  error: string | null;
  warnings: string[];
}

/**
 * A crawl's status as a badge, with why it failed or why it fetched nothing beneath: a crawl that completed
 * with warnings is not shown as a plain success.
 */
function outcome(crawl: Pick<CrawlSummary, 'status' | 'error' | 'warnings'>): HTMLElement {
  const warned = crawl.warnings.length > 0;
  return h(
    'div',
    { class: 'outcome' },
    h(
      'span',
      { class: `status ${crawl.status}${warned ? ' warned' : ''}` },
      warned ? `${crawl.status} ⚠` : crawl.status,
    ),
    crawl.error ? h('p', { class: 'outcome-note error' }, crawl.error) : '',
    ...crawl.warnings.map((warning) => h('p', { class: 'outcome-note warning' }, warning)),
  );
}

function crawlForm(): HTMLElement {
  const seeds = h('textarea', { rows: 2, required: true, placeholder: 'https://example.org/' });
  const strategy = h(
    'select',
    {},
    h('option', { value: 'bfs' }, 'breadth-first'),
    h('option', { value: 'best-first' }, 'best-first (keyword query)'),
    h('option', { value: 'topic' }, 'topic words'),
  );
  const query = h('input', { type: 'text', placeholder: 'tennis (wimbledon "grand slam")' });
  const topics = h('input', { type: 'text', placeholder: 'tennis, grand slam' });
  const maxPages = h('input', { type: 'number', min: 1, value: 100 });
  const delay = h('input', { type: 'number', min: 0, value: 1000 });
  const banner = h('div', { class: 'form-problem', role: 'alert' });
  const form = h(
    'form',
    {
      class: 'crawl-form',
      'aria-label': 'Start a crawl',
      onsubmit: createOnSubmit(banner, async () => {
        const body: Record<string, unknown> = {
          seeds: seeds.value.split(/\s+/).filter(Boolean),
          strategy: strategy.value,
          maxPages: Number(maxPages.value),
          politeness: { delayMs: Number(delay.value) },
        };
        if (query.value.trim()) body.relevance = { query: query.value.trim() };
        if (topics.value.trim())
          body.topics = topics.value
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean);
        const created = await postJson<{ id: string }>('/v1/crawls', body);
        return `#/crawls/${created.id}`;
      }),
    },
    h('h2', {}, 'Start a crawl'),
    field('Seeds', 'seeds', seeds, 'http(s) URLs, one per line'),
    field('Strategy', 'strategy', strategy),
    field('Keyword query', 'relevance.query', query, 'scores pages; best-first follows the best'),
    field('Topic words', 'topics', topics, 'comma-separated, for the topic strategy'),
    field('Max pages', 'maxPages', maxPages),
    field('Delay per host (ms)', 'politeness.delayMs', delay),
    h('button', { type: 'submit' }, 'Start'),
    banner,
  );
  return form;
}

async function crawlsView(signal: AbortSignal): Promise<void> {
  const list = h('tbody');
  const table = h(
    'table',
    { class: 'crawls' },
    h('caption', {}, 'Crawls, newest first'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Status', 'Seed', 'Pages fetched', 'Created', 'Finished'].map((t) =>
          h('th', { scope: 'col' }, t),
        ),
      ),
    ),
    list,
  );
  const state = h('div', { role: 'status', class: 'muted' });
  show(
    h(
      'div',
      { class: 'columns' },
      h('section', {}, crawlForm()),
      h('section', {}, h('h2', {}, 'Crawls'), state, table),
    ),
  );
  const refresh = async () => {
    try {
      const page = await getJson<{ items: CrawlSummary[] }>('/v1/crawls?limit=50');
      list.replaceChildren(
        ...page.items.map((crawl) =>
          h(
            'tr',
            {},
            h('td', {}, outcome(crawl)),
            h('td', {}, h('a', { href: `#/crawls/${crawl.id}` }, crawl.seeds[0] ?? crawl.id)),
            h('td', { class: 'number', 'data-column': 'pages-fetched' }, number(crawl.pagesFetched)),
            h('td', {}, when(crawl.createdAt)),
            h('td', {}, when(crawl.finishedAt)),
          ),
        ),
      );
      state.textContent = page.items.length ? '' : 'No crawls yet: start one with the form.';
    } catch (error) {
      state.replaceChildren(problemBanner(error));
    }
  };
  await refresh();
  // every 5 s: twelve reads a minute, far below the read limit
  const timer = setInterval(refresh, 5000);
  signal.addEventListener('abort', () => clearInterval(timer));
}

// ---- one crawl ----------------------------------------------------------------------------------------------

/** What the plot waits for: GET /v1/crawls/:id/stats/words (only these fields). */
interface WordCount {
  complete: boolean;
  pagesCounted: number;
  htmlPages: number;
}

interface Progress {
  status: string;
  counts: Record<string, number>;
  pagesFetched: number;
  pagesPerSecond: number;
  frontier: number;
  relevantPages?: number;
  harvestRate?: number;
}

interface PageRow {
  id: number;
  url: string;
  type: string;
  status: number | null;
  score: number | null;
  title: string | null;
  /** Its DOM came from headless Chromium; `screenshot` links its PNG when one was stored. */
  rendered?: boolean;
  screenshot?: string | null;
}

/** How often a running crawl's pages table is read again, at most. */
const PAGES_REFRESH_MS = 2000;

function counters(progress: Progress): HTMLElement {
  const tiles: Array<[string, string]> = [
    ['status', progress.status],
    ['pages fetched', number(progress.pagesFetched)],
    ['pages/s', number(progress.pagesPerSecond, 1)],
    ['frontier', number(progress.frontier)],
    ...Object.entries(progress.counts)
      .filter(([type, n]) => n > 0 && type !== 'FRONTIER')
      .map(([type, n]) => [type, number(n)] as [string, string]),
  ];
  if (progress.harvestRate !== undefined)
    tiles.push(['harvest', `${number(progress.harvestRate * 100, 1)} %`]);
  return h(
    'dl',
    { class: 'counters', 'aria-live': 'polite' },
    ...tiles.flatMap(([label, value]) => [
      h('div', { class: 'tile', 'data-counter': label }, h('dt', {}, label), h('dd', {}, value)),
    ]),
  );
}

async function download(path: string, name: string): Promise<void> {
  const link = h('a', { href: await blobUrl(path), download: name });
  link.click();
}

/**
 * The report in a tab of its own, from the API's URL so it is served with its own CSP (a blob: page inherits
 * the dashboard's and loses its inline styles). A tab cannot send the key: with one in use, the API signs a
 * short-lived link for that report. The tab opens at the click (a popup blocker allows that) and goes on to
 * the link once it is known.
 */
async function openReport(base: string, problems: HTMLElement): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { url } = await postJson<{ url: string }>(`${base}/report-link`, {});
    if (!tab) {
      window.location.assign(url);
      return;
    }
    tab.opener = null;
    tab.location.href = url;
  } catch (error) {
    tab?.close();
    problems.append(problemBanner(error));
  }
}

async function crawlView(id: string, signal: AbortSignal): Promise<void> {
  const base = `/v1/crawls/${encodeURIComponent(id)}`;
  const live = h('div', { class: 'live' });
  const actions = h('div', { class: 'actions' });
  const harvestSlot = h('div', {});
  const pages = h('section', { class: 'pages' });
  const plots = h('section', { class: 'plots' });
  const heading = h('h2', {}, 'Crawl', h('small', {}, id));
  show(h('p', {}, h('a', { href: '#/' }, '← all crawls')), heading, live, actions, harvestSlot, pages, plots);

  let status: Progress & {
    request: { seeds: string[] };
    scoring?: unknown;
    error: string | null;
    warnings: string[];
  };
  try {
    status = await getJson(base);
  } catch (error) {
    live.replaceChildren(problemBanner(error));
    return;
  }
  heading.replaceChildren(`Crawl of ${status.request.seeds[0] ?? id}`, h('small', {}, id));
  // a crawl that scores its pages: the harvest rate over time, from the report's series, then live
  const harvest = status.scoring ? new HarvestChart() : null;
  const loadHarvest = async () => {
    if (!harvest) return;
    try {
      const report = await getJson<{ focused: { harvestOverTime: HarvestPoint[] } | null }>(`${base}/report`);
      harvest.set(report.focused?.harvestOverTime ?? []);
    } catch (error) {
      if (!signal.aborted) harvestSlot.append(problemBanner(error));
    }
  };
  if (harvest) harvestSlot.replaceChildren(harvest.element);
  await loadHarvest();
  const render = (progress: Progress) => {
    live.replaceChildren(counters(progress));
    if (isFinished(progress.status)) live.append(outcome(status));
    if (harvest && progress.harvestRate !== undefined)
      harvest.add({ pagesFetched: progress.pagesFetched, harvestRate: progress.harvestRate });
  };
  render(status);
  const cancel = h(
    'button',
    {
      type: 'button',
      class: 'danger',
      onclick: async () => {
        try {
          await request(base, { method: 'DELETE' });
        } catch (error) {
          actions.append(problemBanner(error));
        }
      },
    },
    'Cancel crawl',
  );
  const graphLink = h('a', { href: `#/crawls/${id}/graph`, class: 'button-link' }, 'Link graph');
  const finishedActions = () =>
    actions.replaceChildren(
      graphLink,
      h(
        'button',
        { type: 'button', onclick: () => download(`${base}/export?format=csv`, `crawl-${id}.csv`) },
        'Export CSV',
      ),
      h(
        'button',
        { type: 'button', onclick: () => download(`${base}/export`, `crawl-${id}.jsonl`) },
        'Export JSON lines',
      ),
      h('button', { type: 'button', onclick: () => openReport(base, actions) }, 'Open report'),
    );
  if (isFinished(status.status)) finishedActions();
  else actions.replaceChildren(cancel, graphLink);

  const reloadPages = await pagesTable(base, pages, signal);
  const showPlots = async () => {
    plots.replaceChildren(h('h3', {}, 'Load time and queue wait'));
    try {
      plots.append(
        h('img', {
          src: await blobUrl(`${base}/stats/load-times.svg`),
          alt: 'load-time and queue-wait distributions',
        }),
      );
      plots.append(h('h3', {}, 'Word frequencies (Zipf)'));
      // words are counted by a background job after the crawl ends: a plot drawn before it is done would say
      // "N = 0", so the plot waits for the count, saying how far it is
      const counting = h('p', { class: 'muted', role: 'status' }, 'Counting words…');
      plots.append(counting);
      for (;;) {
        const words = await getJson<WordCount>(`${base}/stats/words?top=1`);
        if (words.complete || signal.aborted) break;
        counting.textContent = `Counting words: ${number(words.pagesCounted)} of ${number(words.htmlPages)} pages so far…`;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      if (signal.aborted) return;
      counting.replaceWith(
        h('img', {
          src: await blobUrl(`${base}/stats/words.svg?top=500`),
          alt: 'rank–frequency plot of the words',
        }),
      );
    } catch (error) {
      plots.append(problemBanner(error));
    }
  };
  if (isFinished(status.status)) {
    await showPlots();
    return;
  }
  // live: the crawl's event stream until its final status; the pages table follows the counters, read again
  // at most every PAGES_REFRESH_MS (one list read, whatever the rate of progress events)
  let pagesReadAt = Date.now();
  streamEvents(
    `${base}/events`,
    async (event, data) => {
      if (event === 'progress') {
        render(JSON.parse(data) as Progress);
        if (Date.now() - pagesReadAt >= PAGES_REFRESH_MS) {
          pagesReadAt = Date.now();
          await reloadPages();
        }
      }
      if (event === 'status') {
        const final = JSON.parse(data) as typeof status;
        status = final;
        render(final);
        finishedActions();
        await loadHarvest();
        await reloadPages();
        await showPlots();
      }
    },
    signal,
  ).catch((error: unknown) => {
    if (!signal.aborted) live.append(problemBanner(error));
  });
}

/** Whether a page was rendered and, when a screenshot was stored, a button that shows it in place. */
function renderedCell(page: PageRow): HTMLElement | string {
  if (!page.rendered) return '';
  const shot = page.screenshot;
  if (!shot) return 'yes';
  const button = h('button', { type: 'button', class: 'link' }, 'screenshot');
  button.addEventListener('click', async () => {
    const image = h('img', {
      src: await blobUrl(shot),
      alt: `screenshot of ${page.url}`,
      class: 'screenshot',
      width: 320,
    });
    button.replaceWith(image);
  });
  return button;
}

/**
 * The pages table with its filters. Returns how to read its first page again with the filters in force (a
 * running crawl's new pages), which leaves it alone once more pages were appended by hand.
 */
async function pagesTable(
  base: string,
  section: HTMLElement,
  signal: AbortSignal,
): Promise<() => Promise<void>> {
  const type = h(
    'select',
    { id: 'filter-type' },
    h('option', { value: '' }, 'any type'),
    ...PAGE_TYPES.map((t) => h('option', { value: t }, t)),
  );
  const status = h('input', { id: 'filter-status', type: 'number', min: 100, max: 599, placeholder: 'any' });
  const body = h('tbody');
  const more = h('button', { type: 'button', hidden: true }, 'More pages');
  let next: string | null = null;
  let shown = '';
  let appended = false;
  const load = async (path: string, append: boolean) => {
    try {
      const list = await getJson<{ items: PageRow[]; next: string | null }>(path);
      const rows = list.items.map((page) =>
        h(
          'tr',
          {},
          h('td', {}, String(page.id)),
          h('td', {}, page.type),
          h('td', {}, page.status === null ? '' : String(page.status)),
          h('td', {}, page.score === null ? '' : page.score.toFixed(3)),
          h('td', { class: 'title' }, page.title ?? ''),
          h('td', { class: 'url' }, pageLink(page.url)),
          h('td', {}, renderedCell(page)),
        ),
      );
      if (append) body.append(...rows);
      else body.replaceChildren(...rows);
      if (!append) shown = path;
      appended = append;
      next = list.next;
      more.hidden = next === null;
    } catch (error) {
      if (!signal.aborted) section.append(problemBanner(error));
    }
  };
  const filtered = () => {
    const query = new URLSearchParams({ limit: '50' });
    if (type.value) query.set('type', type.value);
    if (status.value) query.set('status', status.value);
    return `${base}/pages?${query}`;
  };
  more.addEventListener('click', () => next && load(next, true));
  const filters = h(
    'form',
    {
      class: 'filters',
      onsubmit: (event) => {
        event.preventDefault();
        void load(filtered(), false);
      },
    },
    h('label', { for: 'filter-type' }, 'Type'),
    type,
    h('label', { for: 'filter-status' }, 'HTTP status'),
    status,
    h('button', { type: 'submit' }, 'Filter'),
  );
  section.replaceChildren(
    h('h3', {}, 'Pages'),
    filters,
    h(
      'table',
      { class: 'pages-table' },
      h('caption', {}, 'Pages in discovery order'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Id', 'Type', 'HTTP', 'Score', 'Title', 'URL', 'Rendered'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      body,
    ),
    more,
  );
  await load(filtered(), false);
  return async () => {
    if (!appended && !signal.aborted) await load(shown, false);
  };
}

// ---- routing ------------------------------------------------------------------------------------------------

let leaving: AbortController | null = null;

/** The link graph's view, fetched the first time it is opened (sigma, graphology and the layout live there). */
async function graphView(id: string, signal: AbortSignal): Promise<void> {
  show(h('p', { role: 'status' }, 'Loading the graph view…'));
  try {
    const view = await import('./graph.js');
    await view.graphView(id, signal);
  } catch (error) {
    if (!signal.aborted) show(problemBanner(error));
  }
}

const ROUTES: Array<[RegExp, (match: string[], signal: AbortSignal) => Promise<void>]> = [
  [/^#\/crawls\/([0-9a-f-]{36})$/, (m, signal) => crawlView(m[1]!, signal)],
  [/^#\/crawls\/([0-9a-f-]{36})\/graph$/, (m, signal) => graphView(m[1]!, signal)],
  [/^#\/rankings$/, (_m, signal) => rankingsView(signal)],
  [/^#\/rankings\/([0-9a-f-]{36})$/, (m, signal) => rankingView(m[1]!, signal)],
  [/^#\/corpora$/, (_m, signal) => corporaView(signal)],
  [/^#\/corpora\/([0-9a-f-]{36})$/, (m, signal) => corpusView(m[1]!, signal)],
];

function route(): void {
  leaving?.abort();
  leaving = new AbortController();
  const hash = location.hash;
  // the header's section link of this view is marked current
  const section = /^#\/(rankings|corpora)/.exec(hash)?.[1] ?? '';
  for (const link of document.querySelectorAll<HTMLAnchorElement>('header nav a')) {
    if (link.getAttribute('href') === `#/${section}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  for (const [pattern, view] of ROUTES) {
    const match = pattern.exec(hash);
    if (match) {
      void view(match, leaving.signal);
      return;
    }
  }
  void crawlsView(leaving.signal);
}

document.getElementById('key-slot')!.append(keyForm());
window.addEventListener('hashchange', route);
route();
