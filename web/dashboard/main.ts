// trawl's dashboard: a client of /v1 like any other (api.ts), no framework (plain DOM keeps the bundle a few
// KB), routed by the URL's hash: #/ the crawls and the form that starts one, #/crawls/<id> one crawl live,
// #/crawls/<id>/graph its link graph (a chunk of its own, loaded only there: sigma and the layout are most of
// the code), #/rankings, #/corpora and #/schedules. Everything a crawled page said is set as text (dom.ts).
// This file is the router; each view is a file of views/, the pieces views share are in components/.
import { keyForm } from './components/key-form.js';
import { h, problemBanner, show } from './dom.js';
import { corporaView } from './views/corpora.js';
import { corpusView } from './views/corpus.js';
import { crawlView } from './views/crawl.js';
import { crawlsView } from './views/crawls.js';
import { rankingView } from './views/ranking.js';
import { rankingsView } from './views/rankings.js';
import { schedulesView } from './views/schedules.js';

let leaving: AbortController | null = null;

/** The link graph's view, fetched the first time it is opened (sigma, graphology and the layout live there). */
async function graphView(id: string, signal: AbortSignal): Promise<void> {
  show(h('p', { role: 'status' }, 'Loading the graph view…'));
  try {
    const view = await import('./views/graph.js');
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
  [/^#\/schedules$/, (_m, signal) => schedulesView(signal)],
];

function route(): void {
  leaving?.abort();
  leaving = new AbortController();
  const hash = location.hash;
  // the header's section link of this view is marked current
  const section = /^#\/(rankings|corpora|schedules)/.exec(hash)?.[1] ?? '';
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

document.getElementById('key-slot')!.append(keyForm(route));
window.addEventListener('hashchange', route);
route();
