// A recrawl's pure parts (engine/recrawl.ts): the conditional headers of a revisit, a 304's outcome and every
// change class (docs/reference.md#change-classes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blankOutcome } from '../../../src/crawler/engine/page-outcome.js';
import type { PageOutcome } from '../../../src/crawler/engine/ports.js';
import {
  changeOf,
  conditionalHeaders,
  notModifiedOutcome,
  type PreviousVisit,
} from '../../../src/crawler/engine/recrawl.js';

const PREVIOUS: PreviousVisit = {
  pageId: 7,
  type: 'HTML',
  url: 'http://example.test/a',
  finalUrl: 'http://example.test/a',
  sha256: 'aa',
  contentType: 'text/html',
  title: 'A',
  etag: '"v1"',
  lastModified: 'Tue, 03 Nov 2026 10:00:00 GMT',
  links: [],
};

function outcome(fields: Partial<PageOutcome>): PageOutcome {
  return { ...blankOutcome('HTML', {}), status: 200, finalUrl: PREVIOUS.url, ...fields };
}

test('a revisit asks with the validators the earlier answer gave, and none it did not', () => {
  assert.deepEqual(conditionalHeaders(PREVIOUS), {
    'if-none-match': '"v1"',
    'if-modified-since': 'Tue, 03 Nov 2026 10:00:00 GMT',
  });
  assert.deepEqual(conditionalHeaders({ ...PREVIOUS, etag: null, lastModified: null }), {});
});

test("a 304 keeps the earlier page's record and stores no body", () => {
  const fetchedAt = new Date();
  const notModified = notModifiedOutcome(
    { status: 304, loadMs: 3, fetchedAt, finalUrl: PREVIOUS.url, redirects: null },
    PREVIOUS,
  );
  assert.equal(notModified.type, 'HTML');
  assert.equal(notModified.status, 304);
  assert.equal(notModified.sha256, 'aa');
  assert.equal(notModified.title, 'A');
  assert.equal(notModified.body, null);
  assert.equal(notModified.bytes, 0);
  assert.deepEqual(notModified.links, []);
});

test('change classes', () => {
  assert.equal(changeOf(outcome({ sha256: 'bb' }), null), 'new');
  assert.equal(changeOf(outcome({ status: 304, sha256: 'aa' }), PREVIOUS), 'unchanged');
  assert.equal(changeOf(outcome({ sha256: 'aa' }), PREVIOUS), 'unchanged', 'the same body, served again');
  assert.equal(changeOf(outcome({ sha256: 'bb' }), PREVIOUS), 'changed');
  assert.equal(changeOf(outcome({ type: 'INVALID', status: 404 }), PREVIOUS), 'gone');
  assert.equal(changeOf(outcome({ type: 'INVALID', status: 410 }), PREVIOUS), 'gone');
  assert.equal(
    changeOf(outcome({ type: 'INVALID', status: null, error: 'dns: ENOTFOUND' }), PREVIOUS),
    'gone',
  );
  assert.equal(
    changeOf(outcome({ sha256: 'cc', finalUrl: 'http://example.test/elsewhere' }), PREVIOUS),
    'gone',
    'redirected away',
  );
  assert.equal(
    changeOf(outcome({ sha256: 'aa', finalUrl: 'http://example.test/a#top' }), PREVIOUS),
    'unchanged',
    'the same URL once canonical',
  );
  assert.equal(changeOf(outcome({ type: 'DISALLOWED', status: null, requested: false }), PREVIOUS), null);
});
