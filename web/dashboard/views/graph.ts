// The link graph of one crawl, drawn with sigma (WebGL) over a graphology graph laid out by ForceAtlas2 or
// Fruchterman–Reingold (docs/reference.md#pagerank for the ranking, #graph-structure for the figures): node
// size by PageRank, colour by clustering coefficient or host, optionally only the largest weak component; the
// ranking's top-k lists, Jaccard overlaps and structure figures beside it. A chunk of its own, fetched only when this view opens. A large crawl is
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
const FR_GRAVITY = 10;

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

  // The drawing's choices: colour by clustering coefficient (default) or host, the layout, and whether only the
  // largest weak component is drawn. Each change draws again.
  const colourBy = h(
    'select',
    { id: 'graph-colour' },
    h('option', { value: 'clustering' }, 'clustering coefficient'),
    h('option', { value: 'host' }, 'host'),
  );
  const layout = h(
    'select',
    { id: 'graph-layout' },
    h('option', { value: 'forceAtlas2' }, 'ForceAtlas2'),
    h('option', { value: 'fruchtermanReingold' }, 'Fruchterman–Reingold'),
  );
  const largestOnly = h('input', { type: 'checkbox', id: 'graph-largest' });
  const controls = h(
    'form',
    { class: 'graph-controls', 'aria-label': 'drawing' },
    h('label', { for: 'graph-colour' }, 'Colour by ', colourBy),
    h('label', { for: 'graph-layout' }, 'Layout ', layout),
    h('label', { for: 'graph-largest' }, largestOnly, ' largest weak component only'),
  );
  stage.before(controls);

  // the largest weak component of the whole graph (every page's id is in the JSON export)
  const componentSizes = new Map<number, number>();
  for (const v of links.vertices)
    componentSizes.set(v.weakComponent, (componentSizes.get(v.weakComponent) ?? 0) + 1);
  const largestComponent = [...componentSizes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
  // hosts by how many of the drawn pages they hold: the largest get the palette, the rest one grey
  const hostCounts = new Map<string, number>();
  for (const v of vertices) hostCounts.set(hostOf(v.vertex), (hostCounts.get(hostOf(v.vertex)) ?? 0) + 1);
  const hosts = [...hostCounts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const colour = new Map(hosts.slice(0, PALETTE.length).map(([host], i) => [host, PALETTE[i]!]));
  const maxRank = Math.max(...vertices.map((v) => v.pageRank), Number.MIN_VALUE);
  const urlOf = new Map(links.vertices.map((v) => [v.id, v.url]));

  let renderer: Sigma | null = null;
  signal.addEventListener('abort', () => renderer?.kill());
  const draw = () => {
    const byClustering = colourBy.value === 'clustering';
    const drawn = largestOnly.checked
      ? vertices.filter((v) => v.weakComponent === largestComponent)
      : vertices;
    const graph = new Graph({ type: 'directed', multi: false });
    drawn.forEach((v, i) => {
      // a circle to start from: a force layout needs positions, and this one is the same on every visit
      const angle = (2 * Math.PI * i) / drawn.length;
      graph.addNode(v.vertex, {
        x: Math.cos(angle) * 100,
        y: Math.sin(angle) * 100,
        size: 3 + 15 * Math.sqrt(v.pageRank / maxRank),
        color: byClustering ? clusteringColour(v.clustering) : (colour.get(hostOf(v.vertex)) ?? OTHER_HOSTS),
        label: shortLabel(v.vertex),
        pageRank: v.pageRank,
        inDegree: v.inDegree,
        outDegree: v.outDegree,
        clustering: v.clustering,
        weakComponent: v.weakComponent,
        strongComponent: v.strongComponent,
      });
    });
    // an edge is a [from, to] pair: the schema says so with minItems and maxItems, which its type cannot carry
    for (const [from, to] of links.edges as Array<[number, number]>) {
      const source = urlOf.get(from);
      const target = urlOf.get(to);
      if (!source || !target || source === target) continue;
      if (graph.hasNode(source) && graph.hasNode(target) && !graph.hasEdge(source, target))
        graph.addEdge(source, target, { size: 1, color: '#b8bfc8' });
    }
    if (layout.value === 'fruchtermanReingold') fruchtermanReingold(graph, LAYOUT_ITERATIONS);
    else
      forceAtlas2.assign(graph, {
        iterations: LAYOUT_ITERATIONS,
        settings: { ...forceAtlas2.inferSettings(graph), adjustSizes: true },
      });

    const what = byClustering ? 'colour: clustering coefficient' : 'colour: host';
    const which = largestOnly.checked ? ' of the largest weak component' : '';
    state.textContent =
      ranking.vertices > vertices.length
        ? `The top ${number(drawn.length)} of ${number(ranking.vertices)} pages by PageRank${which} and the ${number(graph.size)} links between them. Size: PageRank; ${what}. Click a page for its details.`
        : `${number(graph.order)} pages${which} and ${number(graph.size)} links. Size: PageRank; ${what}. Click a page for its details.`;
    legend.setAttribute('aria-label', byClustering ? 'colour by clustering coefficient' : 'colour by host');
    legend.replaceChildren(...(byClustering ? clusteringLegend() : hostLegend(hosts, colour)));

    renderer?.kill();
    selected.replaceChildren();
    const sigma = new Sigma(graph, stage, {
      defaultEdgeType: 'arrow',
      labelRenderedSizeThreshold: 10,
      labelFont: 'system-ui, sans-serif',
      labelColor: { color: '#1d1d1f' },
      zIndex: true,
      stagePadding: 40,
    });
    renderer = sigma;
    // what the browser test reads: the drawn graph's size, set on every frame rendered (the first may be drawn
    // inside the constructor, before a listener could be added: refresh draws one more)
    sigma.on('afterRender', () => {
      stage.dataset.nodes = String(sigma.getGraph().order);
      stage.dataset.edges = String(sigma.getGraph().size);
      stage.dataset.layout = layout.value;
    });
    sigma.refresh();
    sigma.on('enterNode', () => stage.classList.add('pointing'));
    sigma.on('leaveNode', () => stage.classList.remove('pointing'));
    sigma.on('clickNode', ({ node }) => {
      const attributes = graph.getNodeAttributes(node);
      const href = httpUrl(node);
      const clustering = attributes.clustering as number | null;
      selected.replaceChildren(
        h('h3', {}, 'Selected page'),
        h('p', { class: 'url' }, pageLink(node)),
        h(
          'p',
          { class: 'muted' },
          `PageRank ${(attributes.pageRank as number).toFixed(4)} · in-degree ${number(attributes.inDegree as number)} · out-degree ${number(attributes.outDegree as number)}`,
        ),
        h(
          'p',
          { class: 'muted' },
          clustering === null
            ? 'clustering and components: not computed for this ranking'
            : `clustering coefficient ${clustering.toFixed(3)} · weak component ${attributes.weakComponent} · strong component ${attributes.strongComponent}`,
        ),
      );
      // the node is the page's link: focus it, so Enter opens the page as a click on the link would
      if (href) selected.querySelector('a')?.focus();
    });
  };
  controls.addEventListener('change', draw);
  draw();
}

/**
 * Clustering coefficient bins and their colours (viridis, which stays ordered in grey and for the common
 * colour-vision deficiencies); a vertex of an older ranking without one is grey.
 */
const CLUSTERING_BINS: Array<{ upTo: number; label: string; colour: string }> = [
  { upTo: 0, label: '0', colour: '#440154' },
  { upTo: 0.1, label: '≤ 0.1', colour: '#3b528b' },
  { upTo: 0.25, label: '≤ 0.25', colour: '#21918c' },
  { upTo: 0.5, label: '≤ 0.5', colour: '#5ec962' },
  { upTo: 1, label: '≤ 1', colour: '#fde725' },
];

function clusteringColour(value: number | null): string {
  if (value === null) return OTHER_HOSTS;
  return (CLUSTERING_BINS.find((bin) => value <= bin.upTo) ?? CLUSTERING_BINS.at(-1)!).colour;
}

function clusteringLegend(): HTMLElement[] {
  return [
    h('li', { class: 'legend-title' }, 'clustering coefficient:'),
    ...CLUSTERING_BINS.map((bin, i) => h('li', {}, h('span', { class: `swatch swatch-c${i}` }), bin.label)),
  ];
}

function hostLegend(hosts: Array<[string, number]>, colour: Map<string, string>): HTMLElement[] {
  return [
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
    ...(hosts.length > PALETTE.length
      ? [
          h(
            'li',
            {},
            h('span', { class: 'swatch swatch-other' }),
            `${hosts.length - PALETTE.length} other hosts`,
          ),
        ]
      : []),
  ];
}

/**
 * Fruchterman & Reingold (1991), the layout Gephi offers beside ForceAtlas2: every pair repels with k²/d, every
 * edge attracts with d²/k (k = √(area / n)), gravity pulls to the centre as Gephi's does, and each step moves a
 * vertex at most a temperature that cools linearly to 0. O(n²) a step, fine for the few hundred pages drawn.
 */
function fruchtermanReingold(graph: Graph, iterations: number): void {
  const nodes = graph.nodes();
  const n = nodes.length;
  if (n === 0) return;
  const index = new Map(nodes.map((node, i) => [node, i]));
  const x = Float64Array.from(nodes, (node) => graph.getNodeAttribute(node, 'x') as number);
  const y = Float64Array.from(nodes, (node) => graph.getNodeAttribute(node, 'y') as number);
  const edges = graph.edges().map((edge) => [index.get(graph.source(edge))!, index.get(graph.target(edge))!]);
  const side = 200;
  const k = Math.sqrt((side * side) / n);
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  for (let step = 0; step < iterations; step++) {
    const temperature = (side / 10) * (1 - step / iterations);
    dx.fill(0);
    dy.fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const ex = x[i]! - x[j]!;
        const ey = y[i]! - y[j]!;
        const distance = Math.max(Math.hypot(ex, ey), 0.01);
        const push = (k * k) / distance / distance;
        dx[i]! += ex * push;
        dy[i]! += ey * push;
        dx[j]! -= ex * push;
        dy[j]! -= ey * push;
      }
    }
    for (const [a, b] of edges) {
      const ex = x[a!]! - x[b!]!;
      const ey = y[a!]! - y[b!]!;
      const distance = Math.max(Math.hypot(ex, ey), 0.01);
      const pull = distance / k;
      dx[a!]! -= ex * pull;
      dy[a!]! -= ey * pull;
      dx[b!]! += ex * pull;
      dy[b!]! += ey * pull;
    }
    for (let i = 0; i < n; i++) {
      // Gephi's gravity (its default 10): a pull to the centre, so loosely linked pages do not drift far out
      // and squeeze the rest into a corner of the view
      const distance = Math.hypot(x[i]!, y[i]!);
      if (distance > 0) {
        const pull = (FR_GRAVITY * 0.01 * k * distance) / distance;
        dx[i]! -= x[i]! * pull;
        dy[i]! -= y[i]! * pull;
      }
      const length = Math.max(Math.hypot(dx[i]!, dy[i]!), 0.01);
      const move = Math.min(length, temperature) / length;
      x[i]! += dx[i]! * move;
      y[i]! += dy[i]! * move;
    }
  }
  nodes.forEach((node, i) => {
    graph.setNodeAttribute(node, 'x', x[i]!);
    graph.setNodeAttribute(node, 'y', y[i]!);
  });
}
