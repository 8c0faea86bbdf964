// The document pool reads documents in reader processes within their limits: a read past its deadline, a zip
// bomb and a read that runs out of heap end as the document's error (the crawl records it and goes on), never
// as a fault of this process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DocumentPool } from '../../src/services/pools/document-pool.js';
import {
  EXHAUST_THE_BUFFERS,
  EXHAUST_THE_HEAP,
  makeDocx,
  makePdf,
  makePptx,
  makeZipBomb,
} from '../support/documents.js';
import { COMPILED } from '../support/paths.js';

// a reader that allocates without bound; compiled beside this file when the suite runs from the compiled tree
const HUNGRY_READER = fileURLToPath(
  new URL(`../support/hungry-document-reader${COMPILED ? '.js' : '.ts'}`, import.meta.url),
);

const pool = (fields: Partial<ConstructorParameters<typeof DocumentPool>[0]> = {}) =>
  new DocumentPool({
    processes: 1,
    timeoutMs: 60_000,
    heapMb: 256,
    memoryMb: 1024,
    maxUncompressedBytes: 1 << 20,
    ...fields,
  });

test('reads PDF, DOCX and PPTX in a reader process; DOC has no reader', async (t) => {
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
  assert.equal(documents.processReads, 3, 'all three in the reader, one after the other');
  assert.equal(documents.processesStarted, 1);
  assert.equal(documents.reads('DOC'), false);
  assert.deepEqual(await documents.read('DOC', Buffer.from('x'), { maxChars: 10 }), {
    error: 'no reader for DOC documents',
  });
});

test('past its deadline a read is stopped: the document gets the error, the pool reads on', async (t) => {
  // a deadline of 1 ms from the reader's start: no PDF is parsed in that time (pdf.js alone takes longer to load)
  const documents = pool({ timeoutMs: 1 });
  t.after(() => documents.close());
  const read = await documents.read('PDF', makePdf(['tennis']), { maxChars: 1000 });
  assert.deepEqual(read, { error: 'reading the document took longer than 1 ms' });
  assert.deepEqual(await documents.read('DOC', Buffer.from('x'), { maxChars: 10 }), {
    error: 'no reader for DOC documents',
  });
});

test('a read that runs out of heap ends its reader, not this process: the document gets the error, the next reads', async (t) => {
  const faults: unknown[] = [];
  const documents = pool({
    heapMb: 64,
    readerModule: HUNGRY_READER,
    onError: (error) => faults.push(error),
  });
  t.after(() => documents.close());
  const [exhausted, waiting] = await Promise.all([
    documents.read('PDF', Buffer.from(EXHAUST_THE_HEAP, 'latin1'), { maxChars: 1000 }),
    // queued behind it for the one reader: read by the reader started after the first one died
    documents.read('DOCX', makeDocx(['squash courts']), { maxChars: 1000 }),
  ]);
  assert.deepEqual(exhausted, { error: 'reading the document took more than 64 MiB of memory' });
  assert.deepEqual(waiting, { text: 'squash courts', truncated: false });
  const next = await documents.read('PDF', makePdf(['tennis rackets']), { maxChars: 1000 });
  assert.deepEqual(next, { text: 'tennis rackets', truncated: false });
  assert.equal(documents.processesStarted, 2, 'one reader died, one took its place');
  assert.deepEqual(faults, [], 'a reader that dies under a read is that read’s error, not a pool fault');
});

test('a read that fills Buffers outside the heap is stopped at the memory limit: the document gets the error', async (t) => {
  const faults: unknown[] = [];
  // the heap limit alone would let it take 2 GiB: Buffers live outside V8's heap
  const documents = pool({
    heapMb: 64,
    memoryMb: 256,
    readerModule: HUNGRY_READER,
    onError: (error) => faults.push(error),
  });
  t.after(() => documents.close());
  const exhausted = await documents.read('PDF', Buffer.from(EXHAUST_THE_BUFFERS, 'latin1'), {
    maxChars: 1000,
  });
  assert.deepEqual(exhausted, { error: 'reading the document took more than 256 MiB of resident memory' });
  const next = await documents.read('DOCX', makeDocx(['squash courts']), { maxChars: 1000 });
  assert.deepEqual(next, { text: 'squash courts', truncated: false });
  assert.equal(documents.processesStarted, 2, 'the reader was killed, another took its place');
  assert.deepEqual(faults, []);
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
