// A crawl's request is read back normalized by its repository, once: a row stored before a field existed
// reads with that field's default, in every read (one crawl, the list, the status).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { CRAWL_REQUEST_DEFAULTS, normalizeCrawlRequest } from '../../src/crawler/crawl-request.js';
import { CrawlsRepository } from '../../src/db/crawls-repo.js';
import { INTERNAL_SCOPE } from '../../src/db/tenant-scope.js';
import { build } from '../helper.js';

test('a request stored by an older release reads back with the defaults of the fields it lacks', async (t) => {
  const { runtime } = await build(t, { worker: false });
  const crawls = new CrawlsRepository(runtime.db.pool);
  const id = randomUUID();
  const seeds = ['http://127.0.0.1:9/'];
  await crawls.create({
    id,
    request: normalizeCrawlRequest({ seeds, maxPages: 5 }, 'trawl-test/1.0'),
    strategy: 'bfs',
    maxPages: 5,
    seeds: seeds.map((url) => ({ url, origin: new URL(url).origin })),
    slotsPerHost: 1,
  });
  // as a release before documents, render and extract were stored it
  const older = { seeds, maxPages: 5, politeness: { userAgent: 'old-bot/1' } };
  await runtime.db.pool.query('UPDATE crawls SET request = $2 WHERE id = $1', [id, JSON.stringify(older)]);

  const expected = normalizeCrawlRequest(older, 'old-bot/1');
  assert.equal(expected.render.mode, 'never');
  assert.deepEqual(expected.documents.types, CRAWL_REQUEST_DEFAULTS.documents.types);
  assert.deepEqual((await crawls.get(id, INTERNAL_SCOPE))?.request, expected);
  assert.deepEqual((await crawls.status(id, INTERNAL_SCOPE))?.row.request, expected);
  const listed = (await crawls.list(10, null, INTERNAL_SCOPE)).find((row) => row.id === id);
  assert.deepEqual(listed?.request, expected);
});
