// Rankings as the dashboard shows them: a ranking's top-k lists (PageRank, in-degree, out-degree) and the Jaccard
// overlaps of its top sets, beside the link graph and on the rankings pages (#/rankings: the list and the upload
// of an edges file, #/rankings/<id>: one ranking). Vertex names are URLs for a crawl's graph and any string for
// an upload: links only when http(s).
import { getJson, request } from '../api.js';
import { createOnSubmit, field, h, moreButton, number, pageLink, problemBanner, show, when } from '../dom.js';

export interface Ranking {
  id: string;
  status: 'completed';
  crawlId: string | null;
  iterations: number;
  converged: boolean;
  vertices: number;
  unnamedVertices: number;
  edges: number;
  droppedSelfLoops: number;
  droppedDuplicates: number;
  damping: number;
  topK: number;
  jaccardK: number;
  top: {
    pageRank: Array<{ vertex: string; rank: number }>;
    inDegree: Array<{ vertex: string; degree: number }>;
    outDegree: Array<{ vertex: string; degree: number }>;
  };
  jaccard: Record<string, number>;
  createdAt: string;
  links: { self: string; vertices: string };
}

export interface RankingJob {
  id: string;
  status: 'queued' | 'running' | 'failed';
  crawlId: string | null;
  error: { detail: string; field?: string; line?: number } | null;
  createdAt: string;
  links: { self: string; vertices: string };
}

export class RankingFailed extends Error {}

/** Polls a ranking ranked by a job (202) until it completes; a failed one throws with the job's problem. */
export async function completedRanking(
  first: Ranking | RankingJob,
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
    ranking = await getJson<Ranking | RankingJob>(ranking.links.self);
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
  );
}

interface RankingListItem {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  crawlId: string | null;
  vertices: number | null;
  edges: number | null;
  iterations: number | null;
  error: string | null;
  createdAt: string;
}

/** The upload of an edges file (the file, or the edges pasted), with the options the API takes in the query. */
function uploadForm(): HTMLElement {
  const file = h('input', { type: 'file', accept: '.txt,.edges,text/plain' });
  const pasted = h('textarea', {
    id: 'field-edges-text',
    rows: 6,
    placeholder: '3\na b\nb c\nc a',
    spellcheck: false,
  });
  const topK = h('input', { type: 'number', min: 0, max: 1000, value: 10 });
  const damping = h('input', { type: 'number', min: 0, max: 1, step: 0.01, value: 0.85 });
  const banner = h('div', { class: 'form-problem', role: 'alert' });
  const form = h(
    'form',
    {
      class: 'upload-form',
      'aria-label': 'Rank an edges file',
      onsubmit: createOnSubmit(banner, async () => {
        const chosen = file.files?.[0];
        const body: Blob | string = chosen ?? pasted.value;
        const query = new URLSearchParams({ topK: topK.value, damping: damping.value });
        const response = await request(`/v1/rankings?${query}`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        });
        const created = (await response.json()) as { id: string };
        return `#/rankings/${created.id}`;
      }),
    },
    h('h2', {}, 'Rank an edges file'),
    h(
      'p',
      { class: 'muted' },
      'First line: the number of vertices; then one "from to" pair per line. Lines starting with # are skipped.',
    ),
    field('Edges file', 'body', file),
    h('div', { class: 'field' }, h('label', { for: 'field-edges-text' }, '…or paste the edges'), pasted),
    field('Top-k', 'topK', topK, 'length of each top list'),
    field('Damping β', 'damping', damping, 'probability of following a link'),
    h('button', { type: 'submit' }, 'Rank'),
    banner,
  );
  return form;
}

export async function rankingsView(signal: AbortSignal): Promise<void> {
  const body = h('tbody');
  const state = h('div', { role: 'status', class: 'muted' });
  const load = async (path: string, append: boolean) => {
    try {
      const page = await getJson<{ items: RankingListItem[]; next: string | null }>(path);
      if (signal.aborted) return;
      const rows = page.items.map((r) =>
        h(
          'tr',
          {},
          h('td', {}, h('a', { href: `#/rankings/${r.id}` }, when(r.createdAt))),
          h('td', {}, r.crawlId ? h('a', { href: `#/crawls/${r.crawlId}` }, 'crawl') : 'upload'),
          h('td', {}, h('span', { class: `status ${r.status}` }, r.status), r.error ? ` ${r.error}` : ''),
          h('td', { class: 'number' }, number(r.vertices)),
          h('td', { class: 'number' }, number(r.edges)),
          h('td', { class: 'number' }, number(r.iterations)),
        ),
      );
      if (append) body.append(...rows);
      else body.replaceChildren(...rows);
      more.set(page.next);
      state.textContent = body.childElementCount
        ? ''
        : 'No rankings yet: upload an edges file, or rank a crawl.';
    } catch (error) {
      state.replaceChildren(problemBanner(error));
    }
  };
  const more = moreButton('More rankings', (next) => load(next, true));
  show(
    h(
      'div',
      { class: 'columns' },
      h('section', {}, uploadForm()),
      h(
        'section',
        {},
        h('h2', {}, 'Rankings'),
        state,
        h(
          'table',
          { class: 'rankings' },
          h('caption', {}, 'Rankings, newest first'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...['Created', 'Graph', 'Status'].map((t) => h('th', { scope: 'col' }, t)),
              ...['Vertices', 'Edges', 'Iterations'].map((t) =>
                h('th', { scope: 'col', class: 'number' }, t),
              ),
            ),
          ),
          body,
        ),
        more.button,
      ),
    ),
  );
  await load('/v1/rankings?limit=25', false);
}

export async function rankingView(id: string, signal: AbortSignal): Promise<void> {
  const state = h('p', { role: 'status', class: 'muted' }, 'Loading…');
  const content = h('section', {});
  show(
    h('p', {}, h('a', { href: '#/rankings' }, '← all rankings')),
    h('h2', {}, 'Ranking', h('small', {}, id)),
    state,
    content,
  );
  try {
    const first = await getJson<Ranking | RankingJob>(`/v1/rankings/${encodeURIComponent(id)}`);
    const ranking = await completedRanking(first, signal, (job) => {
      state.textContent = `The ranking job is ${job.status}…`;
    });
    if (signal.aborted) return;
    state.textContent = `Ranked ${when(ranking.createdAt)}${
      ranking.droppedSelfLoops || ranking.droppedDuplicates
        ? `; dropped ${number(ranking.droppedSelfLoops)} self-loops and ${number(ranking.droppedDuplicates)} repeated edges`
        : ''
    }.`;
    content.replaceChildren(
      rankingPanel(ranking),
      ranking.crawlId
        ? h('p', {}, h('a', { href: `#/crawls/${ranking.crawlId}/graph` }, "The crawl's link graph"))
        : '',
    );
  } catch (error) {
    if (!signal.aborted) state.replaceChildren(problemBanner(error));
  }
}
