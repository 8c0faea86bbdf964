// The pages table of one crawl (GET /v1/crawls/:id/pages): filters by type and HTTP status (and a recrawl's
// change class), "More pages" following the cursor, a rendered page's screenshot shown in place, and a
// recrawl's page with its change class and, when it was fetched before, a button showing its diff.
import { CHANGE_CLASSES, type ChangeClass, PAGE_TYPES } from '../../../src/crawler/vocabulary.js';
import type { PageList, PageListItem } from '../../../src/schemas/crawls.js';
import { blobUrl, getJson } from '../api.js';
import { h, pageLink, problemBanner } from '../dom.js';

/** Whether a page was rendered and, when a screenshot was stored, a button that shows it in place. */
function renderedCell(page: PageListItem): HTMLElement | string {
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
 * A recrawl's page: its change class and, for a changed page, whether its main text changed and how alike the
 * two texts are (blank until the text job compared them), and a button showing its diff.
 */
function changeCell(base: string, page: PageListItem, diffSlot: HTMLElement): HTMLElement {
  const cell = h('td', { class: `change ${page.change ?? ''}` }, page.change ?? '');
  if (page.change === 'changed' && page.textChanged !== null) {
    cell.append(
      h(
        'small',
        {},
        page.textChanged ? 'text changed' : 'same text',
        page.similarity === null ? '' : ` · similarity ${page.similarity.toFixed(2)}`,
      ),
    );
  }
  if (page.change === 'changed') {
    const button = h('button', { type: 'button', class: 'link', 'data-diff': page.id }, 'diff');
    // the diff view is a chunk of its own: only a recrawl's pages need it
    button.addEventListener('click', async () => {
      const { showPageDiff } = await import('./page-diff.js');
      await showPageDiff(base, page, diffSlot);
    });
    cell.append(button);
  }
  return cell;
}

export interface PagesTable {
  /** Reads the first page again with the filters in force (a running crawl's new pages). */
  reload(): Promise<void>;
  /** Shows one change class of a recrawl's pages. */
  showChange(change: ChangeClass): Promise<void>;
}

/**
 * The pages table with its filters; `recrawl` adds the change class (its filter, its column, the diffs shown
 * in `recrawl.diffSlot`). Reloading leaves the table alone once more pages were appended by hand.
 */
export async function pagesTable(
  base: string,
  section: HTMLElement,
  signal: AbortSignal,
  recrawl?: { diffSlot: HTMLElement },
): Promise<PagesTable> {
  const type = h(
    'select',
    { id: 'filter-type' },
    h('option', { value: '' }, 'any type'),
    ...PAGE_TYPES.map((t) => h('option', { value: t }, t)),
  );
  const status = h('input', { id: 'filter-status', type: 'number', min: 100, max: 599, placeholder: 'any' });
  const change = h(
    'select',
    { id: 'filter-change' },
    h('option', { value: '' }, 'any change'),
    ...CHANGE_CLASSES.map((c) => h('option', { value: c }, c)),
  );
  const body = h('tbody');
  const more = h('button', { type: 'button', hidden: true }, 'More pages');
  let next: string | null = null;
  let shown = '';
  let appended = false;
  const load = async (path: string, append: boolean) => {
    try {
      const list = await getJson<PageList>(path);
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
          recrawl ? changeCell(base, page, recrawl.diffSlot) : null,
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
    if (recrawl && change.value) query.set('change', change.value);
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
    recrawl ? h('label', { for: 'filter-change' }, 'Change') : null,
    recrawl ? change : null,
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
          ...['Id', 'Type', 'HTTP', 'Score', 'Title', 'URL', 'Rendered', ...(recrawl ? ['Change'] : [])].map(
            (t) => h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      body,
    ),
    more,
  );
  await load(filtered(), false);
  return {
    reload: async () => {
      if (!appended && !signal.aborted) await load(shown, false);
    },
    showChange: async (wanted) => {
      change.value = wanted;
      await load(filtered(), false);
      section.scrollIntoView({ block: 'start' });
    },
  };
}
