// A Fetcher without a network, for the runner's unit tests: each URL answers from a table, redirects are
// offered to beforeRedirect hop by hop (as the real client does), and every request is logged with its time.
// A URL marked `hang` answers only when the caller aborts, as a server that never replies; one with an `etag`
// sends it and answers 304 to a request whose If-None-Match names it (a recrawl's conditional request).
import { performance } from 'node:perf_hooks';
import { blankFetchResult, type FetchOptions, type FetchResult } from '../../src/crawler/fetch/index.js';

export type FakeResponse =
  | { status?: number; contentType?: string; body?: string | Buffer; etag?: string }
  | { redirect: string; status?: number }
  | { hang: true };

export class FakeFetcher {
  /** Every request made, in order: the URL of each hop, when it was sent (Date.now()) and its extra headers. */
  readonly requests: Array<{ url: string; atMs: number; headers: Record<string, string> }> = [];

  /** `routes` by absolute URL; a URL not in it answers 404 (robots.txt included: allow all). */
  constructor(private readonly routes: Record<string, FakeResponse>) {}

  requested(url: string): number {
    return this.requests.filter((request) => request.url === url).length;
  }

  async fetch(url: string, opts: FetchOptions): Promise<FetchResult> {
    const started = performance.now();
    const result = blankFetchResult(url);
    const finish = (error: FetchResult['error'] = null) => {
      result.error = error;
      result.loadMs = performance.now() - started;
      return result;
    };
    const aborted = { code: 'aborted' as const, message: 'aborted by the caller' };
    let current = url;
    for (;;) {
      if (opts.signal?.aborted) return finish(aborted);
      this.requests.push({ url: current, atMs: Date.now(), headers: { ...opts.headers } });
      result.attempts += 1;
      const response = this.routes[current] ?? { status: 404 };
      if ('hang' in response) {
        await new Promise<void>((resolve) => {
          if (opts.signal?.aborted) resolve();
          opts.signal?.addEventListener('abort', () => resolve(), { once: true });
        });
        return finish(aborted);
      }
      if ('redirect' in response) {
        const status = response.status ?? 301;
        const target = new URL(response.redirect, current).href;
        result.status = status;
        result.redirects.push({ url: current, status, location: target });
        if (opts.beforeRedirect) {
          const decision = await opts.beforeRedirect(current, target, status);
          if (!decision.follow) return finish({ code: 'redirect-refused', message: decision.reason });
        }
        current = target;
        result.finalUrl = target;
        continue;
      }
      if (response.etag !== undefined && opts.headers?.['if-none-match'] === response.etag) {
        result.status = 304;
        result.headers = { etag: response.etag };
        return finish();
      }
      result.status = response.status ?? 200;
      result.contentType = response.contentType ?? (response.body === undefined ? null : 'text/html');
      result.headers = {
        ...(result.contentType ? { 'content-type': result.contentType } : {}),
        ...(response.etag !== undefined ? { etag: response.etag } : {}),
      };
      if (opts.acceptBody && !opts.acceptBody(result.contentType, null, result.finalUrl)) return finish();
      const body = Buffer.from(response.body ?? '');
      result.body = body;
      result.bytes = body.length;
      // a Buffer is a binary body (a document): no text, as the real client decodes only textual bodies
      result.text =
        typeof response.body === 'string' || response.body === undefined ? body.toString('utf8') : null;
      return finish();
    }
  }
}
