// Documents' text, read from real files made in code (test/support/documents.ts), and the limits that keep a
// hostile document from costing more than it may: the uncompressed cap, the text cap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readDocumentText } from '../../../src/crawler/documents/read-text.js';
import { makeDocx, makeOdt, makePdf, makePdfBomb, makePptx, makeZipBomb } from '../../support/documents.js';

const LIMITS = { maxChars: 100_000, maxUncompressedBytes: 1024 * 1024 };

test('PDF: the text of every page, in order, parentheses and all', async () => {
  const pdf = makePdf(['Tennis rackets (strung)\nand balls', 'Second page about courts']);
  const { text, truncated } = await readDocumentText('PDF', pdf, LIMITS);
  assert.equal(truncated, false);
  assert.match(text, /Tennis rackets \(strung\)\s+and balls\s+Second page about courts/);
});

test('DOCX, PPTX and ODT: their paragraphs, slides in order', async () => {
  const docx = await readDocumentText('DOCX', makeDocx(['Tennis & squash', 'Second <paragraph>']), LIMITS);
  assert.equal(docx.text, 'Tennis & squash\nSecond <paragraph>');
  const slides = Array.from({ length: 11 }, (_, i) => `Slide ${i + 1} title\nbody ${i + 1}`);
  const pptx = await readDocumentText('PPTX', makePptx(slides), LIMITS);
  assert.match(pptx.text, /^Slide 1 title\nbody 1\nSlide 2 title/);
  assert.match(
    pptx.text,
    /Slide 10 title\nbody 10\nSlide 11 title\nbody 11$/,
    'slide 10 after slide 9, not 1',
  );
  const odt = await readDocumentText('ODT', makeOdt(['Tennis "club"', 'rules']), LIMITS);
  assert.equal(odt.text, 'Tennis "club"\nrules');
});

test('the text stops at maxChars, and says so', async () => {
  const read = await readDocumentText('DOCX', makeDocx(['a'.repeat(500)]), { ...LIMITS, maxChars: 100 });
  assert.deepEqual([read.text.length, read.truncated], [100, true]);
});

test('a zip that inflates past the cap is not read (a zip bomb); broken files are unreadable, not faults', async () => {
  const bomb = makeZipBomb('ppt/slides/slide1.xml', 64 * 1024 * 1024);
  assert.ok(bomb.length < 200 * 1024, `the bomb is small: ${bomb.length} bytes`);
  await assert.rejects(readDocumentText('PPTX', bomb, LIMITS), /inflates past 1048576 bytes/);
  await assert.rejects(
    readDocumentText('DOCX', makeZipBomb('word/media/x.bin', 64 * 1024 * 1024), LIMITS),
    /inflates past/,
  );
  const pdfBomb = makePdfBomb(64 * 1024 * 1024);
  assert.ok(pdfBomb.length < 200 * 1024, `the PDF bomb is small: ${pdfBomb.length} bytes`);
  await assert.rejects(readDocumentText('PDF', pdfBomb, LIMITS), /inflates past 1048576 bytes/);
  const smallPdf = makePdfBomb(1000);
  assert.equal(
    (await readDocumentText('PDF', smallPdf, LIMITS)).text,
    '',
    'a Flate stream under the cap is read',
  );
  await assert.rejects(
    readDocumentText('PDF', Buffer.from('%PDF-1.4 nothing else'), LIMITS),
    /unreadable PDF/,
  );
  await assert.rejects(
    readDocumentText('DOCX', Buffer.from('PK not a zip'), LIMITS),
    /DocumentUnreadableError|unreadable/,
  );
  await assert.rejects(readDocumentText('ODT', makeDocx(['x']), LIMITS), /no content\.xml/);
  await assert.rejects(readDocumentText('DOC', Buffer.from([0xd0, 0xcf]), LIMITS), /no reader for DOC/);
});
