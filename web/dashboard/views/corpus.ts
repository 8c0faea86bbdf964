// #/corpora/<id> (docs/reference.md#tfidf): follows a corpus's build and shows its top terms. Terms and skipped
// URLs come from crawled pages: text only, links only when http(s).
import type { CorpusStatus } from '../../../src/schemas/corpora.js';
import { getJson } from '../api.js';
import { h, number, pageLink, problemBanner, show } from '../dom.js';

export async function corpusView(id: string, signal: AbortSignal): Promise<void> {
  const heading = h('h2', {}, 'Corpus', h('small', {}, id));
  const live = h('div', { 'aria-live': 'polite' });
  const details = h('section', {});
  show(h('p', {}, h('a', { href: '#/corpora' }, '← all corpora')), heading, live, details);
  for (;;) {
    let corpus: CorpusStatus;
    try {
      corpus = await getJson<CorpusStatus>(`/v1/corpora/${encodeURIComponent(id)}`);
    } catch (error) {
      if (!signal.aborted) live.replaceChildren(problemBanner(error));
      return;
    }
    if (signal.aborted) return;
    heading.replaceChildren(`Corpus ${corpus.name}`, h('small', {}, id));
    const { progress } = corpus;
    live.replaceChildren(
      h(
        'dl',
        { class: 'counters' },
        ...(
          [
            ['status', corpus.status],
            ['documents', number(corpus.documentCount)],
            ['terms', number(corpus.termCount)],
            [
              'read',
              progress.documentsTotal === null
                ? number(progress.documentsDone)
                : `${number(progress.documentsDone)} / ${number(progress.documentsTotal)}`,
            ],
            ['skipped', number(progress.skipped)],
          ] as Array<[string, string]>
        ).map(([label, value]) =>
          h('div', { class: 'tile', 'data-counter': label }, h('dt', {}, label), h('dd', {}, value)),
        ),
      ),
      corpus.error ? h('p', { class: 'problem', role: 'alert' }, corpus.error) : '',
    );
    if (corpus.status === 'completed' || corpus.status === 'failed') {
      details.replaceChildren(
        h('h3', {}, 'Top terms'),
        corpus.topTerms.length
          ? h(
              'table',
              { class: 'terms' },
              h('caption', {}, 'The terms in most documents'),
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  h('th', { scope: 'col' }, 'Term'),
                  h('th', { scope: 'col', class: 'number' }, 'Documents'),
                  h('th', { scope: 'col', class: 'number' }, 'Share'),
                ),
              ),
              h(
                'tbody',
                {},
                ...corpus.topTerms.map((t) =>
                  h(
                    'tr',
                    {},
                    h('td', {}, t.term),
                    h('td', { class: 'number' }, number(t.documentFrequency)),
                    h(
                      'td',
                      { class: 'number' },
                      `${number((100 * t.documentFrequency) / Math.max(corpus.documentCount, 1), 0)} %`,
                    ),
                  ),
                ),
              ),
            )
          : h('p', { class: 'muted' }, 'No terms.'),
        corpus.textSettings
          ? h(
              'p',
              { class: 'muted' },
              `Words: ${corpus.textSettings.tokenizer} tokenizer, stop words ${
                Array.isArray(corpus.textSettings.stopWords)
                  ? `(${corpus.textSettings.stopWords.length} of your own)`
                  : corpus.textSettings.stopWords
              }, ${corpus.textSettings.stem ? 'stemmed' : 'not stemmed'}.`,
            )
          : '',
        progress.skippedDocuments.length
          ? h(
              'div',
              {},
              h('h3', {}, 'Skipped documents'),
              h(
                'ul',
                {},
                ...progress.skippedDocuments.map((d) => h('li', {}, pageLink(d.url), ` — ${d.error}`)),
              ),
            )
          : '',
      );
      return;
    }
    // building: once a second (the build writes its progress at most that often)
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (signal.aborted) return;
  }
}
