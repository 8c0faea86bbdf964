// The renderer port: what the crawl engine needs from a headless browser, in domain terms. The engine hands
// it the main document it already fetched and answers every other request the page makes itself (SSRF
// guard, robots.txt, the page's budget), so the browser never touches the network; chromium.ts implements
// it with playwright-core, at the edge of the domain as the undici fetcher is.
import type { RenderBlockable, RenderWait } from '../vocabulary.js';

/** A request the rendered page makes (a script, XHR, frame, stylesheet, or a navigation of its own). */
export interface PageRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
  /** Playwright's resource type: document, script, xhr, fetch, stylesheet, … */
  kind: string;
  /** The main frame navigating away from the page. */
  navigation: boolean;
}

/** The crawl's answer to a page's request: a response to serve, or why it was refused. */
export type PageRequestAnswer =
  | { status: number; headers: Record<string, string>; body: Buffer }
  | { refused: string };

export interface RenderJob {
  /** The main document's URL (after redirects). */
  url: string;
  /** The main document as fetched: served to the browser, never fetched twice. */
  document: { status: number; headers: Record<string, string>; body: Buffer };
  userAgent: string;
  waitUntil: RenderWait;
  /** Deadline of the whole render, from when the browser starts on it. */
  timeoutMs: number;
  /** Resource types aborted without asking `answer`. */
  block: ReadonlySet<RenderBlockable | string>;
  screenshot: boolean;
  /** Every other request the page makes. */
  answer(request: PageRequest): Promise<PageRequestAnswer>;
  signal: AbortSignal;
}

export interface RenderOutput {
  /** The serialized DOM; null when nothing could be read (the page hung past its deadline, the browser died). */
  html: string | null;
  /** Where the page ended (a navigation of its own moves it). */
  finalUrl: string;
  /** Milliseconds from when the browser started on the page until its DOM was read. */
  renderMs: number;
  /** Why the render fell short (timed out, the browser crashed), when it did. */
  problem: string | null;
  screenshot: Buffer | null;
  /** Requests of the page served, refused by the crawl's rules, and blocked by type. */
  requests: { served: number; refused: number; blocked: number };
}

export interface PageRenderer {
  /** Resolves once the browser can take pages (launched lazily); rejects with why it cannot render. */
  ready(): Promise<void>;
  render(job: RenderJob): Promise<RenderOutput>;
}

/** Why a worker cannot render: no Chromium where it was looked for, or it would not start. */
export class RendererUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RendererUnavailableError';
  }
}
