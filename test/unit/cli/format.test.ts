// What `trawl status` prints for a person: a crawl that fetched nothing says why, as the API does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCrawlStatus } from '../../../src/cli/format.js';
import type { CrawlStatus } from '../../../src/schemas/crawls.js';

function status(fields: Partial<CrawlStatus>): CrawlStatus {
  return {
    id: 'c1',
    status: 'completed',
    counts: { DISALLOWED: 1 },
    pagesFetched: 0,
    pagesPerSecond: 0,
    frontier: 0,
    elapsedMs: 1200,
    request: { strategy: 'bfs' },
    error: null,
    links: 0,
    images: 0,
    documents: 0,
    ...fields,
  } as CrawlStatus;
}

test('a completed crawl that fetched nothing prints its warnings; a failed one its error', () => {
  const warned = formatCrawlStatus(
    status({ warnings: ['nothing fetched from seed http://a.test/: disallowed by robots.txt'] }),
  ).split('\n');
  assert.ok(
    warned.includes('warning   nothing fetched from seed http://a.test/: disallowed by robots.txt'),
    warned.join('\n'),
  );
  const failed = formatCrawlStatus(
    status({ status: 'failed', error: 'no seed could be fetched: …', warnings: [] }),
  );
  assert.match(failed, /FAILED/);
  assert.match(failed, /^error {5}no seed could be fetched/m);
  assert.doesNotMatch(failed, /warning/);
});
