// What a recrawl found against the earlier crawl: its pages by change class (the status's `changes`), each
// count a button showing that class in the pages table, the earlier crawl linked, and a note when earlier
// pages were never reached (GET …/changes/missing): those are not counted gone.
import { CHANGE_CLASSES, type ChangeClass } from '../../../src/crawler/vocabulary.js';
import type { CrawlStatus, MissingPageList } from '../../../src/schemas/crawls.js';
import { getJson } from '../api.js';
import { h, number, pageLink } from '../dom.js';

const CLASS_HINTS: Record<ChangeClass, string> = {
  new: 'not in the earlier crawl',
  changed: 'another body',
  unchanged: '304, or the same body',
  gone: 'now an error, unreachable or redirected away',
};

export async function changesPanel(
  base: string,
  status: Pick<CrawlStatus, 'recrawlOf' | 'changes'>,
  showChange: (change: ChangeClass) => void,
): Promise<HTMLElement> {
  const counts = status.changes ?? { new: 0, changed: 0, unchanged: 0, gone: 0 };
  const panel = h(
    'section',
    { class: 'changes', 'aria-labelledby': 'changes-heading' },
    h('h3', { id: 'changes-heading' }, 'What changed'),
    h(
      'p',
      { class: 'muted' },
      'Against the earlier crawl ',
      h('a', { href: `#/crawls/${status.recrawlOf}` }, status.recrawlOf ?? ''),
      '. A count shows those pages below.',
    ),
    h(
      'div',
      { class: 'change-counts' },
      ...CHANGE_CLASSES.map((change) =>
        h(
          'button',
          {
            type: 'button',
            class: `change-count ${change}`,
            'data-change': change,
            onclick: () => showChange(change),
          },
          h('span', { class: 'count' }, number(counts[change])),
          h('span', { class: 'label' }, change),
          h('small', {}, CLASS_HINTS[change]),
        ),
      ),
    ),
  );
  try {
    const missing = await getJson<MissingPageList>(`${base}/changes/missing?limit=10`);
    if (missing.items.length) {
      panel.append(
        h(
          'p',
          { class: 'muted missing' },
          `Earlier pages this recrawl never reached (its page budget ran out, it was cancelled, or robots.txt now refuses them) are not counted gone${missing.next ? '; the first 10' : ''}:`,
        ),
        h('ul', { class: 'missing' }, ...missing.items.map((page) => h('li', {}, pageLink(page.url)))),
      );
    }
  } catch {
    // the counts stand without the note
  }
  return panel;
}
