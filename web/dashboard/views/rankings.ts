// #/rankings: the rankings, newest first, and the upload of an edges file to rank.
import type { RankingList, RankingOrJob } from '../../../src/schemas/rankings.js';
import { getJson, request } from '../api.js';
import { createOnSubmit, field, h, moreButton, number, problemBanner, show, when } from '../dom.js';

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
        const created = (await response.json()) as RankingOrJob;
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
      const page = await getJson<RankingList>(path);
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
