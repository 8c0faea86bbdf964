// The link graph of one crawl, drawn with sigma (WebGL) over a graphology graph laid out by ForceAtlas2
// (docs/reference.md#pagerank for the ranking): node size by PageRank, colour by host, the ranking's top-k
// lists and Jaccard overlaps beside it. A chunk of its own, fetched only when this view opens. A large crawl is
// shown as its top MAX_NODES pages by PageRank and the links between them.
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import Sigma from 'sigma';
import type { CrawlStatus } from '../../../src/schemas/crawls.js';
import type {
  LinkGraph,
  RankedVertex,
  Ranking,
  RankingJob,
  RankingList,
  RankingOrJob,
  VertexPage,
} from '../../../src/schemas/rankings.js';
import { getJson, postJson } from '../api.js';
import { completedRanking, rankingPanel } from '../components/ranking-panel.js';
import { h, httpUrl, number, pageLink, problemBanner, show } from '../dom.js';

/** Nodes drawn at most: the top pages by PageRank beyond this (a force layout of more is slow and unreadable). */
const MAX_NODES = 500;
const LAYOUT_ITERATIONS = 200;

/** Tableau 10: distinct hues that stay apart for the common colour-vision deficiencies. */
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];
const OTHER_HOSTS = '#5f6670';

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
};

/** A node's label: its path and query (the host is its colour), the host for a site's root. */
function shortLabel(url: string): string {
  let label = url;
  try {
    const parsed = new URL(url);
    label = parsed.pathname === '/' && !parsed.search ? parsed.host : `${parsed.pathname}${parsed.search}`;
  } catch {
    // not a URL: the name as it is
  }
  return label.length > 40 ? `${label.slice(0, 39)}…` : label;
}

/**
 * The newest ranking of a finished crawl made after it finished, else a new one (POST /v1/crawls/:id/rank):
 * opening the view again does not pile up rankings of a graph that no longer changes.
 */
async function crawlRanking(
  id: string,
  finishedAt: string | null,
  signal: AbortSignal,
  onWait: (job: RankingJob) => void,
): Promise<Ranking> {
  if (finishedAt) {
    const list = await getJson<RankingList>('/v1/rankings?limit=100');
    const reusable = list.items.find(
      (r) => r.crawlId === id && r.status === 'completed' && r.createdAt >= finishedAt,
    );
    if (reusable) return getJson<Ranking>(`/v1/rankings/${reusable.id}`);
  }
  const first = await postJson<RankingOrJob>(`/v1/crawls/${encodeURIComponent(id)}/rank`, {});
  return completedRanking(first, signal, onWait);
}

export async function graphView(id: string, signal: AbortSignal): Promise<void> {
  const base = `/v1/crawls/${encodeURIComponent(id)}`;
  const state = h('p', { role: 'status', class: 'muted' }, 'Ranking the link graph…');
  const stage = h('div', {
    class: 'graph-stage',
    role: 'img',
    'aria-label': 'link graph: the lists beside it name the same pages',
    'data-nodes': '0',
  });
  const legend = h('ul', { class: 'legend', 'aria-label': 'colour by host' });
  const selected = h('div', { class: 'graph-selected', 'aria-live': 'polite' });
  const side = h('section', { class: 'graph-side', 'aria-label': 'ranking' });
  const heading = h('h2', {}, 'Link graph', h('small', {}, id));
  show(
    h('p', {}, h('a', { href: `#/crawls/${id}` }, '← the crawl')),
    heading,
    state,
    h(
      'div',
      { class: 'graph-layout' },
      h('section', { class: 'graph-panel' }, stage, selected, legend),
      side,
    ),
  );

  let ranking: Ranking;
  let vertices: RankedVertex[];
  let links: LinkGraph;
  try {
    const crawl = await getJson<CrawlStatus>(base);
    heading.replaceChildren(`Link graph of ${crawl.request.seeds[0] ?? id}`, h('small', {}, id));
    ranking = await crawlRanking(id, crawl.finishedAt, signal, (job) => {
      state.textContent = `Ranking the link graph (${job.status})…`;
    });
    state.textContent = 'Loading the pages and their links…';
    [vertices, links] = await Promise.all([
      getJson<VertexPage>(`${ranking.links.vertices}?sort=-pageRank&limit=${MAX_NODES}`).then(
        (page) => page.items,
      ),
      getJson<LinkGraph>(`${base}/graph?format=json`),
    ]);
  } catch (error) {
    if (!signal.aborted) state.replaceChildren(problemBanner(error));
    return;
  }
  if (signal.aborted) return;
  side.replaceChildren(h('h3', {}, 'Ranking'), rankingPanel(ranking, 10));

  const graph = new Graph({ type: 'directed', multi: false });
  // hosts by how many of the drawn pages they hold: the largest get the palette, the rest one grey
  const hostCounts = new Map<string, number>();
  for (const v of vertices) hostCounts.set(hostOf(v.vertex), (hostCounts.get(hostOf(v.vertex)) ?? 0) + 1);
  const hosts = [...hostCounts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const colour = new Map(hosts.slice(0, PALETTE.length).map(([host], i) => [host, PALETTE[i]!]));
  const maxRank = Math.max(...vertices.map((v) => v.pageRank), Number.MIN_VALUE);
  vertices.forEach((v, i) => {
    // a circle to start from: ForceAtlas2 needs positions, and this one is the same on every visit
    const angle = (2 * Math.PI * i) / vertices.length;
    graph.addNode(v.vertex, {
      x: Math.cos(angle) * 100,
      y: Math.sin(angle) * 100,
      size: 3 + 15 * Math.sqrt(v.pageRank / maxRank),
      color: colour.get(hostOf(v.vertex)) ?? OTHER_HOSTS,
      label: shortLabel(v.vertex),
      pageRank: v.pageRank,
      inDegree: v.inDegree,
      outDegree: v.outDegree,
    });
  });
  const urlOf = new Map(links.vertices.map((v) => [v.id, v.url]));
  // an edge is a [from, to] pair: the schema says so with minItems and maxItems, which its type cannot carry
  for (const [from, to] of links.edges as Array<[number, number]>) {
    const source = urlOf.get(from);
    const target = urlOf.get(to);
    if (!source || !target || source === target) continue;
    if (graph.hasNode(source) && graph.hasNode(target) && !graph.hasEdge(source, target))
      graph.addEdge(source, target, { size: 1, color: '#b8bfc8' });
  }
  forceAtlas2.assign(graph, {
    iterations: LAYOUT_ITERATIONS,
    settings: { ...forceAtlas2.inferSettings(graph), adjustSizes: true },
  });

  state.textContent =
    ranking.vertices > vertices.length
      ? `The top ${number(vertices.length)} of ${number(ranking.vertices)} pages by PageRank and the ${number(graph.size)} links between them. Size: PageRank; colour: host. Click a page for its details.`
      : `${number(graph.order)} pages and ${number(graph.size)} links. Size: PageRank; colour: host. Click a page for its details.`;
  legend.replaceChildren(
    ...hosts
      .slice(0, PALETTE.length)
      .map(([host, count]) =>
        h(
          'li',
          {},
          h('span', { class: `swatch swatch-${PALETTE.indexOf(colour.get(host)!)}` }),
          `${host} (${count})`,
        ),
      ),
    hosts.length > PALETTE.length
      ? h(
          'li',
          {},
          h('span', { class: 'swatch swatch-other' }),
          `${hosts.length - PALETTE.length} other hosts`,
        )
      : '',
  );

  const renderer = new Sigma(graph, stage, {
    defaultEdgeType: 'arrow',
    labelRenderedSizeThreshold: 10,
    labelFont: 'system-ui, sans-serif',
    labelColor: { color: '#1d1d1f' },
    zIndex: true,
    stagePadding: 40,
  });
  signal.addEventListener('abort', () => renderer.kill());
  // what the browser test reads: the drawn graph's size, set on every frame rendered (the first may be drawn
  // inside the constructor, before a listener could be added: refresh draws one more)
  renderer.on('afterRender', () => {
    stage.dataset.nodes = String(renderer.getGraph().order);
    stage.dataset.edges = String(renderer.getGraph().size);
  });
  renderer.refresh();
  renderer.on('enterNode', () => stage.classList.add('pointing'));
  renderer.on('leaveNode', () => stage.classList.remove('pointing'));
  renderer.on('clickNode', ({ node }) => {
    const attributes = graph.getNodeAttributes(node);
    const href = httpUrl(node);
    selected.replaceChildren(
      h('h3', {}, 'Selected page'),
      h('p', { class: 'url' }, pageLink(node)),
      h(
        'p',
        { class: 'muted' },
        `PageRank ${(attributes.pageRank as number).toFixed(4)} · in-degree ${number(attributes.inDegree as number)} · out-degree ${number(attributes.outDegree as number)}`,
      ),
    );
    // the node is the page's link: focus it, so Enter opens the page as a click on the link would
    if (href) selected.querySelector('a')?.focus();
  });
}
