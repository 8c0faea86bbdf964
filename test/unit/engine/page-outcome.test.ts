// A fetch result turned into a page outcome, without a store or a network.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { htmlOutcome, readFetch, settleOutcome } from '../../../src/crawler/engine/page-outcome.js';
import type { FetchResult } from '../../../src/crawler/fetch/index.js';

function fetched(fields: Partial<FetchResult> = {}): FetchResult {
  const body = Buffer.from('<html><body>hi</body></html>');
  return {
    url: 'http://a.test/',
    finalUrl: 'http://a.test/',
    status: 200,
    headers: {},
    contentType: 'text/html; charset=utf-8',
    body,
    text: body.toString(),
    charset: 'utf-8',
    bytes: body.length,
    truncated: false,
    budgetCut: false,
    contentLength: null,
    redirects: [],
    loadMs: 12.4,
    attempts: 1,
    retryDelaysMs: [],
    error: null,
    ...fields,
  };
}

test('readFetch: the common fields, whether it is HTML, its hash, and whether it is a 2xx without fault', () => {
  const reading = readFetch(
    fetched({ redirects: [{ url: 'http://a.test/old', status: 301, location: 'http://a.test/' }] }),
  );
  assert.equal(reading.base.loadMs, 12);
  assert.deepEqual(reading.base.redirects, [{ url: 'http://a.test/old', status: 301 }]);
  assert.equal(reading.isHtml, true);
  assert.match(reading.sha256 ?? '', /^[0-9a-f]{64}$/);
  assert.equal(reading.ok, true);
  assert.equal(readFetch(fetched({ status: 404 })).ok, false);
  assert.equal(readFetch(fetched({ contentType: null })).isHtml, true, 'sniffed from the text');
  assert.equal(readFetch(fetched({ contentType: null, text: 'plain words' })).isHtml, false);
  assert.equal(readFetch(fetched({ body: null, contentLength: 99 })).base.bytes, 99);
});

test('settleOutcome: refusals, faults, statuses, documents and seen bodies; null for HTML to read', () => {
  const result = fetched();
  const reading = readFetch(result);
  const refused = settleOutcome(
    result,
    reading,
    { type: 'DUPLICATE', reason: 'redirects to x', duplicateOf: 7 },
    null,
  );
  assert.deepEqual([refused?.type, refused?.error, refused?.duplicateOf], ['DUPLICATE', 'redirects to x', 7]);
  const fault = fetched({ error: { code: 'timeout', message: 'timed out after 5 ms' } });
  assert.equal(settleOutcome(fault, readFetch(fault), null, null)?.error, 'timeout: timed out after 5 ms');
  const missing = fetched({ status: 404 });
  assert.deepEqual(
    [
      settleOutcome(missing, readFetch(missing), null, null)?.type,
      settleOutcome(missing, readFetch(missing), null, null)?.error,
    ],
    ['INVALID', null],
  );
  const odd = fetched({ status: 304 });
  assert.equal(settleOutcome(odd, readFetch(odd), null, null)?.error, 'unexpected status 304');
  const pdf = fetched({
    contentType: 'application/pdf',
    body: null,
    text: null,
    contentLength: 5,
    finalUrl: 'http://a.test/x.pdf',
  });
  const binary = settleOutcome(pdf, readFetch(pdf), null, null);
  assert.equal(binary?.type, 'BINARY');
  assert.deepEqual(binary?.document, { dataType: 'PDF', contentType: 'application/pdf', bytes: 5 });
  assert.deepEqual(
    [settleOutcome(result, reading, null, 3)?.type, settleOutcome(result, reading, null, 3)?.duplicateOf],
    ['DUPLICATE', 3],
  );
  assert.equal(settleOutcome(result, reading, null, null), null);
});

test('htmlOutcome: relevant at the threshold; a body cut by the memory budget says so', () => {
  const result = fetched({ budgetCut: true, bytes: 100 });
  const page = { title: 'T', score: 0.5, links: [], images: [], skipped: [] };
  const outcome = htmlOutcome(result, readFetch(result), page, null, 0.5);
  assert.deepEqual([outcome.type, outcome.title, outcome.relevant], ['HTML', 'T', true]);
  assert.match(outcome.error ?? '', /memory budget/);
  assert.equal(htmlOutcome(fetched(), readFetch(fetched()), page, null, 0.6).relevant, false);
});
