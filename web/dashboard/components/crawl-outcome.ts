// A crawl's outcome as the list of crawls and the crawl's own view show it.
import type { CrawlSummary } from '../../../src/schemas/crawls.js';
import { h } from '../dom.js';

/**
 * A crawl's status as a badge, with why it failed or why it fetched nothing beneath: a crawl that completed
 * with warnings is not shown as a plain success.
 */
export function outcome(crawl: Pick<CrawlSummary, 'status' | 'error' | 'warnings'>): HTMLElement {
  const warned = crawl.warnings.length > 0;
  return h(
    'div',
    { class: 'outcome' },
    h(
      'span',
      { class: `status ${crawl.status}${warned ? ' warned' : ''}` },
      warned ? `${crawl.status} ⚠` : crawl.status,
    ),
    crawl.error ? h('p', { class: 'outcome-note error' }, crawl.error) : '',
    ...crawl.warnings.map((warning) => h('p', { class: 'outcome-note warning' }, warning)),
  );
}
