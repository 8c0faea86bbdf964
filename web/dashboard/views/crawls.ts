// #/ : the crawls, newest first (read again every few seconds), beside the form that starts one.
import type { CrawlCreated, CrawlList } from '../../../src/schemas/crawls.js';
import { getJson, postJson } from '../api.js';
import { outcome } from '../components/crawl-outcome.js';
import { createOnSubmit, field, h, number, problemBanner, show, when } from '../dom.js';

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
        const created = await postJson<CrawlCreated>('/v1/crawls', body);
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

export async function crawlsView(signal: AbortSignal): Promise<void> {
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
      const page = await getJson<CrawlList>('/v1/crawls?limit=50');
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
