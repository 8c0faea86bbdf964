// The crawler's HTTP client on undici 7: redirects followed by hand (each hop recorded, loop-checked,
// SSRF-guarded and offered to the crawler's beforeRedirect), decompression, a byte cap, charset decoding,
// retries for 429/503 and transient network faults. It never throws for a network fault: the fault is
// returned in `error`, because the crawler records it on the page and goes on.
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, buildConnector } from 'undici';
import { exponentialBackoffMs } from '../backoff.js';
import type { AddressGuard } from './address-guard.js';
import { createGuardedLookup, guardAllowing, isBlockedAddress } from './address-guard.js';
import { readBody } from './body.js';
import type { BudgetHold } from './body-budget.js';
import { decodeBody, isDecodedAsText } from './charset.js';

export type FetchErrorCode =
  | 'timeout'
  | 'dns'
  | 'connect'
  | 'reset'
  | 'tls'
  | 'blocked-address'
  | 'too-many-redirects'
  | 'redirect-loop'
  | 'redirect-refused'
  | 'bad-url'
  | 'protocol'
  | 'aborted';

export interface FetchError {
  code: FetchErrorCode;
  message: string;
}

export type RedirectDecision = { follow: true } | { follow: false; reason: string };

export interface RetryOptions {
  /** Total tries including the first. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry comes sooner than this (a host's politeness delay), whatever Retry-After says. */
  minDelayMs?: number;
}

export interface FetchOptions {
  userAgent: string;
  /** Deadline of the whole fetch() call: every redirect hop, retry and retry delay included. */
  timeoutMs: number;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** Larger (decompressed) bodies are cut at maxBytes and marked truncated. */
  maxBytes: number;
  /**
   * The body's bytes are covered by this share of the process's body budget before they are kept; the
   * caller releases it once done with the body. Time spent waiting for the budget is not counted against
   * timeoutMs (the page waits its turn; its server is not slow).
   */
  budgetHold?: BudgetHold;
  /** Only the first maxTextBytes of the body are decoded into `text` (the body itself is kept whole). */
  maxTextBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /**
   * Asked before each hop is followed: the crawler checks robots, scope and dedup there, and waits for the
   * hop's host's turn; that time is not counted against timeoutMs. If it rejects, fetch rejects: that is the
   * caller's own fault (its database, say), not the network's, and not the page's error.
   */
  beforeRedirect?: (from: string, to: string, status: number) => Promise<RedirectDecision>;
  /**
   * false → the body is not downloaded (binary documents not asked for); its size comes from Content-Length.
   * `url` is the URL answering, after redirects (its extension types an untyped document).
   */
  acceptBody?: (contentType: string | null, contentLength: number | null, url: string) => boolean;
  /** For 429/503 and transient network faults; Retry-After is honoured, bounded by maxDelayMs. */
  retry?: RetryOptions;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Default GET. POST sends `body` (webhook deliveries go through the same SSRF-guarded client). */
  method?: 'GET' | 'POST';
  body?: string;
}

export interface FetchResult {
  url: string;
  finalUrl: string;
  status: number | null;
  headers: Record<string, string>;
  contentType: string | null;
  /** Decompressed bytes (gzip, deflate, br); null when not downloaded or on a fault before the body. */
  body: Buffer | null;
  /** The body as text when it is textual (HTML, XML, plain text, JSON). */
  text: string | null;
  charset: string | null;
  bytes: number;
  truncated: boolean;
  /** The body was cut because the process's body budget could not cover more of it (`truncated` too). */
  budgetCut: boolean;
  contentLength: number | null;
  redirects: Array<{ url: string; status: number; location: string }>;
  loadMs: number;
  /** HTTP requests made: 1 + retries (redirect hops not counted). */
  attempts: number;
  /** The delay waited before each retry, in order. */
  retryDelaysMs: number[];
  error: FetchError | null;
}

export interface FetcherOptions {
  /** Lifts the SSRF guard (tests, LAN crawls). */
  allowPrivateNetworks: boolean;
  /** Connections per origin. Default 4. */
  connections?: number;
  keepAliveTimeoutMs?: number;
  /** Replaces the SSRF guard's verdict (e.g. to refuse more ranges); default isBlockedAddress. */
  addressGuard?: AddressGuard;
}

/** The headers every request sends besides User-Agent (a WARC export's request records repeat them). */
export const REQUEST_HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
} as const;
/** A Fetcher's SSRF options from the ALLOW_PRIVATE_NETWORKS setting (true, false, or the CIDRs let through). */
export function fetcherGuard(setting: {
  allowPrivateNetworks: boolean;
  allowedPrivateRanges: readonly string[];
}): Pick<FetcherOptions, 'allowPrivateNetworks' | 'addressGuard'> {
  if (setting.allowPrivateNetworks || setting.allowedPrivateRanges.length === 0) {
    return { allowPrivateNetworks: setting.allowPrivateNetworks };
  }
  return { allowPrivateNetworks: false, addressGuard: guardAllowing(setting.allowedPrivateRanges) };
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const RETRY_STATUSES = new Set([429, 503]);
const RETRYABLE_FAULTS = new Set<FetchErrorCode>(['reset', 'connect', 'timeout']);

interface Response {
  status: number;
  headers: Record<string, string>;
  body: Readable;
}

export class Fetcher {
  readonly #options: FetcherOptions;
  // undici takes the connect timeout per dispatcher, so there is one Agent per timeout value in use.
  readonly #agents = new Map<number, Agent>();
  readonly #guard: AddressGuard;

  constructor(options: FetcherOptions) {
    this.#options = options;
    this.#guard = options.addressGuard ?? isBlockedAddress;
  }

  #agent(connectTimeoutMs: number): Agent {
    let agent = this.#agents.get(connectTimeoutMs);
    if (!agent) {
      agent = new Agent({
        connections: this.#options.connections ?? 4,
        keepAliveTimeout: this.#options.keepAliveTimeoutMs ?? 4_000,
        connect: this.#options.allowPrivateNetworks
          ? { timeout: connectTimeoutMs }
          : this.#guardedConnector(connectTimeoutMs),
      });
      this.#agents.set(connectTimeoutMs, agent);
    }
    return agent;
  }

  /**
   * Connects through the guard: it runs inside the socket's own DNS lookup, so the address checked is the one
   * connected to, and it is told the port (an allowed private target may be one port only). undici's
   * connector takes its lookup when built, so there is one per port in use.
   */
  #guardedConnector(connectTimeoutMs: number): buildConnector.connector {
    const byPort = new Map<number, buildConnector.connector>();
    return (options, callback) => {
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      let connect = byPort.get(port);
      if (!connect) {
        connect = buildConnector({
          timeout: connectTimeoutMs,
          lookup: createGuardedLookup(this.#guard, port),
        });
        byPort.set(port, connect);
      }
      return connect(options, callback);
    };
  }

  async close(): Promise<void> {
    const agents = [...this.#agents.values()];
    this.#agents.clear();
    await Promise.all(agents.map((a) => a.close()));
  }

  async fetch(url: string, opts: FetchOptions): Promise<FetchResult> {
    const started = performance.now();
    const result = blankFetchResult(url);
    const finish = (error: FetchError | null = null): FetchResult => {
      result.error = error;
      result.loadMs = Math.round(performance.now() - started);
      return result;
    };

    let current: URL;
    try {
      current = parseHttpUrl(url);
    } catch (err) {
      return finish({ code: 'bad-url', message: (err as Error).message });
    }
    result.finalUrl = current.href;

    const deadline = new Deadline(opts.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, deadline.signal]) : deadline.signal;
    const fault = (err: unknown): FetchError => {
      if (opts.signal?.aborted) return { code: 'aborted', message: 'aborted by the caller' };
      if (deadline.signal.aborted)
        return { code: 'timeout', message: `timed out after ${opts.timeoutMs} ms` };
      return classifyFault(err);
    };

    try {
      const maxRedirects = opts.maxRedirects ?? 5;
      const visited = new Set([current.href]);
      for (;;) {
        const exchanged = await this.#exchangeWithRetry(current, opts, signal, result, fault, started);
        if ('code' in exchanged) return finish(exchanged);
        const response = exchanged;
        result.status = response.status;
        result.headers = response.headers;

        const location = response.headers.location;
        if (REDIRECT_STATUSES.has(response.status) && location !== undefined) {
          response.body.destroy();
          let target: URL;
          try {
            target = new URL(location, current);
            target.hash = '';
          } catch {
            return finish({ code: 'bad-url', message: `unparseable Location: ${location}` });
          }
          result.redirects.push({ url: current.href, status: response.status, location: target.href });
          if (target.protocol !== 'http:' && target.protocol !== 'https:') {
            return finish({
              code: 'redirect-refused',
              message: `redirect to unsupported scheme ${target.protocol}`,
            });
          }
          if (visited.has(target.href)) {
            return finish({ code: 'redirect-loop', message: `redirect loop back to ${target.href}` });
          }
          if (result.redirects.length > maxRedirects) {
            return finish({ code: 'too-many-redirects', message: `more than ${maxRedirects} redirects` });
          }
          if (opts.beforeRedirect) {
            // the hop may wait for its host's turn (politeness), which is not the server being slow
            deadline.pause();
            let decision: RedirectDecision;
            try {
              decision = await opts.beforeRedirect(current.href, target.href, response.status);
            } finally {
              deadline.resume();
            }
            if (!decision.follow) return finish({ code: 'redirect-refused', message: decision.reason });
          }
          visited.add(target.href);
          current = target;
          result.finalUrl = current.href;
          continue;
        }

        const contentType = response.headers['content-type'] ?? null;
        const lengthHeader = response.headers['content-length'];
        result.contentType = contentType;
        result.contentLength =
          lengthHeader !== undefined && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
        if (opts.acceptBody && !opts.acceptBody(contentType, result.contentLength, current.href)) {
          // Aborting after the headers closes the connection before the document is transferred.
          response.body.destroy();
          return finish();
        }
        try {
          const read = await readBody(response.body, response.headers['content-encoding'], opts.maxBytes, {
            ...(opts.budgetHold ? { hold: opts.budgetHold } : {}),
            contentLength: result.contentLength,
            signal,
            onBudgetWait: (waiting) => (waiting ? deadline.pause() : deadline.resume()),
          });
          result.body = read.body;
          result.bytes = read.body.length;
          result.truncated = read.truncated;
          result.budgetCut = read.budgetCut;
        } catch (err) {
          return finish(fault(err));
        }
        if (isDecodedAsText(contentType) || (contentType === null && looksLikeText(result.body))) {
          const text =
            opts.maxTextBytes !== undefined && result.body.length > opts.maxTextBytes
              ? result.body.subarray(0, opts.maxTextBytes)
              : result.body;
          const decoded = decodeBody(text, contentType);
          result.text = decoded.text;
          result.charset = decoded.charset;
        }
        return finish();
      }
    } finally {
      deadline.clear();
    }
  }

  /** One hop: the SSRF check for IP literals, then the request, retried on 429/503 and transient faults. */
  async #exchangeWithRetry(
    url: URL,
    opts: FetchOptions,
    signal: AbortSignal,
    result: FetchResult,
    fault: (err: unknown) => FetchError,
    startedMs: number,
  ): Promise<Response | FetchError> {
    // The socket's lookup is not called for IP literals, so they are checked here.
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (!this.#options.allowPrivateNetworks && isIP(host) !== 0) {
      const verdict = this.#guard(host, Number(url.port) || (url.protocol === 'https:' ? 443 : 80));
      if (verdict.blocked) {
        return { code: 'blocked-address', message: `${host} is in a refused range (${verdict.range})` };
      }
    }
    const maxAttempts = Math.max(1, opts.retry?.attempts ?? 1);
    for (let attempt = 1; ; attempt++) {
      result.attempts++;
      const canRetry = attempt < maxAttempts && opts.retry !== undefined;
      let response: Response;
      try {
        response = await this.#request(url, opts, signal);
      } catch (err) {
        const error = fault(err);
        if (!canRetry || !RETRYABLE_FAULTS.has(error.code) || signal.aborted) return error;
        const delayMs = exponentialBackoffMs(attempt, opts.retry!);
        if (!fitsDeadline(delayMs, opts.timeoutMs, startedMs)) return error;
        if (!(await this.#wait(delayMs, signal, result))) return fault(signal.reason);
        continue;
      }
      if (!canRetry || !RETRY_STATUSES.has(response.status)) return response;
      const hinted = retryAfterMs(response.headers['retry-after']);
      const delayMs = Math.max(
        opts.retry!.minDelayMs ?? 0,
        Math.min(hinted ?? exponentialBackoffMs(attempt, opts.retry!), opts.retry!.maxDelayMs),
      );
      if (!fitsDeadline(delayMs, opts.timeoutMs, startedMs)) return response;
      response.body.destroy();
      if (!(await this.#wait(delayMs, signal, result))) return fault(signal.reason);
    }
  }

  async #wait(delayMs: number, signal: AbortSignal, result: FetchResult): Promise<boolean> {
    result.retryDelaysMs.push(delayMs);
    try {
      await sleep(delayMs, undefined, { signal });
      return true;
    } catch {
      return false;
    }
  }

  async #request(url: URL, opts: FetchOptions, signal: AbortSignal): Promise<Response> {
    const agent = this.#agent(opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
    const response = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: opts.method ?? 'GET',
      ...(opts.body !== undefined ? { body: opts.body } : {}),
      headers: {
        'user-agent': opts.userAgent,
        ...REQUEST_HEADERS,
        ...opts.headers,
      },
      signal,
      headersTimeout: opts.headersTimeoutMs ?? opts.timeoutMs,
      bodyTimeout: opts.bodyTimeoutMs ?? opts.timeoutMs,
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    // An error on a body nobody reads yet (e.g. while we wait to retry) must not become an uncaught one.
    response.body.on('error', () => {});
    return { status: response.statusCode, headers, body: response.body };
  }
}

/** The fetch's deadline: an abort after timeoutMs, paused while the fetch waits for the body budget or a redirect hop's turn. */
class Deadline {
  readonly #controller = new AbortController();
  readonly #timeoutMs: number;
  #remainingMs: number;
  #startedMs = performance.now();
  #timer: NodeJS.Timeout | null = null;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    this.#remainingMs = timeoutMs;
    this.resume();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  pause(): void {
    if (this.#timer === null) return;
    this.clear();
    this.#remainingMs = Math.max(0, this.#remainingMs - (performance.now() - this.#startedMs));
  }

  resume(): void {
    if (this.#timer !== null || this.signal.aborted) return;
    this.#startedMs = performance.now();
    this.#timer = setTimeout(
      () => this.#controller.abort(new Error(`timed out after ${this.#timeoutMs} ms`)),
      this.#remainingMs,
    );
  }

  clear(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}

function parseHttpUrl(url: string): URL {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`unsupported scheme ${parsed.protocol}`);
  }
  parsed.hash = '';
  return parsed;
}

function fitsDeadline(delayMs: number, timeoutMs: number, startedMs: number): boolean {
  return performance.now() - startedMs + delayMs < timeoutMs;
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now. */
export function retryAfterMs(value: string | undefined, nowMs = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

function looksLikeText(body: Buffer): boolean {
  return !body.subarray(0, 1024).includes(0);
}

const FAULTS_BY_CODE: Record<string, FetchErrorCode> = {
  ETRAWLBLOCKED: 'blocked-address',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NODATA: 'dns',
  EAI_NONAME: 'dns',
  ECONNREFUSED: 'connect',
  EHOSTUNREACH: 'connect',
  ENETUNREACH: 'connect',
  EHOSTDOWN: 'connect',
  EADDRNOTAVAIL: 'connect',
  ECONNRESET: 'reset',
  ECONNABORTED: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_ABORTED: 'aborted',
  UND_ERR_INVALID_ARG: 'bad-url',
};

/** Maps a Node/undici/zlib error to the crawler's fault codes. */
export function classifyFault(err: unknown): FetchError {
  // Happy Eyeballs (autoSelectFamily) reports every failed attempt in an AggregateError.
  const first = err instanceof AggregateError && err.errors.length > 0 ? err.errors[0] : err;
  const error = first instanceof Error ? first : new Error(String(first));
  const code = String((error as NodeJS.ErrnoException).code ?? '');
  const message = error.message || code || 'unknown fault';
  const mapped = FAULTS_BY_CODE[code];
  if (mapped) return { code: mapped, message };
  if (/^ERR_TLS|^ERR_SSL|CERT|^UNABLE_TO_|^DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH/.test(code)) {
    return { code: 'tls', message };
  }
  if (error.name === 'AbortError') return { code: 'aborted', message };
  return { code: 'protocol', message };
}

/** A fetch of `url` before anything happened: no answer, no body, no error yet (filled in as the fetch goes). */
export function blankFetchResult(url: string): FetchResult {
  return {
    url,
    finalUrl: url,
    status: null,
    headers: {},
    contentType: null,
    body: null,
    text: null,
    charset: null,
    bytes: 0,
    truncated: false,
    budgetCut: false,
    contentLength: null,
    redirects: [],
    loadMs: 0,
    attempts: 0,
    retryDelaysMs: [],
    error: null,
  };
}
