// #/schedules (docs/guide.md#schedules): the schedules, newest first, each with its last crawl and why its last
// run started none; the form that makes one, or changes one (its name and when it runs), and delete. The list
// stays on this view after each, read again.
import type { Schedule, ScheduleList } from '../../../src/schemas/schedules.js';
import { getJson, postJson, request } from '../api.js';
import { createOnSubmit, field, h, moreButton, number, problemBanner, show, when } from '../dom.js';

type Timing = 'every' | 'cron';

interface ScheduleForm {
  form: HTMLElement;
  /** Turns the form to changing `schedule`: its name and when it runs filled in. */
  change(schedule: Schedule): void;
}

/**
 * The form: a name, the crawl (seeds, max pages) and when it runs, the fields named as the API names them. To
 * change a schedule it keeps the name and the timing and leaves the crawl request as it is (PATCH replaces a
 * crawl request whole, and the form holds only two of its fields).
 */
function scheduleForm(saved: () => Promise<void>): ScheduleForm {
  let changing: Schedule | null = null;
  const name = h('input', { type: 'text', maxlength: 200, placeholder: 'news front pages' });
  const seeds = h('textarea', { rows: 2, required: true, placeholder: 'https://example.org/' });
  const maxPages = h('input', { type: 'number', min: 1, value: 100 });
  const timing = h(
    'select',
    { id: 'schedule-timing' },
    h('option', { value: 'every' }, 'at an interval'),
    h('option', { value: 'cron' }, 'when a cron expression matches'),
  );
  const every = h('input', { type: 'text', value: '1d', placeholder: '6h' });
  const cron = h('input', { type: 'text', placeholder: '0 6 * * 1-5', spellcheck: false });
  // the person's own zone first: the one a cron they write is most likely meant in
  const ownZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const timezone = h('input', { type: 'text', value: ownZone, placeholder: 'Europe/Paris' });
  const fields: Record<Timing, HTMLElement[]> = {
    every: [field('Every', 'every', every, 'a whole number and s, m, h, d or w: 30m, 6h, 1d')],
    cron: [
      field('Cron', 'cron', cron, 'minute hour day-of-month month day-of-week'),
      field('Time zone', 'timezone', timezone, 'IANA name the cron is read in'),
    ],
  };
  const choose = () => {
    for (const [key, elements] of Object.entries(fields))
      for (const element of elements) element.hidden = key !== timing.value;
  };
  timing.addEventListener('change', choose);
  choose();
  const crawlFields = [
    field('Seeds', 'crawl.seeds', seeds, 'http(s) URLs, one per line'),
    field('Max pages', 'crawl.maxPages', maxPages),
  ];
  const title = h('h2');
  const explanation = h('p', { class: 'muted' });
  const submit = h('button', { type: 'submit' });
  const banner = h('div', { class: 'form-problem', role: 'alert' });
  const timingBody = (): Record<string, string> =>
    timing.value === 'cron'
      ? { cron: cron.value.trim(), timezone: timezone.value.trim() }
      : { every: every.value.trim() };
  const cancel = h('button', { type: 'button', class: 'link' }, 'Cancel');
  /** Making a schedule (null) or changing `schedule`: the title, the words, the buttons and the crawl fields. */
  const changeTo = (schedule: Schedule | null) => {
    changing = schedule;
    title.textContent = schedule ? `Change ${schedule.name ?? 'a schedule'}` : 'Make a schedule';
    explanation.textContent = schedule
      ? 'Its name and when it runs; the next run is computed again. Its crawl request stays as it is.'
      : 'Runs a crawl on time; every run after the first recrawls the last one that completed.';
    submit.textContent = schedule ? 'Save' : 'Make';
    cancel.hidden = !schedule;
    for (const element of crawlFields) element.hidden = Boolean(schedule);
    seeds.required = !schedule;
    name.value = schedule?.name ?? '';
  };
  const making = () => changeTo(null);
  cancel.addEventListener('click', making);
  making();
  const form = h(
    'form',
    {
      class: 'schedule-form',
      'aria-label': 'Make or change a schedule',
      onsubmit: createOnSubmit(banner, async () => {
        if (changing) {
          const patch = { name: name.value.trim() || null, ...timingBody() };
          await request(`/v1/schedules/${changing.id}`, {
            method: 'PATCH',
            body: JSON.stringify(patch),
            headers: { 'content-type': 'application/json' },
          });
        } else {
          const body: Record<string, unknown> = {
            crawl: { seeds: seeds.value.split(/\s+/).filter(Boolean), maxPages: Number(maxPages.value) },
            ...timingBody(),
          };
          if (name.value.trim()) body.name = name.value.trim();
          await postJson<Schedule>('/v1/schedules', body);
        }
        making();
        await saved();
        // the list is on this view: nothing to open
        return location.hash;
      }),
    },
    title,
    explanation,
    field('Name', 'name', name),
    ...crawlFields,
    h('div', { class: 'field' }, h('label', { for: 'schedule-timing' }, 'Runs'), timing),
    ...fields.every,
    ...fields.cron,
    h('div', { class: 'actions' }, submit, cancel),
    banner,
  );
  const change = (schedule: Schedule) => {
    changeTo(schedule);
    timing.value = schedule.cron ? 'cron' : 'every';
    if (schedule.cron) {
      cron.value = schedule.cron;
      timezone.value = schedule.timezone ?? ownZone;
    } else {
      every.value = schedule.every ?? '1d';
    }
    choose();
    name.focus();
  };
  return { form, change };
}

/** When it runs, as a person reads it: "every 6h" or the cron and its zone. */
function timingText(schedule: Schedule): string {
  return schedule.cron ? `${schedule.cron} (${schedule.timezone})` : `every ${schedule.every}`;
}

export async function schedulesView(signal: AbortSignal): Promise<void> {
  const body = h('tbody');
  const state = h('div', { role: 'status', class: 'muted' });
  const editor = scheduleForm(() => load(first, false));
  const row = (s: Schedule): HTMLElement => {
    const tr = h(
      'tr',
      { 'data-schedule': s.id },
      h('td', {}, s.name ?? h('span', { class: 'muted' }, s.id.slice(0, 8))),
      h('td', {}, h('code', {}, timingText(s))),
      h('td', {}, when(s.nextRunAt)),
      h('td', { class: 'number' }, number(s.runs)),
      h('td', { class: 'number' }, number(s.skippedRuns)),
      h('td', {}, s.lastCrawlId ? h('a', { href: `#/crawls/${s.lastCrawlId}` }, when(s.lastRunAt)) : '–'),
      h('td', { class: 'schedule-error' }, s.lastError ?? ''),
      h(
        'td',
        { class: 'row-actions' },
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            'aria-label': `Change schedule ${s.name ?? s.id}`,
            onclick: () => editor.change(s),
          },
          'Change',
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'link delete',
            'aria-label': `Delete schedule ${s.name ?? s.id}`,
            onclick: async () => {
              try {
                await request(`/v1/schedules/${s.id}`, { method: 'DELETE' });
                tr.remove();
                if (!body.childElementCount) state.textContent = 'No schedules yet: make one with the form.';
              } catch (error) {
                state.replaceChildren(problemBanner(error));
              }
            },
          },
          'Delete',
        ),
      ),
    );
    return tr;
  };
  const load = async (path: string, append: boolean) => {
    try {
      const page = await getJson<ScheduleList>(path);
      if (signal.aborted) return;
      const rows = page.items.map(row);
      if (append) body.append(...rows);
      else body.replaceChildren(...rows);
      more.set(page.next);
      state.textContent = body.childElementCount ? '' : 'No schedules yet: make one with the form.';
    } catch (error) {
      state.replaceChildren(problemBanner(error));
    }
  };
  const more = moreButton('More schedules', (next) => load(next, true));
  const first = '/v1/schedules?limit=25';
  show(
    h(
      'div',
      { class: 'columns' },
      h('section', {}, editor.form),
      h(
        'section',
        {},
        h('h2', {}, 'Schedules'),
        state,
        h(
          'table',
          { class: 'schedules' },
          h('caption', {}, 'Schedules, newest first'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...['Name', 'When', 'Next run'].map((t) => h('th', { scope: 'col' }, t)),
              ...['Runs', 'Skipped'].map((t) => h('th', { scope: 'col', class: 'number' }, t)),
              ...['Last crawl', 'Last error'].map((t) => h('th', { scope: 'col' }, t)),
              h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
            ),
          ),
          body,
        ),
        more.button,
      ),
    ),
  );
  await load(first, false);
}
