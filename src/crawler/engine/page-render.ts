// Rendering a fetched HTML page (docs/reference.md#rendering): whether to (render.mode, the auto rule), and
// the crawl's answer to every request the rendered page makes. The browser never reaches the network: each
// request goes through the crawl's guarded fetcher (the SSRF guard resolves and checks every address),
// robots.txt is asked for every URL and redirect hop, image/font/media requests are blocked by default, and
// all of them share the page's budget of bytes (fetch.maxBytes) and time (render.timeoutMs). Subresources are
// exempt from the per-host delay: they are part of one page view, as a browser loads them. GET answers of
// scripts and stylesheets are kept in a bounded cache of the crawl's, so a site's bundle is fetched once.
import { performance } from 'node:perf_hooks';
import type { BudgetHold, Fetcher, FetchResult } from '../fetch/index.js';
import { autoRenderRule } from '../render/auto-rule.js';
import type { PageRenderer, PageRequest, PageRequestAnswer, RenderOutput } from '../render/port.js';
import type { PageRenderRecord, RenderSettings } from './ports.js';

/** Bytes of subresource answers one crawl runner keeps for its pages (oldest dropped first). */
const CACHE_MAX_BYTES = 32 * 1024 * 1024;
const CACHED_KINDS = new Set(['script', 'stylesheet']);
/** Request headers passed on from the page (the fetcher sets its own user agent and encodings). */
const FORWARDED_HEADERS = ['accept', 'accept-language', 'content-type'];
/** Refusals named in a page's render note (the rest are counted). */
const NOTED_REFUSALS = 5;

export interface PageRenderingOptions {
  render: RenderSettings;
  userAgent: string;
  /** The page's byte budget: its subresources together fetch at most this many bytes. */
  maxBytes: number;
  renderer: PageRenderer;
  fetcher: Pick<Fetcher, 'fetch'>;
  /** Why robots.txt (or the SSRF guard, asked for robots.txt) refuses `url`; null when it may be fetched. */
  refusal(url: string): Promise<string | null>;
}

/** How a page was read in a crawl that renders: the record, and the DOM to parse when it was rendered. */
export interface RenderedPage {
  record: PageRenderRecord;
  /** The rendered DOM (null: not rendered, parse the fetched HTML). */
  html: string | null;
  finalUrl: string;
  /** What fell short (a timeout, a failed render), for the page's error. */
  problem: string | null;
}

interface CachedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export class PageRendering {
  readonly #options: PageRenderingOptions;
  readonly #block: ReadonlySet<string>;
  readonly #cache = new Map<string, CachedAnswer>();
  #cachedBytes = 0;

  constructor(options: PageRenderingOptions) {
    this.#options = options;
    this.#block = new Set(options.render.block);
  }

  /** Whether the page is rendered, and why (always, auto:<rule>; auto:static when it is not). */
  decide(staticHtml: string | null): { render: boolean; reason: string } {
    const { mode } = this.#options.render;
    if (mode === 'always') return { render: true, reason: 'always' };
    const rule = autoRenderRule(staticHtml ?? '');
    return { render: rule !== 'static', reason: `auto:${rule}` };
  }

  /** Reads a fetched HTML page as the crawl asks: rendered or not, with its record. */
  async read(fetched: FetchResult, hold: BudgetHold | undefined, signal: AbortSignal): Promise<RenderedPage> {
    const fetchMs = Math.round(fetched.loadMs);
    const decision = this.decide(fetched.text);
    const notRendered = (reason: string, renderMs: number | null, problem: string | null): RenderedPage => ({
      record: {
        rendered: false,
        reason,
        fetchMs,
        renderMs,
        navigatedFrom: null,
        screenshot: null,
        note: problem,
      },
      html: null,
      finalUrl: fetched.finalUrl,
      problem,
    });
    if (!decision.render) return notRendered(decision.reason, null, null);
    const { output, note } = await this.#render(fetched, hold, signal);
    if (output.html === null) {
      const failed = notRendered('render-failed', output.renderMs, output.problem);
      return { ...failed, record: { ...failed.record, note } };
    }
    const navigated = sameDocument(output.finalUrl, fetched.finalUrl) ? null : fetched.finalUrl;
    return {
      record: {
        rendered: true,
        reason: decision.reason,
        fetchMs,
        renderMs: output.renderMs,
        navigatedFrom: navigated,
        screenshot: output.screenshot,
        note,
      },
      html: output.html,
      finalUrl: navigated ? output.finalUrl : fetched.finalUrl,
      problem: output.problem,
    };
  }

  /** The render's output, and its note: what fell short and which requests the crawl's rules refused. */
  async #render(
    fetched: FetchResult,
    hold: BudgetHold | undefined,
    signal: AbortSignal,
  ): Promise<{ output: RenderOutput; note: string | null }> {
    const { render, userAgent } = this.#options;
    // every request still in flight when the render ends is cut then
    const done = new AbortController();
    const requestSignal = AbortSignal.any([signal, done.signal]);
    const budget = { bytesLeft: this.#options.maxBytes, deadlineMs: 0 };
    const refusals: string[] = [];
    let refusedCount = 0;
    const refuse = (url: string, reason: string): PageRequestAnswer => {
      refusedCount++;
      if (refusals.length < NOTED_REFUSALS) refusals.push(`${url.slice(0, 300)} (${reason})`);
      return { refused: reason };
    };
    try {
      const output = await this.#options.renderer.render({
        url: fetched.finalUrl,
        document: {
          status: fetched.status ?? 200,
          headers: fetched.headers,
          body: fetched.body ?? Buffer.alloc(0),
        },
        userAgent,
        waitUntil: render.waitUntil,
        timeoutMs: render.timeoutMs,
        block: this.#block,
        screenshot: render.screenshot,
        signal,
        answer: async (request) => {
          // the page's time budget starts with its first request, once the browser has it
          if (budget.deadlineMs === 0) budget.deadlineMs = performance.now() + render.timeoutMs;
          const answered = await this.#answer(request, budget, hold, requestSignal);
          return 'refused' in answered ? refuse(request.url, answered.refused) : answered;
        },
      });
      if (refusedCount === 0) return { output, note: output.problem };
      const more = refusedCount > refusals.length ? ` and ${refusedCount - refusals.length} more` : '';
      const refused = `${refusedCount} request${refusedCount === 1 ? '' : 's'} refused: ${refusals.join(', ')}${more}`;
      return { output, note: output.problem ? `${output.problem}; ${refused}` : refused };
    } finally {
      done.abort();
    }
  }

  async #answer(
    request: PageRequest,
    budget: { bytesLeft: number; deadlineMs: number },
    hold: BudgetHold | undefined,
    signal: AbortSignal,
  ): Promise<PageRequestAnswer> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return { refused: 'bad-url' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refused: `scheme ${url.protocol}` };
    if (request.method !== 'GET' && request.method !== 'POST') return { refused: `method ${request.method}` };
    const cacheable = request.method === 'GET' && CACHED_KINDS.has(request.kind);
    const cached = cacheable ? this.#cache.get(url.href) : undefined;
    if (cached) return this.#spend(cached, budget);
    const robots = await this.#options.refusal(url.href);
    if (robots !== null) return { refused: robots };
    const timeoutMs = Math.round(budget.deadlineMs - performance.now());
    if (timeoutMs < 50) return { refused: "the page's time budget is spent" };
    if (budget.bytesLeft <= 0) return { refused: "the page's byte budget is spent" };
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    const result = await this.#options.fetcher.fetch(url.href, {
      userAgent: this.#options.userAgent,
      timeoutMs,
      maxBytes: budget.bytesLeft,
      method: request.method,
      ...(request.method === 'POST' && request.body ? { body: request.body.toString('utf8') } : {}),
      headers,
      signal,
      ...(hold ? { budgetHold: hold } : {}),
      // every hop of a subresource's redirect is asked of robots.txt too (the guard checks its address)
      beforeRedirect: async (_from, to) => {
        const refused = await this.#options.refusal(to);
        return refused === null ? { follow: true } : { follow: false, reason: refused };
      },
    });
    if (result.error) return { refused: `${result.error.code}: ${result.error.message}` };
    if (result.truncated) {
      budget.bytesLeft = 0;
      return { refused: "the page's byte budget is spent" };
    }
    const answer: CachedAnswer = {
      status: result.status ?? 502,
      headers: result.headers,
      body: result.body ?? Buffer.alloc(0),
    };
    if (cacheable && answer.status === 200 && !/no-store/i.test(result.headers['cache-control'] ?? '')) {
      this.#remember(url.href, answer);
    }
    budget.bytesLeft -= answer.body.length;
    return answer;
  }

  #spend(answer: CachedAnswer, budget: { bytesLeft: number }): PageRequestAnswer {
    if (answer.body.length > budget.bytesLeft) return { refused: "the page's byte budget is spent" };
    budget.bytesLeft -= answer.body.length;
    return answer;
  }

  #remember(url: string, answer: CachedAnswer): void {
    if (answer.body.length > CACHE_MAX_BYTES / 8) return;
    this.#cache.set(url, answer);
    this.#cachedBytes += answer.body.length;
    for (const [oldest, kept] of this.#cache) {
      if (this.#cachedBytes <= CACHE_MAX_BYTES) break;
      this.#cache.delete(oldest);
      this.#cachedBytes -= kept.body.length;
    }
  }
}

function sameDocument(a: string, b: string): boolean {
  const strip = (url: string) => url.replace(/#.*$/, '');
  return strip(a) === strip(b);
}
