// The PageRenderer on Debian's Chromium, driven by playwright-core. The browser never reaches the network
// itself: every request a page makes is intercepted and answered by the crawl (route.fulfill), service workers
// are blocked, WebSockets closed and WebRTC removed (they bypass interception), and Chromium is started with a
// black-hole proxy as a second wall, so even a request that slipped past interception goes nowhere.
// The browser is launched lazily, on the first page a crawl asks to render; a bounded pool of pages runs at
// once (concurrency), and the browser is restarted every recyclePages pages and after a crash. The pool's
// memory (its browsers' process trees) is held to a budget of its own: see memory-budget.ts.
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { isHtmlMediaType } from '../vocabulary.js';
import { firstLineOf, guarded, HandlerFaults } from './handler-guard.js';
import { memoryVerdict } from './memory-budget.js';
import type { PageRenderer, RenderJob, RenderOutput } from './port.js';
import { RendererUnavailableError } from './port.js';
import { processTreeMemory } from './process-memory.js';

export interface ChromiumRendererOptions {
  executablePath: string;
  /** Pages rendered at once (RENDER_CONCURRENCY); more wait their turn. */
  concurrency: number;
  /** The browser is restarted after this many pages (RENDER_RECYCLE_PAGES): leaks and bloat do not last. */
  recyclePages: number;
  log?: { warn(obj: object, msg?: string): void; info(obj: object, msg?: string): void };
  /** Told of every launch and every render that ended (the worker's metrics). */
  observer?: RenderObserver;
  /**
   * Bytes the pool's browsers may hold, their process trees' PSS summed (RENDER_MEMORY_BUDGET_BYTES); over it,
   * a new page waits for others to end, or the browser is replaced (memory-budget.ts). 0 or absent: none.
   */
  memoryBudgetBytes?: number;
  /** A browser that takes this long to open a page is killed as hung (30 s; tests shorten it). */
  unresponsiveAfterMs?: number;
  /** How the pool's memory is read: the browsers' pids → bytes, null when unreadable (tests fake it). */
  sampleMemory?: (browserPids: number[]) => Promise<number | null>;
}

/** The pool's memory: PSS of each browser's process tree (Chromium's renderer, GPU and utility processes). */
export async function browsersMemoryBytes(browserPids: number[]): Promise<number | null> {
  const trees = await Promise.all(browserPids.map((pid) => processTreeMemory(pid)));
  const read = trees.filter((tree) => tree !== null);
  return read.length === 0 ? null : read.reduce((sum, tree) => sum + tree.pssBytes, 0);
}

/**
 * Why a render fell short: it did not settle by its deadline (its DOM may still have been read), the page's
 * renderer process crashed, the browser exited under it, its DOM could not be read (a hung main thread), or
 * anything else the browser answered with.
 */
export type RenderFailure = 'timeout' | 'page-crashed' | 'browser-exited' | 'unreadable' | 'error';

/**
 * Why a browser was launched: the first page, or what ended the one before it (its page count, its exit, its
 * being killed as hung, its memory).
 */
export type LaunchCause = 'first' | 'recycled' | 'crashed' | 'unresponsive' | 'memory';

export interface RenderObserver {
  launched(cause: LaunchCause): void;
  /** A page held back because the pool was over its memory budget (once per page). */
  waitedForMemory(): void;
  /** A render ended (not one its crawl abandoned): how long it took, whether its DOM was read, what fell short. */
  rendered(event: { renderMs: number; domRead: boolean; failure: RenderFailure | null }): void;
}

/** The widest and tallest screenshot kept (render.screenshot). */
export const SCREENSHOT_MAX = { width: 1280, height: 2000 } as const;

/**
 * Chromium's flags for any use here: no sandbox (workers run as root in containers), nothing of its own on the
 * network (background networking, component updates, sync, QUIC). playwright-core gives each launch a fresh,
 * empty --user-data-dir of its own and deletes it on close.
 */
export const CHROMIUM_BASE_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
] as const;

/**
 * The JavaScript heap one page's scripts may hold. V8's own limit is the whole 4 GiB pointer cage, which one
 * runaway page fills in the middle of a render, far past RENDER_MEMORY_BUDGET_BYTES (read only before a page
 * starts); at this cap its renderer dies of it instead, and the page is recorded render-failed.
 */
export const PAGE_SCRIPT_HEAP_MIB = 512;

/**
 * A crawl's renderer adds a second wall: every request not intercepted goes to a proxy on a port nobody listens
 * on (loopback included: `<-loopback>` removes Chromium's implicit bypass), and WebRTC may use only proxied
 * UDP, which the black hole takes. A page's script heap is capped (PAGE_SCRIPT_HEAP_MIB).
 */
export const CHROMIUM_ARGS = [
  ...CHROMIUM_BASE_ARGS,
  `--js-flags=--max-old-space-size=${PAGE_SCRIPT_HEAP_MIB}`,
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];
/** Runs in every frame before the page's scripts: WebRTC would open sockets interception cannot see. */
const REMOVE_WEBRTC = `for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel']) {
  try { Object.defineProperty(window, name, { value: undefined, configurable: false, writable: false }); } catch {}
}`;

/** Headers the browser must not see on a body trawl already decoded (and measured) itself. */
const HOP_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);
/** How long a hung page's DOM is waited for once its deadline passed, and its context's close. */
const AFTER_DEADLINE_MS = 1500;
/** A browser that has not opened a page in this long is hung, and killed (a loaded one takes well under it). */
const UNRESPONSIVE_AFTER_MS = 30_000;

/** What one render's handlers share with it. */
interface RenderState {
  requests: RenderOutput['requests'];
  faults: HandlerFaults;
  /** The page's renderer process died. */
  pageCrashed: boolean;
  /** Set once the page settled: its DOM is read where it stands, so navigations of its own are held off. */
  navigationsHeld: boolean;
  /** Called when a navigation of the page's own was held off (answered STAY). */
  stay: () => void;
}

/**
 * The answer to a main-frame navigation the page may not make: no content, so the browser stays on the
 * document it has (HTML's rule for 204). Aborting it instead would put Chromium's error page in its place,
 * and a file's answer would start a download the page's load then waits on for ever.
 */
const STAY = { status: 204, headers: {}, body: '' } as const;

interface LaunchedBrowser {
  browser: Browser;
  /** The browser process's id (Chromium's own answer), null when it would not say. */
  pid: number | null;
  pagesStarted: number;
  active: number;
  retiring: boolean;
}

export class ChromiumRenderer implements PageRenderer {
  readonly #options: ChromiumRendererOptions;
  #current: Promise<LaunchedBrowser> | null = null;
  /** What #current resolved to, once it did. */
  #currentLaunched: LaunchedBrowser | null = null;
  readonly #all = new Set<LaunchedBrowser>();
  #running = 0;
  readonly #queue: Array<() => void> = [];
  #closed = false;
  /** What the next launch replaces: nothing yet, or why the last current browser was retired. */
  #nextLaunch: LaunchCause = 'first';
  /** Pages waiting for the pool's memory to come down: woken whenever a page ends or a browser goes. */
  readonly #memoryWaiters = new Set<() => void>();
  /** Fresh browsers already over the budget on their own (said once each). */
  readonly #overOnTheirOwn = new WeakSet<LaunchedBrowser>();

  constructor(options: ChromiumRendererOptions) {
    this.#options = options;
  }

  /** Chromium is where it is looked for (checked at a worker's start, before any launch). */
  static available(executablePath: string): boolean {
    return existsSync(executablePath);
  }

  async ready(): Promise<void> {
    await this.#browser();
  }

  /** The process ids of the browsers alive (each the root of its renderer, GPU and utility processes). */
  get browserPids(): number[] {
    return [...this.#all].flatMap((launched) => (launched.pid === null ? [] : [launched.pid]));
  }

  /**
   * Pages holding a turn (rendering, or waiting for memory), pages waiting for a turn, pages of those waiting
   * for the pool's memory to come down, and browsers alive (the bench and metrics read them).
   */
  get stats(): { rendering: number; waiting: number; waitingForMemory: number; browsers: number } {
    return {
      rendering: this.#running,
      waiting: this.#queue.length,
      waitingForMemory: this.#memoryWaiters.size,
      browsers: this.#all.size,
    };
  }

  /** The pool's memory now (PSS of its browsers' process trees); null with no browser, or unreadable. */
  memoryBytes(): Promise<number | null> {
    const pids = this.browserPids;
    if (pids.length === 0) return Promise.resolve(null);
    return (this.#options.sampleMemory ?? browsersMemoryBytes)(pids);
  }

  async render(job: RenderJob): Promise<RenderOutput> {
    await this.#acquire(job.signal);
    try {
      const launched = await this.#admit(job.signal);
      launched.active++;
      launched.pagesStarted++;
      if (launched.pagesStarted >= this.#options.recyclePages) this.#retire(launched, 'recycled');
      try {
        return await this.#renderOn(launched, job);
      } finally {
        launched.active--;
        if (launched.retiring && launched.active === 0) void this.#closeBrowser(launched);
        this.#wakeMemoryWaiters();
      }
    } finally {
      this.#release();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#current = null;
    this.#currentLaunched = null;
    await Promise.all([...this.#all].map((launched) => this.#closeBrowser(launched)));
  }

  async #acquire(signal: AbortSignal): Promise<void> {
    if (this.#running < this.#options.concurrency) {
      this.#running++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const start = () => {
        signal.removeEventListener('abort', onAbort);
        this.#running++;
        resolve();
      };
      const onAbort = () => {
        const index = this.#queue.indexOf(start);
        if (index !== -1) this.#queue.splice(index, 1);
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(start);
    });
  }

  #release(): void {
    this.#running--;
    this.#queue.shift()?.();
  }

  /** The browser a page with a turn renders on, once the pool's memory lets it (memory-budget.ts). */
  async #admit(signal: AbortSignal): Promise<LaunchedBrowser> {
    const budgetBytes = this.#options.memoryBudgetBytes ?? 0;
    let waited = false;
    for (;;) {
      const launched = await this.#browser();
      if (budgetBytes <= 0) return launched;
      const usedBytes = await this.memoryBytes();
      if (signal.aborted) throw signal.reason;
      // nothing awaited from here until the page is counted or its wait is registered: no wake-up is missed
      if (launched.retiring) continue;
      let pagesRendering = 0;
      for (const browser of this.#all) pagesRendering += browser.active;
      const verdict = memoryVerdict({
        usedBytes,
        budgetBytes,
        pagesRendering,
        pagesOnBrowser: launched.pagesStarted,
      });
      if (verdict === 'render') {
        if (usedBytes !== null && usedBytes > budgetBytes && !this.#overOnTheirOwn.has(launched)) {
          this.#overOnTheirOwn.add(launched);
          this.#options.log?.warn(
            { usedBytes, budgetBytes },
            'a fresh Chromium is over RENDER_MEMORY_BUDGET_BYTES on its own: one page per browser',
          );
        }
        return launched;
      }
      if (verdict === 'recycle') {
        this.#options.log?.info({ usedBytes, budgetBytes }, 'Chromium over its memory budget: replaced');
        this.#retire(launched, 'memory');
        await this.#closeBrowser(launched);
        continue;
      }
      if (!waited) this.#options.observer?.waitedForMemory();
      waited = true;
      await this.#memoryWait(signal);
    }
  }

  #memoryWait(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        this.#memoryWaiters.delete(wake);
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.#memoryWaiters.delete(wake);
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#memoryWaiters.add(wake);
    });
  }

  #wakeMemoryWaiters(): void {
    for (const wake of [...this.#memoryWaiters]) wake();
  }

  #browser(): Promise<LaunchedBrowser> {
    if (this.#closed) return Promise.reject(new RendererUnavailableError('the renderer is closed'));
    this.#current ??= this.#launch().catch((error: unknown) => {
      this.#current = null;
      throw error;
    });
    return this.#current;
  }

  async #launch(): Promise<LaunchedBrowser> {
    const { executablePath } = this.#options;
    if (!ChromiumRenderer.available(executablePath)) {
      throw new RendererUnavailableError(
        `Chromium not found at ${executablePath} (apt-get install chromium, or set CHROMIUM_PATH)`,
      );
    }
    const { chromium } = await import('playwright-core');
    let browser: Browser;
    try {
      browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 60_000 });
    } catch (error) {
      throw new RendererUnavailableError(
        `Chromium at ${executablePath} did not start: ${firstLineOf(error)}`,
        { cause: error },
      );
    }
    const launched: LaunchedBrowser = {
      browser,
      pid: await browserPid(browser),
      pagesStarted: 0,
      active: 0,
      retiring: false,
    };
    this.#all.add(launched);
    this.#currentLaunched = launched;
    // a crash: the next page launches a new browser; pages on this one fail with the browser's error
    browser.on(
      'disconnected',
      guarded('browser disconnected', this.#logFault, () => {
        this.#all.delete(launched);
        if (!launched.retiring)
          this.#options.log?.warn(
            { pid: launched.pid, rendering: launched.active },
            'Chromium exited; the next page starts a new one',
          );
        this.#retire(launched, 'crashed');
        this.#wakeMemoryWaiters();
      }),
    );
    if (this.#closed) {
      await this.#closeBrowser(launched);
      throw new RendererUnavailableError('the renderer is closed');
    }
    this.#options.observer?.launched(this.#nextLaunch);
    return launched;
  }

  /** Where a fault of a browser's own event handlers goes: no page to record it on, so the log. */
  readonly #logFault = (where: string, error: unknown): void => {
    this.#options.log?.warn({ err: error }, `a Chromium ${where} handler threw`);
  };

  #retire(launched: LaunchedBrowser, cause: LaunchCause): void {
    if (launched.retiring) return;
    launched.retiring = true;
    // only the browser new pages would get is replaced: the next page launches a fresh one
    if (this.#currentLaunched === launched) {
      this.#current = null;
      this.#currentLaunched = null;
      this.#nextLaunch = cause;
    }
  }

  /** Kills a hung browser (its process group: the renderers go with it); its pages fail as it exits. */
  #kill(launched: LaunchedBrowser): void {
    this.#options.log?.warn(
      { pid: launched.pid, rendering: launched.active },
      'Chromium opens no page: killed, the next page starts a new one',
    );
    this.#retire(launched, 'unresponsive');
    if (launched.pid === null) {
      void launched.browser.close().catch(() => {});
      return;
    }
    for (const target of [-launched.pid, launched.pid]) {
      try {
        process.kill(target, 'SIGKILL');
        return;
      } catch {
        // not a process group of its own: the browser alone
      }
    }
  }

  async #closeBrowser(launched: LaunchedBrowser): Promise<void> {
    launched.retiring = true;
    this.#all.delete(launched);
    await launched.browser.close().catch(() => {});
    // its processes are gone: pages waiting for memory look again
    this.#wakeMemoryWaiters();
  }

  async #renderOn(launched: LaunchedBrowser, job: RenderJob): Promise<RenderOutput> {
    const { browser } = launched;
    const started = performance.now();
    const state: RenderState = {
      requests: { served: 0, refused: 0, blocked: 0 },
      faults: new HandlerFaults(),
      pageCrashed: false,
      navigationsHeld: false,
      stay: () => {},
    };
    const stayed = new Promise<void>((resolve) => {
      state.stay = resolve;
    });
    const { requests, faults } = state;
    const elapsed = () => Math.round(performance.now() - started);
    let context: BrowserContext | null = null;
    // what took the page away, when something did: the browser's exit, or its renderer's crash
    const lost = (): RenderFailure | null =>
      !browser.isConnected() ? 'browser-exited' : state.pageCrashed ? 'page-crashed' : null;
    const ended = (output: Omit<RenderOutput, 'requests'>, failure: RenderFailure | null): RenderOutput => {
      this.#options.observer?.rendered({ renderMs: output.renderMs, domRead: output.html !== null, failure });
      return { ...output, requests };
    };
    // Opening the page has a deadline of its own, and loading it another: a loaded machine's slow open does
    // not eat into the page's time, and a browser that opens nothing still fails the page in time.
    let deadlineTimer: NodeJS.Timeout | undefined;
    const deadlineFromNow = () =>
      new Promise<'timeout'>((resolve) => {
        clearTimeout(deadlineTimer);
        deadlineTimer = setTimeout(() => resolve('timeout'), job.timeoutMs);
      });
    const deadline = new AbortController();
    const onAbort = () => deadline.abort(job.signal.reason);
    job.signal.addEventListener('abort', onAbort, { once: true });
    const aborted = new Promise<'aborted'>((resolve) => {
      if (deadline.signal.aborted) resolve('aborted');
      deadline.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
    });
    const opening = this.#open(browser, job, state);
    // A browser that cannot open a page at all is hung (stopped, deadlocked), and every page sent to it would
    // hang as well: it is killed, so the pages on it fail at once and the next page launches a fresh one.
    const watchdog = setTimeout(() => {
      if (browser.isConnected()) this.#kill(launched);
    }, this.#options.unresponsiveAfterMs ?? UNRESPONSIVE_AFTER_MS);
    watchdog.unref();
    const disarm = () => clearTimeout(watchdog);
    void opening.then(disarm, disarm);
    try {
      const opened = await Promise.race([opening, deadlineFromNow(), aborted]);
      if (opened === 'aborted' || opened === 'timeout') {
        // the page may still open later: its context is closed then
        void opening.then((late) => withinMs(late.context.close(), AFTER_DEADLINE_MS * 2)).catch(() => {});
        if (opened === 'aborted') throw deadline.signal.reason ?? new Error('aborted');
        const failure = lost() ?? 'timeout';
        return ended(
          {
            html: null,
            finalUrl: job.url,
            renderMs: elapsed(),
            problem: failureText(
              failure,
              `render failed: Chromium did not open the page within ${job.timeoutMs} ms`,
            ),
            screenshot: null,
          },
          failure,
        );
      }
      context = opened.context;
      const { page } = opened;
      const settled = await Promise.race([
        this.#load(page, job, stayed),
        deadlineFromNow(),
        aborted,
        faults.faulted,
      ]);
      if (settled === 'aborted') throw deadline.signal.reason ?? new Error('aborted');
      let failure: RenderFailure | null =
        settled === 'timeout' ? 'timeout' : settled === 'loaded' ? null : (lost() ?? 'error');
      let problem =
        settled === 'timeout'
          ? `render did not settle within ${job.timeoutMs} ms (waitUntil ${waitName(job.waitUntil)})`
          : settled === 'loaded'
            ? null
            : failureText(failure, settled.problem);
      // its DOM is read where it stands: a navigation of its own from now on would take it away mid-read
      state.navigationsHeld = true;
      const read = await readDom(page);
      let html = read.html;
      const renderMs = elapsed();
      if (faults.problem !== null) {
        // a handler of the render went wrong: what the page shows may be missing what that handler was for
        html = null;
        failure = lost() ?? 'error';
        problem = failureText(failure, faults.problem);
      } else if (html === null) {
        // the page was taken away while it settled (or was read): that, not the wait, is what went wrong
        const gone = lost();
        if (gone !== null && failure !== gone) {
          failure = gone;
          problem = failureText(gone, null);
        }
        failure ??= 'unreadable';
        problem = `${problem ?? `render failed: ${read.error}`}; the DOM could not be read`;
      }
      const finalUrl = page.url();
      const screenshot =
        job.screenshot && html !== null
          ? await withinMs(takeScreenshot(page), AFTER_DEADLINE_MS).catch(() => null)
          : null;
      return ended(
        {
          html,
          finalUrl: finalUrl.startsWith('http') ? finalUrl : job.url,
          renderMs,
          problem,
          screenshot,
        },
        failure,
      );
    } catch (error) {
      if (job.signal.aborted) throw error;
      const failure = lost() ?? 'error';
      const detail = firstLineOf(error);
      return ended(
        {
          html: null,
          finalUrl: job.url,
          renderMs: elapsed(),
          problem: failureText(failure, `render failed: ${detail}`),
          screenshot: null,
        },
        failure,
      );
    } finally {
      clearTimeout(deadlineTimer);
      job.signal.removeEventListener('abort', onAbort);
      // closing the context kills its pages, a hung one included
      if (context) await withinMs(context.close(), AFTER_DEADLINE_MS * 2).catch(() => {});
    }
  }

  /**
   * A context and page for the job, every request of the page routed to the crawl (the main document served
   * from its fetch). Every handler is guarded: its faults go to the render's, and end it as failed.
   */
  async #open(
    browser: Browser,
    job: RenderJob,
    state: RenderState,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const { requests, faults } = state;
    const context = await browser.newContext({
      userAgent: job.userAgent,
      serviceWorkers: 'block',
      acceptDownloads: false,
      viewport: { width: SCREENSHOT_MAX.width, height: 1000 },
      javaScriptEnabled: true,
    });
    try {
      await context.addInitScript(REMOVE_WEBRTC);
      await context.routeWebSocket(
        /.*/,
        guarded('WebSocket route', faults.sink, (socket) =>
          socket.close({ code: 1008, reason: 'blocked by trawl' }),
        ),
      );
      const page = await context.newPage();
      page.on(
        'crash',
        guarded('page crash', faults.sink, () => {
          state.pageCrashed = true;
        }),
      );
      // A crawler reads one page: a window the page opens (window.open, a target=_blank click) is closed as it
      // appears, and its requests never reach the crawl (the route below blocks them).
      context.on(
        'page',
        guarded('popup', faults.sink, async (opened: Page) => {
          if (opened !== page) await opened.close().catch(() => {});
        }),
      );
      let documentServed = false;
      await context.route(
        '**/*',
        guarded('route', faults.sink, async (route: Route) => {
          const request = route.request();
          if (requestingPage(request) !== page) {
            requests.blocked++;
            await settle(route, () => route.abort('blockedbyclient'));
            return;
          }
          const isMainNavigation = request.isNavigationRequest() && request.frame() === page.mainFrame();
          if (isMainNavigation && !documentServed) {
            documentServed = true;
            await settle(route, () =>
              route.fulfill({
                status: job.document.status,
                headers: browserHeaders(job.document.headers),
                body: job.document.body,
              }),
            );
            return;
          }
          if (isMainNavigation && state.navigationsHeld) {
            requests.blocked++;
            await settle(route, () => stay(state, route));
            return;
          }
          if (!isMainNavigation && job.block.has(request.resourceType())) {
            requests.blocked++;
            await settle(route, () => route.abort('blockedbyclient'));
            return;
          }
          const answer = await job.answer({
            url: request.url(),
            method: request.method(),
            headers: request.headers(),
            body: request.postDataBuffer(),
            kind: request.resourceType(),
            navigation: isMainNavigation,
          });
          if ('refused' in answer) {
            requests.refused++;
            await settle(route, () =>
              isMainNavigation ? stay(state, route) : route.abort('blockedbyclient'),
            );
            return;
          }
          if (isMainNavigation && !isHtml(answer.headers)) {
            // not a page to read but a file (a download, say): the page stays where it was
            requests.blocked++;
            await settle(route, () => stay(state, route));
            return;
          }
          requests.served++;
          await settle(route, () =>
            route.fulfill({
              status: answer.status,
              headers: browserHeaders(answer.headers),
              body: answer.body,
            }),
          );
        }),
      );
      return { context, page };
    } catch (error) {
      await withinMs(context.close(), AFTER_DEADLINE_MS * 2).catch(() => {});
      throw error;
    }
  }

  /** Navigates to the document and waits as asked; never rejects (a failure is the render's problem). */
  async #load(page: Page, job: RenderJob, stayed: Promise<void>): Promise<'loaded' | { problem: string }> {
    const timeout = job.timeoutMs + AFTER_DEADLINE_MS;
    const wait = job.waitUntil;
    // A navigation of the page's own held off (STAY) leaves Chromium without the lifecycle events goto and
    // waitForLoadState wait for: once one was, the document's own readyState says when it loaded instead.
    const ready =
      typeof wait === 'object' ? "document.readyState !== 'loading'" : "document.readyState === 'complete'";
    const readyAfterStay = stayed.then(() =>
      page.waitForFunction(ready, undefined, { timeout, polling: 100 }),
    );
    readyAfterStay.catch(() => {});
    const landed = async (loading: Promise<unknown>) => {
      loading.catch(() => {});
      await Promise.race([loading, readyAfterStay]);
    };
    try {
      await landed(
        page.goto(job.url, { waitUntil: typeof wait === 'object' ? 'domcontentloaded' : wait, timeout }),
      );
      if (typeof wait === 'object') await page.waitForSelector(wait.selector, { state: 'attached', timeout });
      return 'loaded';
    } catch (error) {
      // a navigation of the page's own interrupts goto: the page is still read where it ended
      const message = firstLineOf(error);
      if (/interrupted by another navigation|frame was detached/i.test(message)) {
        await landed(page.waitForLoadState('load', { timeout })).catch(() => {});
        return 'loaded';
      }
      return { problem: `render failed: ${message}` };
    }
  }
}

/** The browser process's id, from Chromium itself (playwright's launch does not expose its child process). */
async function browserPid(browser: Browser): Promise<number | null> {
  try {
    const session = await withinMs(browser.newBrowserCDPSession(), AFTER_DEADLINE_MS * 4);
    const { processInfo } = (await withinMs(
      session.send('SystemInfo.getProcessInfo'),
      AFTER_DEADLINE_MS * 4,
    )) as { processInfo: Array<{ type: string; id: number }> };
    await session.detach().catch(() => {});
    return processInfo.find((process) => process.type === 'browser')?.id ?? null;
  } catch {
    return null;
  }
}

/**
 * The page a request comes from; null when it has none to speak of: a popup's first navigation (Playwright
 * throws for a request issued before its frame exists) or a service worker's request.
 */
function requestingPage(request: Request): Page | null {
  if (request.serviceWorker() !== null) return null;
  try {
    return request.frame().page();
  } catch {
    return null;
  }
}

/** Answers a route; when the page or its context went away meanwhile, the request just fails. */
async function settle(route: Route, answer: () => Promise<void>): Promise<void> {
  try {
    await answer();
  } catch {
    await route.abort('failed').catch(() => {});
  }
}

/** Holds off a navigation of the page's own: the page stays where it was. */
function stay(state: RenderState, route: Route): Promise<void> {
  state.stay();
  return route.fulfill(STAY);
}

/** Whether an answer is a document the browser shows (a navigation to anything else is held off). */
function isHtml(headers: Record<string, string>): boolean {
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'content-type') return isHtmlMediaType(value);
  return false;
}

/**
 * The page's DOM, serialized; null, with why, when it cannot be read. A page that hung its main thread cannot
 * even be serialized: bounded, then given up. One navigation of its own may have been under way as its
 * navigations were held off: it is let land, and read once more.
 */
async function readDom(page: Page): Promise<{ html: string; error: null } | { html: null; error: string }> {
  const read = () => withinMs(page.content(), AFTER_DEADLINE_MS);
  try {
    return { html: await read(), error: null };
  } catch (error) {
    const message = firstLineOf(error);
    if (!/navigat|context was destroyed/i.test(message)) return { html: null, error: message };
  }
  try {
    await page.waitForLoadState('domcontentloaded', { timeout: AFTER_DEADLINE_MS });
    return { html: await read(), error: null };
  } catch (error) {
    return {
      html: null,
      error: firstLineOf(error),
    };
  }
}

function browserHeaders(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (!HOP_HEADERS.has(name.toLowerCase())) kept[name] = value;
  return kept;
}

/** A failure in words: what took the page away, or the browser's own message. */
function failureText(failure: RenderFailure | null, message: string | null): string {
  if (failure === 'browser-exited') return 'render failed: Chromium exited mid-render';
  if (failure === 'page-crashed') return "render failed: the page's renderer process crashed";
  return message ?? 'render failed';
}

function waitName(wait: RenderJob['waitUntil']): string {
  return typeof wait === 'object' ? `selector ${wait.selector}` : wait;
}

async function takeScreenshot(page: Page): Promise<Buffer> {
  const height = await page.evaluate<number>('document.documentElement.scrollHeight').catch(() => 1000);
  return page.screenshot({
    type: 'png',
    fullPage: true,
    clip: {
      x: 0,
      y: 0,
      width: SCREENSHOT_MAX.width,
      height: Math.max(1, Math.min(height, SCREENSHOT_MAX.height)),
    },
  });
}

function withinMs<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
