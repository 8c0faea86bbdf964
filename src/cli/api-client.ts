// The CLI's one way into trawl: the /v1 HTTP API at `--api` / TRAWL_API with `--key` / TRAWL_KEY, as any other
// client would use it (the dashboard's rule too: no second path into the database). A problem+json answer
// becomes an ApiProblem carrying the API's own detail and field; a server that cannot be reached, or a 5xx,
// becomes ApiUnavailable, so the commands map both to documented exit codes in one place (exit-codes.ts).
import { randomUUID } from 'node:crypto';

export const DEFAULT_API_URL = 'http://localhost:3000';

/** The path of a crawl's resource: the crawl itself, or `rest` under it (`/pages`, `/export`). */
export function crawlPath(id: string, rest = ''): string {
  return `/v1/crawls/${encodeURIComponent(id)}${rest}`;
}

/** A list's `next` link as a path on this client's base URL (the API may answer it absolute). */
export function pathOf(next: string): string {
  if (!/^https?:/i.test(next)) return next;
  const url = new URL(next);
  return `${url.pathname}${url.search}`;
}

/** The API refused the request (4xx): what problem+json said, field included. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: {
      type?: string;
      title?: string;
      detail?: string;
      field?: string;
      [key: string]: unknown;
    },
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
  }
}

/** The API could not be reached, or failed on its side (5xx). */
export class ApiUnavailable extends Error {}

export interface RequestOptions {
  /** a JSON body (sent with content-type application/json) */
  json?: unknown;
  /** a raw body and its content type; a stream is sent as it is read, and never retried */
  body?: { data: Uint8Array | string | ReadableStream<Uint8Array>; contentType: string };
  accept?: string;
  /** query-string parameters; undefined values are left out, arrays repeat the name */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  /** retried POSTs that create work carry one Idempotency-Key, so a retry never creates a second job */
  idempotent?: boolean;
  signal?: AbortSignal;
}

/** Statuses worth one more try with the same Idempotency-Key: the server was busy or restarting. */
const RETRYABLE = new Set([502, 503, 504]);
const ATTEMPTS = 3;

export class ApiClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly key: string | undefined,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  url(path: string, query?: RequestOptions['query']): string {
    const url = new URL(`${this.baseUrl}${path}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, item);
      else url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  /** The answer of a 2xx request, or ApiProblem / ApiUnavailable. The body is the caller's to read. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
    if (this.key) headers.authorization = `Bearer ${this.key}`;
    let body: string | Uint8Array | ReadableStream<Uint8Array> | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.body) {
      headers['content-type'] = options.body.contentType;
      body = options.body.data;
    }
    if (options.idempotent) headers['idempotency-key'] = randomUUID();
    const target = this.url(path, options.query);
    const streamed = body instanceof ReadableStream;
    const attempts = streamed ? 1 : ATTEMPTS;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(target, {
          method,
          headers,
          body,
          signal: options.signal,
          ...(streamed ? { duplex: 'half' as const } : {}),
        });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (options.idempotent && attempt < attempts) {
          await pause(attempt);
          continue;
        }
        throw new ApiUnavailable(`cannot reach the trawl API at ${this.baseUrl}: ${reason(error)}`);
      }
      if (response.ok) return response;
      if (RETRYABLE.has(response.status) && attempt < attempts && (options.idempotent || method === 'GET')) {
        await response.body?.cancel();
        await pause(attempt, response.headers.get('retry-after'));
        continue;
      }
      const problem = await readProblem(response);
      if (response.status >= 500) {
        throw new ApiUnavailable(
          `the trawl API failed (${response.status}): ${problem.detail ?? problem.title}`,
        );
      }
      throw new ApiProblem(response.status, problem);
    }
  }

  async json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.request(method, path, options);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }
}

async function readProblem(response: Response): Promise<ApiProblem['problem']> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object') return parsed as ApiProblem['problem'];
  } catch {
    // not JSON: a proxy's page or an empty body
  }
  return { title: response.statusText || `HTTP ${response.status}`, detail: text.slice(0, 200) || undefined };
}

function reason(error: unknown): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** 0.5 s, then 1 s; a Retry-After in seconds (at most 10) wins. */
function pause(attempt: number, retryAfter?: string | null): Promise<void> {
  const asked = Number(retryAfter);
  const ms = Number.isFinite(asked) && asked > 0 ? Math.min(asked, 10) * 1000 : 500 * attempt;
  return new Promise((resolve) => setTimeout(resolve, ms));
}
