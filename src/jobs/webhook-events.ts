// The engine's events as webhook events: `started` when this process first sees the crawl work, written
// pages batched per crawl at most once per `pageBatchMs` (and a recrawl's new, changed and gone pages as
// `page.changed`, in batches of at most MAX_CHANGES_PER_EVENT, flushed with them), and the crawl's end after
// its last page batch.
// Each event is a row (lifecycle events once per crawl, whichever runner sees them first) and a `webhook`
// job; the body's crawl snapshot is taken as the event is recorded (a retry resends that moment, not a later
// one); the engine's calls return at once and a slow receiver only ever delays the delivery jobs.

import type { WebhookConfig } from '../crawler/crawl-request.js';
import type { CrawlEventSink } from '../crawler/engine/ports.js';
import type { WebhookEvent } from '../crawler/vocabulary.js';
import type { WebhooksRepository } from '../db/webhooks-repo.js';
import { queueWebhookDelivery } from './producers.js';
import type { JobBackend } from './queues.js';

type PageEvent = Parameters<CrawlEventSink['pageRecorded']>[0];

const MAX_PAGES_PER_EVENT = 1000;
/** A recrawl's changed pages per page.changed event: a big recrawl is many small events, not one huge one. */
export const MAX_CHANGES_PER_EVENT = 100;
/** The change classes a page.changed event tells of: unchanged pages are what a receiver need not hear. */
const TOLD_CHANGES: ReadonlySet<string> = new Set(['new', 'changed', 'gone']);
const MAX_CACHED_CRAWLS = 1000;

interface CrawlState {
  config: Promise<WebhookConfig | null>;
  started: boolean;
  pages: PageEvent[];
  /** A recrawl's pages to tell in page.changed events. */
  changes: PageEvent[];
  lastFlushMs: number;
  timer: NodeJS.Timeout | null;
  /** This crawl's writes, one after another, so events are recorded in the order they happened. */
  chain: Promise<void>;
}

export class WebhookEventSink implements CrawlEventSink {
  private readonly crawls = new Map<string, CrawlState>();

  constructor(
    private readonly deps: {
      repository: WebhooksRepository;
      jobs: JobBackend;
      pageBatchMs: number;
      /** The crawl as it is now: stored with each event, so every delivery of it shows the same moment. */
      snapshot(crawlId: string): Promise<object>;
      onError(error: unknown): void;
    },
  ) {}

  private state(crawlId: string): CrawlState {
    let state = this.crawls.get(crawlId);
    if (!state) {
      if (this.crawls.size >= MAX_CACHED_CRAWLS) {
        const [oldest] = this.crawls.keys();
        if (oldest !== undefined) this.crawls.delete(oldest);
      }
      state = {
        config: this.deps.repository.config(crawlId).catch((error: unknown) => {
          this.deps.onError(error);
          return null;
        }),
        started: false,
        pages: [],
        changes: [],
        lastFlushMs: 0,
        timer: null,
        chain: Promise.resolve(),
      };
      this.crawls.set(crawlId, state);
    }
    return state;
  }

  private afterPrevious(state: CrawlState, work: (config: WebhookConfig) => Promise<void>): void {
    state.chain = state.chain
      .then(async () => {
        const config = await state.config;
        if (config) await work(config);
      })
      .catch(this.deps.onError);
  }

  private async record(
    crawlId: string,
    config: WebhookConfig,
    event: WebhookEvent,
    data: object,
  ): Promise<void> {
    if (!config.events.includes(event)) return;
    const crawl = await this.deps.snapshot(crawlId);
    const id = await this.deps.repository.insertEvent(crawlId, event, { crawl, ...data });
    if (id === null) return;
    await queueWebhookDelivery(this.deps.jobs, crawlId, String(id));
  }

  private ensureStarted(crawlId: string, state: CrawlState): void {
    if (state.started) return;
    state.started = true;
    this.afterPrevious(state, (config) => this.record(crawlId, config, 'started', {}));
  }

  robotsFetched(event: { crawlId: string }): void {
    this.ensureStarted(event.crawlId, this.state(event.crawlId));
  }

  pageRecorded(event: PageEvent): void {
    const state = this.state(event.crawlId);
    this.ensureStarted(event.crawlId, state);
    state.pages.push(event);
    if (event.change && TOLD_CHANGES.has(event.change)) state.changes.push(event);
    if (state.pages.length >= MAX_PAGES_PER_EVENT || state.changes.length >= MAX_CHANGES_PER_EVENT) {
      this.flushPages(event.crawlId, state);
      return;
    }
    if (state.timer) return;
    const waitMs = Math.max(0, state.lastFlushMs + this.deps.pageBatchMs - Date.now());
    state.timer = setTimeout(() => this.flushPages(event.crawlId, state), waitMs);
  }

  private flushPages(crawlId: string, state: CrawlState): void {
    if (state.timer) clearTimeout(state.timer);
    state.timer = null;
    if (state.pages.length === 0) return;
    const changes = state.changes;
    state.changes = [];
    const pages = state.pages.map((page) => ({
      id: page.pageId,
      url: page.url,
      type: page.type,
      status: page.status,
      bytes: page.bytes,
      loadMs: page.loadMs,
      score: page.score,
      fetchedAt: page.fetchedAt.toISOString(),
    }));
    state.pages = [];
    state.lastFlushMs = Date.now();
    this.afterPrevious(state, (config) => this.record(crawlId, config, 'page', { pages }));
    for (let start = 0; start < changes.length; start += MAX_CHANGES_PER_EVENT) {
      // a changed page's texts compared as it was recorded; null when they were not (its earlier text was not
      // stored yet): the text job compares them later (GET …/pages?change=changed)
      const batch = changes.slice(start, start + MAX_CHANGES_PER_EVENT).map((page) => ({
        id: page.pageId,
        url: page.url,
        change: page.change,
        type: page.type,
        status: page.status,
        fetchedAt: page.fetchedAt.toISOString(),
        ...(page.change === 'changed'
          ? { textChanged: page.text?.textChanged ?? null, similarity: page.text?.similarity ?? null }
          : {}),
      }));
      this.afterPrevious(state, (config) => this.record(crawlId, config, 'page.changed', { pages: batch }));
    }
  }

  crawlEnded(event: {
    crawlId: string;
    status: 'completed' | 'failed' | 'cancelled';
    error: string | null;
  }): void {
    const state = this.state(event.crawlId);
    this.flushPages(event.crawlId, state);
    this.afterPrevious(state, (config) =>
      this.record(event.crawlId, config, event.status, event.error ? { error: event.error } : {}),
    );
  }

  /** Writes what is batched and waits for every pending write (shutdown). */
  async flush(): Promise<void> {
    for (const [crawlId, state] of this.crawls) this.flushPages(crawlId, state);
    await Promise.all([...this.crawls.values()].map((state) => state.chain));
  }
}
