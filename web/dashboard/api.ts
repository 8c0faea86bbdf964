// The dashboard's one way into trawl: the /v1 API with the key the person entered (sessionStorage), as any
// client. Problems come back as ApiProblem with the API's field, for the form to show beside that field.
import type { Problem } from '../../src/schemas/common.js';

const KEY_STORAGE = 'trawl.apiKey';

export function apiKey(): string {
  return sessionStorage.getItem(KEY_STORAGE) ?? '';
}

export function setApiKey(key: string): void {
  if (key) sessionStorage.setItem(KEY_STORAGE, key);
  else sessionStorage.removeItem(KEY_STORAGE);
}

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly field: string | undefined,
    detail: string,
    readonly errors: NonNullable<Problem['errors']> = [],
  ) {
    super(detail);
  }
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const key = apiKey();
  return { accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...extra };
}

export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, { ...init, headers: headers(init.headers as Record<string, string>) });
  if (response.ok) return response;
  let problem: Partial<Problem> = {};
  try {
    problem = await response.json();
  } catch {
    // not problem+json: a proxy's page
  }
  throw new ApiProblem(
    response.status,
    problem.field,
    problem.detail ?? problem.title ?? `HTTP ${response.status}`,
    problem.errors,
  );
}

export async function getJson<T>(path: string): Promise<T> {
  return (await request(path)).json() as Promise<T>;
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const response = await request(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return response.json() as Promise<T>;
}

/** An image or file the API serves behind the key, as an object URL the page can show. */
export async function blobUrl(path: string): Promise<string> {
  return URL.createObjectURL(await (await request(path, { headers: { accept: '*/*' } })).blob());
}

/** Server-sent events over fetch (EventSource cannot send Authorization): calls `on` per event. */
export async function streamEvents(
  path: string,
  on: (event: string, data: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await request(path, { headers: { accept: 'text/event-stream' }, signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let event = '';
  let data: string[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    let newline = buffered.search(/\r\n|\n|\r/);
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + (buffered.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length) on(event || 'message', data.join('\n'));
        event = '';
        data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
      newline = buffered.search(/\r\n|\n|\r/);
    }
  }
}
