// What `trawl status` prints for a person: a crawl that fetched nothing says why, as the API does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatChangedPages, formatCrawlStatus } from '../../../src/cli/format.js';
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

test("a recrawl's status counts its changes; its pages say how they changed", () => {
  const lines = formatCrawlStatus(
    status({ recrawlOf: 'c0', changes: { new: 1, changed: 2, unchanged: 3, gone: 4 } }),
  ).split('\n');
  assert.ok(
    lines.includes('changes   new 1 · changed 2 · unchanged 3 · gone 4  (recrawl of c0)'),
    lines.join('\n'),
  );
  const page = {
    id: 1,
    url: 'http://a.test/x',
    finalUrl: 'http://a.test/x',
    status: 200,
    title: 'X',
    change: 'changed',
    textChanged: true,
    similarity: 0.8125,
    error: null,
  } as const;
  const table = formatChangedPages(
    [
      page,
      { ...page, id: 2, textChanged: null, similarity: null },
      {
        ...page,
        id: 3,
        change: 'gone',
        finalUrl: 'http://a.test/elsewhere',
        textChanged: null,
        similarity: null,
      },
      {
        ...page,
        id: 4,
        change: 'gone',
        status: null,
        error: 'ECONNREFUSED',
        textChanged: null,
        similarity: null,
      },
    ],
    120,
  ).split('\n');
  assert.match(table[1]!, /^changed\s+1\s+200\s+changed\s+0\.81\s+X\s+http:\/\/a\.test\/x$/);
  assert.match(table[2]!, /^changed\s+2\s+200\s+X/, 'not compared yet: blank');
  assert.match(table[3]!, /^gone\s+3\s+moved\s/);
  assert.match(table[4]!, /^gone\s+4\s+error\s/);
});
