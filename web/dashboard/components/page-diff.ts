// A recrawled page's main text against its earlier version (GET /v1/crawls/:id/pages/:pageId/diff), side by
// side: the earlier text on the left, the text now on the right, a sentence a row. The API's unified diff is
// paired up here: a run of removed sentences faces the run of added ones that follows it, so an edited
// sentence sits beside what it became, the words that differ marked; sentences kept show on both sides.
import type { PageDiff, PageListItem } from '../../../src/schemas/crawls.js';
import { getJson } from '../api.js';
import { h, number, pageLink, problemBanner } from '../dom.js';

type Side = { text: string; kind: 'kept' | 'removed' | 'added' } | null;
type Row = { earlier: Side; now: Side } | { gap: true };

/** The unified diff's hunks as rows of two sides; a row `gap` marks sentences left out between two hunks. */
export function sideBySide(unified: string): Row[] {
  const rows: Row[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  let inHunk = false;
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      const before = removed[i];
      const after = added[i];
      rows.push({
        earlier: before === undefined ? null : { text: before, kind: 'removed' },
        now: after === undefined ? null : { text: after, kind: 'added' },
      });
    }
    removed = [];
    added = [];
  };
  for (const line of unified.split('\n')) {
    if (line.startsWith('@@')) {
      flush();
      if (inHunk) rows.push({ gap: true });
      inHunk = true;
      continue;
    }
    // the header before the first hunk, and "\ No newline at end of file"
    if (!inHunk || line.startsWith('\\')) continue;
    const text = line.slice(1);
    if (line.startsWith('-')) {
      if (added.length) flush();
      removed.push(text);
    } else if (line.startsWith('+')) added.push(text);
    else if (line.startsWith(' ')) {
      flush();
      rows.push({ earlier: { text, kind: 'kept' }, now: { text, kind: 'kept' } });
    }
  }
  flush();
  return rows;
}

/** Words of a sentence pair past which the pair is shown without marking words (the table is quadratic). */
const WORD_MARK_MAX_WORDS = 400;

/**
 * `text` in pieces, marked where its words are not in the longest common subsequence with `other`'s: what an
 * edit removed from the earlier sentence, or added to the one now.
 */
export function markedWords(text: string, other: string): Array<{ text: string; marked: boolean }> {
  const a = text.split(/(\s+)/);
  const b = other.split(/(\s+)/);
  if (a.length > 2 * WORD_MARK_MAX_WORDS || b.length > 2 * WORD_MARK_MAX_WORDS)
    return [{ text, marked: false }];
  // lengths of the longest common subsequences of the suffixes a[i…] and b[j…]
  const width = b.length + 1;
  const lcs = new Uint16Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const words: Array<{ text: string; marked: boolean }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length) {
    const word = a[i]!;
    if (j < b.length && word === b[j]) {
      words.push({ text: word, marked: false });
      i++;
      j++;
    } else if (j >= b.length || lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) {
      // a word of this side alone (spaces are never marked)
      words.push({ text: word, marked: word.trim() !== '' });
      i++;
    } else j++; // a word of the other side alone
  }
  // a space between two marked words is marked too, and a run of marked or unmarked words is one piece: one
  // mark for a phrase
  for (let k = 1; k < words.length - 1; k++) {
    if (words[k - 1]!.marked && words[k + 1]!.marked) words[k]!.marked = true;
  }
  const pieces: Array<{ text: string; marked: boolean }> = [];
  for (const word of words) {
    const last = pieces.at(-1);
    if (last && last.marked === word.marked) last.text += word.text;
    else pieces.push({ ...word });
  }
  return pieces;
}

function cell(side: Side, other: Side): HTMLElement {
  if (!side) return h('td', { class: 'empty' });
  if (side.kind === 'kept' || !other) return h('td', { class: side.kind }, side.text);
  return h(
    'td',
    { class: side.kind },
    ...markedWords(side.text, other.text).map((word) => (word.marked ? h('mark', {}, word.text) : word.text)),
  );
}

/** Fills `slot` with the diff of `page` against its earlier version, and brings it into view. */
export async function showPageDiff(base: string, page: PageListItem, slot: HTMLElement): Promise<void> {
  slot.replaceChildren(
    h('h3', {}, 'Diff'),
    h('p', { class: 'muted', role: 'status' }, 'Comparing the texts…'),
  );
  slot.scrollIntoView({ block: 'start' });
  let diff: PageDiff;
  try {
    diff = await getJson<PageDiff>(`${base}/pages/${page.id}/diff`);
  } catch (error) {
    slot.replaceChildren(h('h3', {}, 'Diff'), problemBanner(error));
    return;
  }
  const rows = sideBySide(diff.unified);
  const { summary } = diff;
  slot.replaceChildren(
    h('h3', {}, 'Diff of ', pageLink(page.url, page.title || page.url)),
    h(
      'p',
      { class: 'diff-summary' },
      diff.textChanged ? 'The main text changed' : 'The main text is the same (digits aside)',
      ` · similarity ${number(diff.similarity, 3)} · `,
      h('span', { class: 'added' }, `+${number(summary.addedWords)} words`),
      ' · ',
      h('span', { class: 'removed' }, `−${number(summary.removedWords)} words`),
      diff.truncated ? ' · only the beginnings of the texts were compared' : '',
    ),
    rows.length
      ? h(
          'table',
          { class: 'diff' },
          h('caption', {}, `Page ${diff.previousPage} of the earlier crawl | page ${diff.pageId} now`),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Earlier'), h('th', { scope: 'col' }, 'Now'))),
          h(
            'tbody',
            {},
            ...rows.map((row) =>
              'gap' in row
                ? h('tr', { class: 'gap' }, h('td', { colspan: 2 }, '⋯'))
                : h('tr', {}, cell(row.earlier, row.now), cell(row.now, row.earlier)),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'The two main texts are identical.'),
  );
}
