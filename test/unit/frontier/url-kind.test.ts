import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  classifyUrl,
  type DocumentType,
  documentTypeFor,
  pathExtension,
  type UrlKind,
} from '../../../src/crawler/frontier/url-kind.js';

// biome-ignore format: one row per case reads as a table
const kindRows: Array<[name: string, url: string, expected: UrlKind]> = [
  ['html page', 'https://a.test/index.html', 'page'],
  ['no extension', 'https://a.test/about', 'page'],
  ['directory', 'https://a.test/docs/', 'page'],
  ['root', 'https://a.test/', 'page'],
  ['php page', 'https://a.test/view.php?id=3', 'page'],
  ['pdf', 'https://a.test/report.pdf', 'document'],
  ['PDF upper case', 'https://a.test/REPORT.PDF', 'document'],
  ['doc', 'https://a.test/a.doc', 'document'],
  ['docx', 'https://a.test/a.docx', 'document'],
  ['ppt', 'https://a.test/a.ppt', 'document'],
  ['pptx', 'https://a.test/a.pptx', 'document'],
  ['pdf with query and fragment', 'https://a.test/r.pdf?dl=1#page=2', 'document'],
  ['extension only in the query', 'https://a.test/get?file=r.pdf', 'page'],
  ['extension in a directory, not the file', 'https://a.test/r.pdf/view', 'page'],
  ['dot file is not an extension', 'https://a.test/.pdf', 'page'],
  ['png', 'https://a.test/i.png', 'image'],
  ['jpg', 'https://a.test/i.jpg', 'image'],
  ['jpeg', 'https://a.test/i.JPEG', 'image'],
  ['gif', 'https://a.test/i.gif', 'image'],
  ['webp', 'https://a.test/i.webp', 'image'],
  ['svg', 'https://a.test/i.svg', 'image'],
  ['ico', 'https://a.test/favicon.ico', 'image'],
  ['bmp', 'https://a.test/i.bmp', 'image'],
  ['avif', 'https://a.test/i.avif', 'image'],
  ['tiff is not listed', 'https://a.test/i.tiff', 'page'],
  ['relative URL', '/files/r.pptx?x', 'document'],
  ['encoded dot', 'https://a.test/r%2Epdf', 'document'],
];

for (const [name, url, expected] of kindRows) {
  test(`classifyUrl: ${name}`, () => assert.equal(classifyUrl(url), expected, url));
}

// biome-ignore format: one row per case reads as a table
const typeRows: Array<[name: string, contentType: string | null, url: string, expected: DocumentType | null]> = [
  ['pdf media type', 'application/pdf', 'https://a.test/x', 'PDF'],
  ['legacy x-pdf', 'application/x-pdf', 'https://a.test/x', 'PDF'],
  ['msword', 'application/msword', 'https://a.test/x', 'DOC'],
  ['docx media type', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'https://a.test/x', 'DOCX'],
  ['ms-powerpoint', 'application/vnd.ms-powerpoint', 'https://a.test/x', 'PPT'],
  ['pptx media type', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', 'https://a.test/x', 'PPTX'],
  ['parameters and case ignored', 'Application/PDF; name="r.pdf"', 'https://a.test/x', 'PDF'],
  ['content type wins over extension', 'application/msword', 'https://a.test/r.pdf', 'DOC'],
  ['html served at .pdf is no document', 'text/html; charset=utf-8', 'https://a.test/r.pdf', null],
  ['image is no document', 'image/png', 'https://a.test/r.png', null],
  ['no content type: extension decides', null, 'https://a.test/r.pptx', 'PPTX'],
  ['empty content type: extension decides', '', 'https://a.test/r.ppt', 'PPT'],
  ['octet-stream: extension decides', 'application/octet-stream', 'https://a.test/r.docx', 'DOCX'],
  ['force-download: extension decides', 'application/force-download', 'https://a.test/R.DOC', 'DOC'],
  ['octet-stream without extension', 'application/octet-stream', 'https://a.test/download', null],
  ['nothing known', null, 'https://a.test/page', null],
];

for (const [name, contentType, url, expected] of typeRows) {
  test(`documentTypeFor: ${name}`, () => assert.equal(documentTypeFor(contentType, url), expected));
}

test('pathExtension', () => {
  assert.equal(pathExtension('https://a.test/a.b/c.TAR.GZ?x=1.pdf'), 'gz');
  assert.equal(pathExtension('https://a.test/a.b/'), '');
  assert.equal(pathExtension('not a url/r.Pdf#x'), 'pdf');
});
