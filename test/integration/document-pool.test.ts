// The document pool reads documents on worker threads within its limits: a read past its deadline and a zip
// bomb end as the document's error (the crawl records it and goes on), never as a fault of the process. (The
// heap limit is not tested here: V8 may end the whole process, not the thread, when a worker runs out of heap
// in some allocations, so the caps on input, inflation and text are what keep a read well under it.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DocumentPool } from '../../src/services/document-pool.js';
import { makeDocx, makePdf, makePptx, makeZipBomb } from '../support/documents.js';

const pool = (fields: Partial<ConstructorParameters<typeof DocumentPool>[0]> = {}) =>
  new DocumentPool({ threads: 1, timeoutMs: 60_000, heapMb: 256, maxUncompressedBytes: 1 << 20, ...fields });

test('reads PDF, DOCX and PPTX on a thread; DOC has no reader', async (t) => {
  const documents = pool();
  t.after(() => documents.close());
  const reads = await Promise.all([
    documents.read('PDF', makePdf(['tennis rackets']), { maxChars: 1000 }),
    documents.read('DOCX', makeDocx(['squash courts']), { maxChars: 1000 }),
    documents.read('PPTX', makePptx(['badminton']), { maxChars: 1000 }),
  ]);
  assert.deepEqual(
    reads.map((read) => ('text' in read ? read.text : read.error)),
    ['tennis rackets', 'squash courts', 'badminton'],
  );
  assert.equal(documents.threadReads, 3, 'all three on threads, one waiting for the other');
  assert.equal(documents.reads('DOC'), false);
  assert.deepEqual(await documents.read('DOC', Buffer.from('x'), { maxChars: 10 }), {
    error: 'no reader for DOC documents',
  });
});

test('past its deadline a read is stopped: the document gets the error, the pool reads on', async (t) => {
  // a deadline of 1 ms from the thread's start: no PDF is parsed in that time (pdf.js alone takes longer to load)
  const documents = pool({ timeoutMs: 1 });
  t.after(() => documents.close());
  const read = await documents.read('PDF', makePdf(['tennis']), { maxChars: 1000 });
  assert.deepEqual(read, { error: 'reading the document took longer than 1 ms' });
});

test('a zip bomb through the pool is the document error; the next read goes on', async (t) => {
  const documents = pool({ maxUncompressedBytes: 1 << 20 });
  t.after(() => documents.close());
  const read = await documents.read('PPTX', makeZipBomb('ppt/slides/slide1.xml', 64 << 20), {
    maxChars: 1000,
  });
  assert.deepEqual(read, { error: 'the document inflates past 1048576 bytes (a zip bomb?): not read' });
  const next = await documents.read('DOCX', makeDocx(['still reading']), { maxChars: 1000 });
  assert.deepEqual(next, { text: 'still reading', truncated: false });
});
