// The dashboard's DOM helpers, shared by every view (the graph view's chunk too): elements built with text
// children, never HTML strings, so whatever a crawled page said is shown as text; only http(s) URLs become links.
import { ApiProblem } from './api.js';

export type Child = Node | string | null | undefined | false;

/** An element with attributes (`on*` as listeners) and children (strings as text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | ((event: Event) => void) | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/** The URL when it is http(s), else null: the one test of what may become a link. */
export function httpUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** A link for an http(s) URL; anything else is shown as text. */
export function pageLink(url: string, label = url): Node {
  const href = httpUrl(url);
  return href
    ? h('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, label)
    : document.createTextNode(label);
}

export const number = (value: number | null | undefined, digits = 0) =>
  value == null ? '–' : value.toLocaleString('en-US', { maximumFractionDigits: digits });

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '–');

const main = document.getElementById('main')!;

/** Replaces the page's content with a view. */
export function show(...children: Child[]): void {
  main.replaceChildren(...children.filter((child): child is Node | string => Boolean(child)));
  main.focus();
}

export function problemBanner(error: unknown): HTMLElement {
  const text = error instanceof ApiProblem ? `${error.message} (HTTP ${error.status})` : String(error);
  return h('p', { class: 'problem', role: 'alert' }, text);
}

/** A labelled form field named as the API names it, with the slot its problem is shown in. */
export function field(label: string, name: string, input: HTMLElement, hint?: string): HTMLElement {
  input.id = `field-${name}`;
  input.setAttribute('name', name);
  input.setAttribute('aria-describedby', `error-${name}`);
  return h(
    'div',
    { class: 'field' },
    h('label', { for: `field-${name}` }, label),
    input,
    hint ? h('small', {}, hint) : null,
    h('span', { class: 'field-error', id: `error-${name}`, 'data-field': name, role: 'status' }),
  );
}

/** Clears a form's problems: the slots beside its fields and its banner. */
export function clearProblems(form: HTMLElement, banner: HTMLElement): void {
  for (const slot of form.querySelectorAll<HTMLElement>('.field-error')) slot.textContent = '';
  banner.replaceChildren();
}

/**
 * Shows the API's problem beside the field it names (`seeds[0]` beside `seeds`, `documents[2].text` beside
 * `documents`), or in the banner when no field of this form is named. `alias` maps an API field to the form
 * field that holds it (an upload's `body` is the file field).
 */
export function placeProblems(
  form: HTMLElement,
  banner: HTMLElement,
  error: unknown,
  alias: Record<string, string> = {},
): void {
  const problems =
    error instanceof ApiProblem
      ? error.errors.length
        ? error.errors
        : [{ field: error.field ?? '', message: error.message }]
      : [];
  let placed = false;
  for (const problem of problems) {
    const name = problem.field.replace(/\[\d+\].*$/, '');
    const slot = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(alias[name] ?? name)}"]`);
    if (slot) {
      slot.textContent = problem.message;
      placed = true;
    }
  }
  if (!placed) banner.append(problemBanner(error));
}

/**
 * The submit handler of a form that creates something through the API: clears the form's problems, runs
 * `create` (which returns the hash of what it made, opened next), or shows the API's problems beside the
 * fields they name.
 */
export function createOnSubmit(banner: HTMLElement, create: () => Promise<string>) {
  return async (event: Event): Promise<void> => {
    event.preventDefault();
    const form = event.currentTarget as HTMLElement; // read before any await: it is unset after dispatch
    clearProblems(form, banner);
    try {
      location.hash = await create();
    } catch (error) {
      // the API names the field: shown beside it (seeds[0] beside seeds)
      placeProblems(form, banner, error);
    }
  };
}

/** A "More" button for cursor-paginated lists: shown while the API gives a next link. */
export function moreButton(label: string, load: (next: string) => Promise<void>) {
  let next: string | null = null;
  const button = h('button', { type: 'button', hidden: true, class: 'more' }, label);
  button.addEventListener('click', () => next && load(next));
  return {
    button,
    set(link: string | null) {
      next = link;
      button.hidden = next === null;
    },
  };
}
