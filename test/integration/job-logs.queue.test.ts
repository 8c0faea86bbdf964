// Every job logs through a child logger naming the job and its row: a crawl runner's own log lines (here its
// warning about a sitemap's URLs too long to crawl) carry the crawl id and the job id, so they can be found.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { pino } from 'pino';
import { openRuntime } from '../../src/runtime.js';
import { build, crawlToEnd, eventually, testConfig } from '../helper.js';

test('a crawl runner logs with its crawl id and job id', { timeout: 120_000 }, async (t) => {
  const server = createServer((request, response) => {
    const origin = `http://${request.headers.host}`;
    if (request.url === '/robots.txt') {
      response.end(`User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`);
    } else if (request.url === '/sitemap.xml') {
      response.setHeader('content-type', 'application/xml');
      const long = `${origin}/${'a'.repeat(3000)}`;
      response.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>${long}</loc></url></urlset>`);
    } else {
      response.setHeader('content-type', 'text/html');
      response.end('<html><head><title>home</title></head><body><p>home</p></body></html>');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => server.close());
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const schema = `t_${randomBytes(5).toString('hex')}`;
  const { app } = await build(t, { worker: false, env: { DB_SCHEMA: schema } });
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const worker = await openRuntime(testConfig({ DB_SCHEMA: schema }), pino({ level: 'info' }, sink));
  t.after(() => worker.close());
  worker.startWorker();

  const { id } = await crawlToEnd(app, {
    seeds: [`${origin}/`],
    workers: 1,
    sitemaps: true,
    politeness: { delayMs: 0, maxCrawlDelayMs: 0 },
  });

  const warning = await eventually(
    () => {
      const line = lines.find((entry) => entry.msg === 'sitemap URLs too long to crawl');
      if (!line) throw new Error('no such line yet');
      return line;
    },
    { message: "the runner's sitemap warning", timeoutMs: 30_000 },
  );
  assert.equal(warning.crawlId, id);
  assert.equal(warning.jobId, `${id}.0`);
  assert.equal(warning.component, 'crawl-worker');
});
