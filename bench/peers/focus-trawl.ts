// trawl in-process for bench/focus.ts, as bench/peers/trawl.ts runs it (API + worker in this process, a fresh
// PostgreSQL schema dropped afterwards), but one runtime for several crawls: each is started with
// POST /v1/crawls, awaited on GET /v1/crawls/:id and read back page by page from GET /v1/crawls/:id/pages.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../../src/app.js';
import { isFinished } from '../../src/crawler/vocabulary.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import type { Problem } from '../../src/schemas/common.js';
import type { CrawlCreated, CrawlStatus, PageList, PageListItem } from '../../src/schemas/crawls.js';
import { benchTrawlConfig, dropBenchSchemas } from './measure.js';

const POLL_MS = 100;

/** A crawl's final status (relevantPages and harvestRate only when it scores pages) and its pages. */
export type FocusCrawlOutcome =
  | { rejected: string }
  | { status: CrawlStatus; pages: PageListItem[]; crawlMs: number };

type App = Awaited<ReturnType<typeof buildApp>>;

export class FocusTrawl {
  readonly #runtime: Runtime;
  readonly #app: App;
  readonly #admin: pg.Client;
  readonly #schema: string;

  private constructor(runtime: Runtime, app: App, admin: pg.Client, schema: string) {
    this.#runtime = runtime;
    this.#app = app;
    this.#admin = admin;
    this.#schema = schema;
  }

  static async open(databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test') {
    const schema = `bench_focus_${randomBytes(5).toString('hex')}`;
    const config = benchTrawlConfig(databaseUrl, '', schema);
    const log = pino({ level: config.logLevel }, pino.destination(2));
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    let runtime: Runtime | null = null;
    try {
      runtime = await openRuntime(config, log);
      runtime.startWorker();
      const app = await buildApp({ runtime, logger: log });
      await app.ready();
      return new FocusTrawl(runtime, app, admin, schema);
    } catch (error) {
      await runtime?.close();
      await FocusTrawl.#drop(admin, schema);
      throw error;
    }
  }

  /** Runs one crawl to its end; a 400 (a strategy or field this build does not know) comes back as rejected. */
  async crawl(payload: Record<string, unknown>, timeoutMs = 5 * 60_000): Promise<FocusCrawlOutcome> {
    const startedMs = performance.now();
    const created = await this.#app.inject({ method: 'POST', url: '/v1/crawls', payload });
    if (created.statusCode === 400) {
      const problem = created.json<Problem>();
      return { rejected: problem.detail ?? problem.title ?? created.body };
    }
    if (created.statusCode !== 202) throw new Error(`POST /v1/crawls: ${created.statusCode} ${created.body}`);
    const { id } = created.json<CrawlCreated>();
    let status: CrawlStatus;
    for (;;) {
      status = (await this.#app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json<CrawlStatus>();
      if (isFinished(status.status)) break;
      if (performance.now() - startedMs > timeoutMs) {
        await this.#app.inject({ method: 'DELETE', url: `/v1/crawls/${id}` });
        throw new Error(`crawl ${id} still ${status.status} after ${timeoutMs / 1000} s; cancelled`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const crawlMs = performance.now() - startedMs;
    const pages: PageListItem[] = [];
    let next: string | null = `/v1/crawls/${id}/pages?limit=1000`;
    while (next !== null) {
      const response = await this.#app.inject({ method: 'GET', url: next });
      if (response.statusCode !== 200)
        throw new Error(`GET ${next}: ${response.statusCode} ${response.body}`);
      const list: PageList = response.json();
      pages.push(...list.items);
      next = list.next;
    }
    return { status, pages, crawlMs };
  }

  async close(): Promise<void> {
    try {
      await this.#app.close();
      await this.#runtime.close();
    } finally {
      await FocusTrawl.#drop(this.#admin, this.#schema);
      await this.#admin.end();
    }
  }

  static async #drop(admin: pg.Client, schema: string): Promise<void> {
    await dropBenchSchemas(admin, schema);
  }
}
