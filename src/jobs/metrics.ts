// Prometheus metrics of one process (prom-client): HTTP requests, the crawl engine's fetches (through a
// CrawlEventSink, so the domain never imports prom-client), the renderer's pages and browsers (through its
// RenderObserver), webhook deliveries, and gauges read at scrape time (frontier size, queue depth, Chromium's
// memory, bytes stored per table). One registry per runtime, so tests can build several in one process.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CrawlEventSink } from '../crawler/engine/ports.js';
import type { RenderObserver } from '../crawler/render/chromium.js';
import { sql } from '../db/sql.js';
import type { JobBackend } from './queues.js';

const JOB_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'] as const;

export interface MetricsOptions {
  pool: pg.Pool;
  jobs: JobBackend;
  /** Queues whose job counts trawl_queue_jobs reports. */
  queues: string[];
}

export class Metrics {
  readonly registry = new Registry();
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly pagesFetched: Counter<'type' | 'status'>;
  readonly fetchDuration: Histogram<'type'>;
  readonly fetchedBytes: Counter;
  readonly robotsFetches: Counter<'outcome'>;
  readonly robotsDenials: Counter;
  readonly crawlsEnded: Counter<'status'>;
  readonly activeWorkers: Gauge<'queue'>;
  readonly webhookDeliveries: Counter<'outcome'>;
  readonly renderedPages: Counter;
  readonly renderFailures: Counter<'reason'>;
  readonly renderDuration: Histogram;
  readonly browserLaunches: Counter<'cause'>;
  readonly renderMemoryWaits: Counter;
  /** Chromium's memory now (renderObserver's source); null: this process renders nothing. */
  #rendererMemory: (() => Promise<number | null>) | null = null;

  constructor(options: MetricsOptions) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'trawl_process_' });
    this.httpRequestDuration = new Histogram({
      name: 'trawl_http_request_duration_seconds',
      help: 'HTTP requests served, by route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.pagesFetched = new Counter({
      name: 'trawl_pages_fetched_total',
      help: 'Crawl pages written, by page type and HTTP status ("none" without a response)',
      labelNames: ['type', 'status'],
      registers,
    });
    this.fetchDuration = new Histogram({
      name: 'trawl_fetch_duration_seconds',
      help: 'Load time of crawl fetches (every redirect hop and retry included), by page type',
      labelNames: ['type'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.fetchedBytes = new Counter({
      name: 'trawl_fetched_bytes_total',
      help: 'Decompressed body bytes of crawl fetches',
      registers,
    });
    this.robotsFetches = new Counter({
      name: 'trawl_robots_fetches_total',
      help: 'robots.txt fetches, by outcome (2xx, 4xx, 5xx, other, unreachable)',
      labelNames: ['outcome'],
      registers,
    });
    this.robotsDenials = new Counter({
      name: 'trawl_robots_denials_total',
      help: 'Pages not fetched because robots.txt disallows them (DISALLOWED pages)',
      registers,
    });
    this.crawlsEnded = new Counter({
      name: 'trawl_crawl_runners_ended_total',
      help: 'Crawl runners that saw their crawl end, by final status',
      labelNames: ['status'],
      registers,
    });
    this.activeWorkers = new Gauge({
      name: 'trawl_active_workers',
      help: 'BullMQ workers running in this process, by queue',
      labelNames: ['queue'],
      registers,
    });
    this.webhookDeliveries = new Counter({
      name: 'trawl_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome (delivered, retrying, failed)',
      labelNames: ['outcome'],
      registers,
    });
    this.renderedPages = new Counter({
      name: 'trawl_rendered_pages_total',
      help: 'Pages rendered in Chromium whose DOM was read (one that did not settle in time is read as it stood)',
      registers,
    });
    this.renderFailures = new Counter({
      name: 'trawl_render_failures_total',
      help: 'Renders that fell short, by reason (timeout, page-crashed, browser-exited, unreadable, error)',
      labelNames: ['reason'],
      registers,
    });
    this.renderDuration = new Histogram({
      name: 'trawl_render_duration_seconds',
      help: 'Time from when the browser took a page until its DOM was read (or the render gave up)',
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60],
      registers,
    });
    this.browserLaunches = new Counter({
      name: 'trawl_browser_launches_total',
      help: 'Chromium launches, by cause (first, recycled after RENDER_RECYCLE_PAGES, crashed, unresponsive, memory)',
      labelNames: ['cause'],
      registers,
    });
    this.renderMemoryWaits = new Counter({
      name: 'trawl_render_memory_waits_total',
      help: 'Pages held back because Chromium was over RENDER_MEMORY_BUDGET_BYTES',
      registers,
    });
    const metrics = this;
    new Gauge({
      name: 'trawl_renderer_memory_bytes',
      help: "Chromium's memory, PSS summed over its processes (read at scrape time; 0 with no browser running)",
      registers,
      async collect() {
        this.set((await metrics.#rendererMemory?.()) ?? 0);
      },
    });
    const { pool, jobs, queues } = options;
    new Gauge({
      name: 'trawl_frontier_size',
      help: 'URLs queued and not fetched yet in running crawls (read at scrape time)',
      registers,
      async collect() {
        const { rows } = await pool.query<{ n: number }>(sql('metrics_frontier_size'));
        this.set(rows[0]?.n ?? 0);
      },
    });
    new Gauge({
      name: 'trawl_stored_bytes',
      help: "Bytes on disk of each of trawl's tables, indexes and TOAST included (read at scrape time); a crawl's own figures are its status's storage",
      labelNames: ['table'],
      registers,
      async collect() {
        const { rows } = await pool.query<{ table: string; bytes: string }>(sql('metrics_stored_bytes'));
        this.reset();
        for (const row of rows) this.set({ table: row.table }, Number(row.bytes));
      },
    });
    new Gauge({
      name: 'trawl_queue_jobs',
      help: 'BullMQ jobs by queue and state (read at scrape time)',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        await Promise.all(
          queues.map(async (queue) => {
            const counts = await jobs.queue(queue).getJobCounts(...JOB_STATES);
            for (const state of JOB_STATES) this.set({ queue, state }, counts[state] ?? 0);
          }),
        );
      },
    });
  }

  /** Where trawl_renderer_memory_bytes is read from (metricsRenderObserver). */
  watchRendererMemory(memory: () => Promise<number | null>): void {
    this.#rendererMemory = memory;
  }

  /** The text exposition and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

function robotsOutcome(status: number | null): string {
  if (status === null) return 'unreachable';
  if (status >= 200 && status < 300) return '2xx';
  if (status >= 400 && status < 500) return '4xx';
  if (status >= 500 && status < 600) return '5xx';
  return 'other';
}

/**
 * The renderer's launches and renders as metric updates; `memory` reads Chromium's memory for the gauge at
 * scrape time.
 */
export function metricsRenderObserver(
  metrics: Metrics,
  memory: () => Promise<number | null>,
): RenderObserver {
  metrics.watchRendererMemory(memory);
  return {
    launched(cause) {
      metrics.browserLaunches.inc({ cause });
    },
    waitedForMemory() {
      metrics.renderMemoryWaits.inc();
    },
    rendered({ renderMs, domRead, failure }) {
      metrics.renderDuration.observe(renderMs / 1000);
      if (domRead) metrics.renderedPages.inc();
      if (failure !== null) metrics.renderFailures.inc({ reason: failure });
    },
  };
}

/** The engine's events as metric updates. */
export function metricsEventSink(metrics: Metrics): CrawlEventSink {
  return {
    pageRecorded(event) {
      metrics.pagesFetched.inc({
        type: event.type,
        status: event.status === null ? 'none' : String(event.status),
      });
      if (event.type === 'DISALLOWED') metrics.robotsDenials.inc();
      if (event.loadMs !== null) metrics.fetchDuration.observe({ type: event.type }, event.loadMs / 1000);
      if (event.bytes) metrics.fetchedBytes.inc(event.bytes);
    },
    crawlEnded(event) {
      metrics.crawlsEnded.inc({ status: event.status });
    },
    robotsFetched(event) {
      metrics.robotsFetches.inc({ outcome: robotsOutcome(event.status) });
    },
  };
}

/** A worker process's own /metrics (node:http; a worker has no Fastify). Resolves with the bound port. */
export async function startMetricsServer(
  metrics: Metrics,
  options: { port: number; host: string; onError: (error: unknown) => void },
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.exposition().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      (error: unknown) => {
        options.onError(error);
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
