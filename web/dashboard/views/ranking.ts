// #/rankings/<id>: one ranking, waited for while its job runs (components/ranking-panel.ts draws it).
import type { RankingOrJob } from '../../../src/schemas/rankings.js';
import { getJson } from '../api.js';
import { completedRanking, rankingPanel } from '../components/ranking-panel.js';
import { h, number, problemBanner, show, when } from '../dom.js';

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
    const first = await getJson<RankingOrJob>(`/v1/rankings/${encodeURIComponent(id)}`);
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
