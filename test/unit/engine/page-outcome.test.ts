// A fetch result turned into a page outcome, without a store or a network.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_DOCUMENT_TYPES } from '../../../src/crawler/crawl-request.js';
import {
  bodyWanted,
  documentOutcome,
  htmlOutcome,
  readFetch as readFetchWith,
  settleOutcome,
} from '../../../src/crawler/engine/page-outcome.js';
import type { DocumentSettings } from '../../../src/crawler/engine/ports.js';
import type { FetchResult } from '../../../src/crawler/fetch/index.js';

const DOCUMENTS: DocumentSettings = { fetch: true, types: [...DEFAULT_DOCUMENT_TYPES], maxBytes: 1000 };
const readFetch = (result: FetchResult) => readFetchWith(result, DOCUMENTS);

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
  const page = { title: 'T', score: 0.5, links: [], images: [], queuedImages: [], skipped: [] };
  const outcome = htmlOutcome(result, readFetch(result), page, null, 0.5);
  assert.deepEqual([outcome.type, outcome.title, outcome.relevant], ['HTML', 'T', true]);
  assert.match(outcome.error ?? '', /memory budget/);
  assert.equal(htmlOutcome(fetched(), readFetch(fetched()), page, null, 0.6).relevant, false);
});

test('bodyWanted: text always; documents of documents.types up to documents.maxBytes; images only when asked', () => {
  const wanted = bodyWanted(DOCUMENTS);
  assert.equal(wanted('text/html', null, 'http://a.test/'), true);
  assert.equal(wanted('application/pdf', 900, 'http://a.test/x'), true);
  assert.equal(wanted('application/pdf', 1001, 'http://a.test/x'), false, 'over documents.maxBytes');
  assert.equal(wanted('application/octet-stream', null, 'http://a.test/x.docx'), true, 'typed by extension');
  assert.equal(wanted('application/vnd.oasis.opendocument.text', null, 'http://a.test/x'), true);
  assert.equal(wanted('image/png', 10, 'http://a.test/x.png'), false, 'images are not fetched by default');
  assert.equal(bodyWanted({ ...DOCUMENTS, types: ['image'] })('image/png', 10, 'http://a.test/x.png'), true);
  assert.equal(bodyWanted({ ...DOCUMENTS, fetch: false })('application/pdf', 10, 'http://a.test/x'), false);
});

test('readFetch: text/plain is read as text with txt; a document is read whole, or recorded with why not', () => {
  const plain = fetched({ contentType: 'text/plain; charset=utf-8', text: 'plain words' });
  assert.equal(readFetch(plain).read, 'text');
  assert.equal(readFetchWith(plain, { ...DOCUMENTS, types: ['pdf'] }).read, null);
  assert.equal(settleOutcome(plain, readFetch(plain), null, null), null, 'a text page to read');
  const pdfBody = Buffer.from('%PDF-1.4 whole');
  const pdf = fetched({ contentType: 'application/pdf', body: pdfBody, text: null, bytes: pdfBody.length });
  const reading = readFetch(pdf);
  assert.equal(reading.read, 'document');
  assert.match(reading.sha256 ?? '', /^[0-9a-f]{64}$/);
  const binary = settleOutcome(pdf, reading, null, null);
  assert.deepEqual([binary?.type, binary?.sha256, binary?.error], ['BINARY', reading.sha256, null]);
  const copy = settleOutcome(pdf, reading, null, 4);
  assert.deepEqual([copy?.type, copy?.duplicateOf, copy?.document?.dataType], ['DUPLICATE', 4, 'PDF']);
  const cut = fetched({ ...pdf, truncated: true });
  assert.equal(readFetch(cut).read, null);
  assert.match(
    settleOutcome(cut, readFetch(cut), null, null)?.error ?? '',
    /cut at 14 bytes \(fetch\.maxBytes\)/,
  );
  const big = fetched({ ...pdf, body: null, contentLength: 5000 });
  assert.match(settleOutcome(big, readFetch(big), null, null)?.error ?? '', /over documents\.maxBytes/);
  assert.equal(settleOutcome(big, readFetch(big), null, 4)?.type, 'BINARY', 'unread: never a duplicate');
});

test('documentOutcome: the text, its score and relevance, or why no text', () => {
  const pdf = fetched({ contentType: 'application/pdf', body: Buffer.from('%PDF'), text: null, bytes: 4 });
  const binary = settleOutcome(pdf, readFetch(pdf), null, null)!;
  const read = documentOutcome(binary, { text: 'words', error: null }, 0.7, 0.5);
  assert.deepEqual([read.type, read.text, read.score, read.relevant], ['BINARY', 'words', 0.7, true]);
  const broken = documentOutcome(binary, { text: null, error: 'pdf: bad xref' }, null, 0.5);
  assert.deepEqual([broken.text, broken.error, broken.relevant], [null, 'pdf: bad xref', false]);
});
