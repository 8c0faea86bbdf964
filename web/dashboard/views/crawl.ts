// #/crawls/<id>: one crawl, live while it runs (its event stream): the counters, the harvest rate of a scoring
// crawl, the pages table, then, once it ends, its outcome, downloads, the report, the plots and a way to
// recrawl it; a recrawl also shows what changed (counts by class, the pages of a class, a page's diff).
import { isFinished } from '../../../src/crawler/vocabulary.js';
import type { CrawlCreated, CrawlStatus } from '../../../src/schemas/crawls.js';
import type { ProgressEvent } from '../../../src/schemas/live.js';
import type { CrawlReport, ReportLink } from '../../../src/schemas/report.js';
import type { WordStats } from '../../../src/schemas/stats.js';
import { blobUrl, getJson, postJson, request, streamEvents } from '../api.js';
import { outcome } from '../components/crawl-outcome.js';
import { HarvestChart } from '../components/harvest-chart.js';
import { pagesTable } from '../components/pages-table.js';
import { h, number, problemBanner, show } from '../dom.js';

/** How often a running crawl's pages table is read again, at most. */
const PAGES_REFRESH_MS = 2000;

function counters(progress: ProgressEvent): HTMLElement {
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

/** What a crawl stores, as its status measured it. */
function stored(status: Pick<CrawlStatus, 'storage'>): HTMLElement {
  const { storage } = status;
  const mb = (bytes: number) => `${number(bytes / 1e6, 1)} MB`;
  return h(
    'p',
    { class: 'muted', 'data-storage': String(storage.bytes) },
    `Stored: ${mb(storage.bytes)} (bodies ${mb(storage.bodyBytes)}, WARC-only ${mb(storage.warcBodyBytes)}, screenshots ${mb(storage.screenshotBytes)}); ${number(storage.pageRows)} page rows, ${number(storage.linkRows)} links`,
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
    const { url } = await postJson<ReportLink>(`${base}/report-link`, {});
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

/** Starts a recrawl of a finished crawl and opens it. */
async function recrawl(id: string, problems: HTMLElement): Promise<void> {
  try {
    const created = await postJson<CrawlCreated>('/v1/crawls', { recrawl: { of: id } });
    location.hash = `#/crawls/${created.id}`;
  } catch (error) {
    problems.append(problemBanner(error));
  }
}

export async function crawlView(id: string, signal: AbortSignal): Promise<void> {
  const base = `/v1/crawls/${encodeURIComponent(id)}`;
  const live = h('div', { class: 'live' });
  const actions = h('div', { class: 'actions' });
  const harvestSlot = h('div', {});
  const changesSlot = h('div', {});
  const pages = h('section', { class: 'pages' });
  const diff = h('section', { class: 'page-diff', 'aria-live': 'polite' });
  const plots = h('section', { class: 'plots' });
  const heading = h('h2', {}, 'Crawl', h('small', {}, id));
  show(
    h('p', {}, h('a', { href: '#/' }, '← all crawls')),
    heading,
    live,
    actions,
    harvestSlot,
    changesSlot,
    pages,
    diff,
    plots,
  );

  let status: CrawlStatus;
  try {
    status = await getJson(base);
  } catch (error) {
    live.replaceChildren(problemBanner(error));
    return;
  }
  heading.replaceChildren(
    `${status.recrawlOf ? 'Recrawl' : 'Crawl'} of ${status.request.seeds[0] ?? id}`,
    h('small', {}, id),
  );
  // a crawl that scores its pages: the harvest rate over time, from the report's series, then live
  const harvest = status.scoring ? new HarvestChart() : null;
  const loadHarvest = async () => {
    if (!harvest) return;
    try {
      const report = await getJson<CrawlReport>(`${base}/report`);
      harvest.set(report.focused?.harvestOverTime ?? []);
    } catch (error) {
      if (!signal.aborted) harvestSlot.append(problemBanner(error));
    }
  };
  if (harvest) harvestSlot.replaceChildren(harvest.element);
  await loadHarvest();
  const render = (progress: ProgressEvent) => {
    live.replaceChildren(counters(progress));
    if (isFinished(progress.status)) live.append(outcome(status), stored(status));
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
      h(
        'button',
        {
          type: 'button',
          title: 'crawl its pages again and see what changed',
          onclick: () => recrawl(id, actions),
        },
        'Recrawl',
      ),
    );
  if (isFinished(status.status)) finishedActions();
  else actions.replaceChildren(cancel, graphLink);

  const table = await pagesTable(base, pages, signal, status.recrawlOf ? { diffSlot: diff } : undefined);
  const reloadPages = () => table.reload();
  // a recrawl's counts by class are the status's: shown at the start, as it runs and with the final status.
  // Event handlers overlap, so the panel of the latest read wins, not the one that happens to end last.
  let changesRead = 0;
  const showChanges = async (read: () => CrawlStatus | Promise<CrawlStatus>) => {
    if (!status.recrawlOf) return;
    const ticket = ++changesRead;
    try {
      const current = await read();
      // a chunk of its own, with the diff view: only a recrawl's page loads them
      const { changesPanel } = await import('../components/changes-panel.js');
      const panel = await changesPanel(base, current, (change) => void table.showChange(change));
      if (ticket === changesRead) changesSlot.replaceChildren(panel);
    } catch (error) {
      if (!signal.aborted && ticket === changesRead) changesSlot.replaceChildren(problemBanner(error));
    }
  };
  await showChanges(() => status);
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
        const words = await getJson<WordStats>(`${base}/stats/words?top=1`);
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
  // live: the crawl's event stream until its final status; the pages table (and a recrawl's change counts)
  // follows the counters, read again at most every PAGES_REFRESH_MS, whatever the rate of progress events
  let pagesReadAt = Date.now();
  streamEvents(
    `${base}/events`,
    async (event, data) => {
      if (event === 'progress') {
        render(JSON.parse(data) as ProgressEvent);
        if (Date.now() - pagesReadAt >= PAGES_REFRESH_MS) {
          pagesReadAt = Date.now();
          await reloadPages();
          // a running recrawl's counts by class: the status's (progress events do not carry them)
          await showChanges(() => getJson<CrawlStatus>(base));
        }
      }
      if (event === 'status') {
        const final = JSON.parse(data) as CrawlStatus;
        status = final;
        render(final);
        finishedActions();
        await showChanges(() => final);
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
