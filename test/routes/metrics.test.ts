// /metrics parsed with a real Prometheus text-format parser; its crawl counters move after a crawl of the
// test web (and its render metrics after a rendered crawl), and a worker process's METRICS_PORT server answers
// the same format.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { pino } from 'pino';
import { startMetricsServer } from '../../src/jobs/metrics.js';
import { build, crawlToEnd, eventually } from '../helper.js';
import { skipWithoutChromium } from '../support/browser.js';
import { BENCHMARK_FEATURES, crawlRequestFor, startTestWeb } from '../support/testweb/index.js';

interface Family {
  name: string;
  type: string;
  metrics: Array<{
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
  }>;
}
const parsePrometheusTextFormat = createRequire(import.meta.url)('parse-prometheus-text-format') as (
  text: string,
) => Family[];

function family(families: Family[], name: string): Family {
  const found = families.find((f) => f.name === name);
  assert.ok(found, `no metric family ${name}`);
  return found;
}

function total(found: Family, labels: Record<string, string> = {}): number {
  return (
    found.metrics
      .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
      // the parser gives a histogram's series as buckets only (and without labels): count = the +Inf bucket
      .reduce((sum, m) => sum + Number(m.value ?? m.count ?? m.buckets?.['+Inf'] ?? 0), 0)
  );
}

test('/metrics parses as Prometheus text and its counters move when a crawl runs', {
  timeout: 60_000,
}, async (t) => {
  const web = await startTestWeb({ seed: 5, hosts: 2, pagesPerHost: 15, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const { app, runtime } = await build(t);

  const before = await app.inject({ method: 'GET', url: '/metrics' });
  assert.equal(before.statusCode, 200);
  assert.match(before.headers['content-type'] as string, /^text\/plain/);
  const start = parsePrometheusTextFormat(before.body);
  assert.equal(total(family(start, 'trawl_pages_fetched_total')), 0);
  assert.equal(family(start, 'trawl_frontier_size').type, 'GAUGE');

  const final = await crawlToEnd(app, crawlRequestFor(web, { maxPages: 40 }));

  const after = parsePrometheusTextFormat((await app.inject({ method: 'GET', url: '/metrics' })).body);
  const pages = family(after, 'trawl_pages_fetched_total');
  assert.equal(pages.type, 'COUNTER');
  const counts = final.counts as Record<string, number>;
  // every written page is counted once, by type
  for (const type of ['HTML', 'INVALID', 'DISALLOWED', 'DUPLICATE', 'BINARY']) {
    assert.equal(total(pages, { type }), counts[type] ?? 0, `pages of type ${type}`);
  }
  assert.ok(total(pages, { type: 'HTML', status: '200' }) > 0, JSON.stringify(pages.metrics));
  assert.ok(total(family(after, 'trawl_fetched_bytes_total')) > 0);
  assert.equal(family(after, 'trawl_fetch_duration_seconds').type, 'HISTOGRAM');
  assert.ok(total(family(after, 'trawl_fetch_duration_seconds')) > 0);
  assert.ok(total(family(after, 'trawl_robots_fetches_total')) >= web.hosts.length);
  assert.equal(total(family(after, 'trawl_robots_denials_total')), counts.DISALLOWED ?? 0);
  // the crawl row says completed a moment before its runner jobs do (the job ends when the runner returns)
  await eventually(
    async () => {
      const scraped = parsePrometheusTextFormat((await app.inject({ method: 'GET', url: '/metrics' })).body);
      return total(family(scraped, 'trawl_queue_jobs'), { queue: 'crawl', state: 'completed' }) >= 1;
    },
    { message: 'a crawl job counted completed in trawl_queue_jobs', timeoutMs: 60_000 },
  );
  assert.ok(total(family(after, 'trawl_active_workers'), { queue: 'crawl' }) > 0);
  assert.equal(family(after, 'trawl_http_request_duration_seconds').type, 'HISTOGRAM');
  // the text parser drops histogram labels: read the route label from the registry itself
  const http = await runtime.metrics.httpRequestDuration.get();
  const statusReads = http.values.filter(
    (v) =>
      v.metricName === 'trawl_http_request_duration_seconds_count' &&
      v.labels.route === '/v1/crawls/:id' &&
      v.labels.status_code === '200',
  );
  assert.ok((statusReads[0]?.value ?? 0) >= 1, JSON.stringify(statusReads));

  // a worker's own metrics server: same registry, same format
  const server = await startMetricsServer(runtime.metrics, {
    port: 0,
    host: '127.0.0.1',
    onError: (error) => pino({ level: 'silent' }).error(error),
  });
  t.after(() => server.close());
  const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
  assert.equal(response.status, 200);
  const served = parsePrometheusTextFormat(await response.text());
  assert.equal(total(family(served, 'trawl_pages_fetched_total')), total(pages));
});

test('METRICS_REQUIRE_KEY=true puts /metrics behind an API key', async (t) => {
  const { app, runtime } = await build(t, { worker: false, env: { METRICS_REQUIRE_KEY: 'true' } });
  const created = await runtime.keys.create({ name: 'scraper' });
  assert.equal((await app.inject({ method: 'GET', url: '/metrics' })).statusCode, 401);
  const ok = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${created.key}` },
  });
  assert.equal(ok.statusCode, 200);
  assert.ok(parsePrometheusTextFormat(ok.body).length > 0);
});

test("a rendered crawl moves the render metrics: pages, failures by reason, render time, Chromium's launches and memory", {
  skip: skipWithoutChromium(),
  timeout: 120_000,
}, async (t) => {
  const web = await startTestWeb({ seed: 3, hosts: 2, pagesPerHost: 3, features: { scripted: true } });
  t.after(() => web.close());
  // a budget no browser fits: the second page finds the first one's browser over it, and gets a fresh one
  const { app } = await build(t, {
    env: { ALLOW_PRIVATE_NETWORKS: '127.0.0.2/32', RENDER_CONCURRENCY: '1', RENDER_MEMORY_BUDGET_BYTES: '1' },
  });
  const before = parsePrometheusTextFormat((await app.inject({ method: 'GET', url: '/metrics' })).body);
  assert.equal(total(family(before, 'trawl_rendered_pages_total')), 0);
  assert.equal(total(family(before, 'trawl_renderer_memory_bytes')), 0, 'no browser yet');

  await crawlToEnd(
    app,
    {
      seeds: [`${web.hosts[0]}/scripted/app.html`, `${web.hosts[0]}/scripted/hang.html`],
      maxDepth: 0,
      politeness: { delayMs: 0, maxCrawlDelayMs: 0 },
      render: { mode: 'always', timeoutMs: 5000 },
    },
    { timeoutMs: 90_000 },
  );
  const after = parsePrometheusTextFormat((await app.inject({ method: 'GET', url: '/metrics' })).body);
  // app.html rendered and read; hang.html never settled, and its hung page could not be read
  assert.equal(total(family(after, 'trawl_rendered_pages_total')), 1);
  const failures = family(after, 'trawl_render_failures_total');
  assert.equal(total(failures, { reason: 'timeout' }), 1, JSON.stringify(failures.metrics));
  assert.equal(total(failures), 1);
  assert.equal(family(after, 'trawl_render_duration_seconds').type, 'HISTOGRAM');
  assert.equal(total(family(after, 'trawl_render_duration_seconds')), 2);
  const launches = family(after, 'trawl_browser_launches_total');
  assert.equal(total(launches, { cause: 'first' }), 1, JSON.stringify(launches.metrics));
  assert.equal(total(launches, { cause: 'memory' }), 1, JSON.stringify(launches.metrics));
  assert.equal(family(after, 'trawl_render_memory_waits_total').type, 'COUNTER');
  // the second browser is still up: Chromium's processes hold tens of MiB at the least
  assert.ok(total(family(after, 'trawl_renderer_memory_bytes')) > 20 * 1024 * 1024);
});
