// A ranking as the dashboard shows it, beside the link graph and on its own page: the top-k lists (PageRank,
// in-degree, out-degree), the Jaccard overlaps of its top sets and the graph's structure figures; and the wait
// for a ranking a job computes.
// Vertex names are URLs for a crawl's graph and any string for an upload: links only when http(s).
import type { Ranking, RankingJob, RankingOrJob } from '../../../src/schemas/rankings.js';
import { getJson } from '../api.js';
import { h, number, pageLink } from '../dom.js';

export class RankingFailed extends Error {}

/** Polls a ranking ranked by a job (202) until it completes; a failed one throws with the job's problem. */
export async function completedRanking(
  first: RankingOrJob,
  signal: AbortSignal,
  onWait: (job: RankingJob) => void = () => {},
): Promise<Ranking> {
  let ranking = first;
  while (ranking.status !== 'completed') {
    if (ranking.status === 'failed') {
      const line = ranking.error?.line === undefined ? '' : ` (line ${ranking.error.line})`;
      throw new RankingFailed(`${ranking.error?.detail ?? 'the ranking failed'}${line}`);
    }
    onWait(ranking);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (signal.aborted) throw new DOMException('left the view', 'AbortError');
    ranking = await getJson<RankingOrJob>(ranking.links.self);
  }
  return ranking;
}

const vertexItem = (vertex: string, value: string) =>
  // the value first: floated right, it stays on the line of the vertex however long that wraps
  h(
    'li',
    {},
    h('span', { class: 'value' }, value),
    h('span', { class: 'vertex' }, pageLink(vertex, vertex.replace(/^https?:\/\//, ''))),
  );

/** The three top-k lists and the Jaccard overlaps of one ranking. */
export function rankingPanel(ranking: Ranking, limit = ranking.topK): HTMLElement {
  const list = (title: string, items: Array<[string, string]>) =>
    h(
      'div',
      { class: 'top-list' },
      h('h4', {}, title),
      items.length
        ? h('ol', {}, ...items.slice(0, limit).map(([vertex, value]) => vertexItem(vertex, value)))
        : h('p', { class: 'muted' }, 'none'),
    );
  const jaccard = Object.entries(ranking.jaccard);
  return h(
    'div',
    { class: 'ranking' },
    h(
      'p',
      { class: 'muted' },
      `${number(ranking.vertices)} vertices, ${number(ranking.edges)} edges; PageRank β = ${ranking.damping}, ` +
        `${ranking.iterations} iterations${ranking.converged ? '' : ' (not converged)'}`,
    ),
    h(
      'div',
      { class: 'top-lists' },
      list(
        'Top by PageRank',
        ranking.top.pageRank.map((v) => [v.vertex, v.rank.toFixed(4)]),
      ),
      list(
        'Top by in-degree',
        ranking.top.inDegree.map((v) => [v.vertex, number(v.degree)]),
      ),
      list(
        'Top by out-degree',
        ranking.top.outDegree.map((v) => [v.vertex, number(v.degree)]),
      ),
    ),
    jaccard.length
      ? h(
          'table',
          { class: 'jaccard' },
          h('caption', {}, `Jaccard overlap of the top-${ranking.jaccardK} sets`),
          h(
            'thead',
            {},
            h('tr', {}, h('th', { scope: 'col' }, 'sets'), h('th', { scope: 'col' }, 'Jaccard')),
          ),
          h(
            'tbody',
            {},
            ...jaccard.map(([pair, value]) =>
              h('tr', {}, h('td', {}, pair.replace('~', ' ~ ')), h('td', {}, value.toFixed(3))),
            ),
          ),
        )
      : null,
    ranking.graph ? structureTable(ranking.graph) : null,
  );
}

/** The structure figures (docs/reference.md#graph-structure) as a table; a diameter that did not close is a range. */
function structureTable(graph: NonNullable<Ranking['graph']>): HTMLElement {
  const real = (value: number) => (value === 0 || value >= 0.001 ? value.toFixed(3) : value.toExponential(2));
  const span = (which: 'directed' | 'undirected') => {
    const { lower, upper } = graph.diameter.bounds[which];
    return lower === upper ? number(lower) : `${number(lower)}–${number(upper)}`;
  };
  const { components, clustering, diameter } = graph;
  const rows: Array<[string, string]> = [
    ['average degree', real(graph.averageDegree)],
    ['density', real(graph.density)],
    ['reciprocity', real(graph.reciprocity)],
    ['isolated', number(graph.isolated)],
    ['weak components', `${number(components.weak.count)} (largest ${number(components.weak.largest)})`],
    [
      'strong components',
      `${number(components.strong.count)} (largest ${number(components.strong.largest)})`,
    ],
    ['average clustering', real(clustering.average)],
    ['transitivity', real(clustering.transitivity)],
    ['diameter (directed)', span('directed')],
    ['diameter (undirected)', span('undirected')],
    [
      'average shortest path',
      diameter.averageShortestPath === null
        ? '–'
        : real(diameter.averageShortestPath) +
          (diameter.averageShortestPathSources < graph.vertices ? ' (sample)' : ''),
    ],
  ];
  return h(
    'table',
    { class: 'structure' },
    h(
      'caption',
      {},
      diameter.exact ? 'Graph structure' : 'Graph structure (ranges: the searches ran out of budget)',
    ),
    h(
      'tbody',
      {},
      ...rows.map(([name, value]) => h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, value))),
    ),
  );
}
