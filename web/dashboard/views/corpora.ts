// Corpora (docs/reference.md#tfidf): #/corpora lists them and builds one from pasted texts, a list of URLs or a
// finished crawl (#/corpora/<id>, corpus.ts, follows one).
import type { CorpusCreated, CorpusList } from '../../../src/schemas/corpora.js';
import type { CrawlList, CrawlSummary } from '../../../src/schemas/crawls.js';
import { getJson, postJson } from '../api.js';
import { createOnSubmit, field, h, moreButton, number, problemBanner, show, when } from '../dom.js';

type Source = 'documents' | 'urls' | 'fromCrawl';

/** The build form: a name and one source, the fields named as the API names them. */
function corpusForm(crawls: CrawlSummary[]): HTMLElement {
  const name = h('input', { type: 'text', required: true, maxlength: 200, placeholder: 'tennis pages' });
  const source = h(
    'select',
    { id: 'corpus-source' },
    h('option', { value: 'documents' }, 'pasted texts'),
    h('option', { value: 'urls' }, 'a list of URLs'),
    h('option', { value: 'fromCrawl' }, 'a finished crawl'),
  );
  const documents = h('textarea', {
    rows: 8,
    placeholder: 'One document per paragraph:\nblank lines between them.',
  });
  const urls = h('textarea', { rows: 6, placeholder: 'https://example.org/a\nhttps://example.org/b' });
  const fromCrawl = h(
    'select',
    {},
    ...(crawls.length
      ? crawls.map((crawl) =>
          h('option', { value: crawl.id }, `${crawl.seeds[0] ?? crawl.id} (${when(crawl.finishedAt)})`),
        )
      : [h('option', { value: '' }, 'no finished crawl yet')]),
  );
  const stem = h('input', { type: 'checkbox', id: 'field-stem', name: 'stem' });
  const fields: Record<Source, HTMLElement> = {
    documents: field('Texts', 'documents', documents, 'each paragraph is one document'),
    urls: field('URLs', 'urls', urls, 'one per line; fetched as a crawl fetches (robots.txt obeyed)'),
    fromCrawl: field('Crawl', 'fromCrawl', fromCrawl, 'its HTML pages with stored bodies'),
  };
  const choose = () => {
    for (const [key, element] of Object.entries(fields)) element.hidden = key !== source.value;
  };
  source.addEventListener('change', choose);
  choose();
  const banner = h('div', { class: 'form-problem', role: 'alert' });
  const form = h(
    'form',
    {
      class: 'corpus-form',
      'aria-label': 'Build a corpus',
      onsubmit: createOnSubmit(banner, async () => {
        const body: Record<string, unknown> = { name: name.value.trim(), stem: stem.checked };
        const chosen = source.value as Source;
        if (chosen === 'documents') {
          body.documents = documents.value
            .split(/\n\s*\n/)
            .map((text) => text.trim())
            .filter(Boolean)
            .map((text) => ({ text }));
        } else if (chosen === 'urls') {
          body.urls = urls.value.split(/\s+/).filter(Boolean);
        } else {
          body.fromCrawl = fromCrawl.value;
        }
        const created = await postJson<CorpusCreated>('/v1/corpora', body);
        return `#/corpora/${created.id}`;
      }),
    },
    h('h2', {}, 'Build a corpus'),
    h(
      'p',
      { class: 'muted' },
      'A corpus counts in how many documents each term occurs; score pages against it by its id (TF-IDF).',
    ),
    field('Name', 'name', name),
    h('div', { class: 'field' }, h('label', { for: 'corpus-source' }, 'From'), source),
    fields.documents,
    fields.urls,
    fields.fromCrawl,
    h(
      'div',
      { class: 'field checkbox' },
      h('label', { for: 'field-stem' }, stem, ' Stem words (“cats” and “cat” are one term)'),
      h('span', { class: 'field-error', 'data-field': 'stem', role: 'status' }),
    ),
    h('button', { type: 'submit' }, 'Build'),
    banner,
  );
  return form;
}

export async function corporaView(signal: AbortSignal): Promise<void> {
  const body = h('tbody');
  const state = h('div', { role: 'status', class: 'muted' });
  const formSlot = h('section', {}, h('p', { class: 'muted' }, 'Loading…'));
  const load = async (path: string, append: boolean) => {
    try {
      const page = await getJson<CorpusList>(path);
      if (signal.aborted) return;
      const rows = page.items.map((c) =>
        h(
          'tr',
          {},
          h('td', {}, h('a', { href: `#/corpora/${c.id}` }, c.name)),
          h('td', {}, h('span', { class: `status ${c.status}` }, c.status)),
          h('td', { class: 'number' }, number(c.documentCount)),
          h('td', { class: 'number' }, number(c.termCount)),
          h('td', {}, when(c.createdAt)),
        ),
      );
      if (append) body.append(...rows);
      else body.replaceChildren(...rows);
      more.set(page.next);
      state.textContent = body.childElementCount ? '' : 'No corpora yet: build one with the form.';
    } catch (error) {
      state.replaceChildren(problemBanner(error));
    }
  };
  const more = moreButton('More corpora', (next) => load(next, true));
  show(
    h(
      'div',
      { class: 'columns' },
      formSlot,
      h(
        'section',
        {},
        h('h2', {}, 'Corpora'),
        state,
        h(
          'table',
          { class: 'corpora' },
          h('caption', {}, 'Corpora, newest first'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, 'Name'),
              h('th', { scope: 'col' }, 'Status'),
              h('th', { scope: 'col', class: 'number' }, 'Documents'),
              h('th', { scope: 'col', class: 'number' }, 'Terms'),
              h('th', { scope: 'col' }, 'Created'),
            ),
          ),
          body,
        ),
        more.button,
      ),
    ),
  );
  // the finished crawls a corpus can be built from
  let crawls: CrawlSummary[] = [];
  try {
    crawls = (await getJson<CrawlList>('/v1/crawls?limit=50')).items.filter(
      (crawl) => crawl.status === 'completed' || crawl.status === 'cancelled',
    );
  } catch (error) {
    formSlot.append(problemBanner(error));
  }
  if (signal.aborted) return;
  formSlot.replaceChildren(corpusForm(crawls));
  await load('/v1/corpora?limit=25', false);
}
