// Real documents with known text, made in code for the test web and the reader's tests: a PDF of Helvetica text
// in uncompressed content streams, and DOCX, PPTX and ODT as what they are, zips of XML (fflate's zipSync).

import { deflateSync } from 'node:zlib';
import { zipSync } from 'fflate';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const utf8 = (text: string) => new TextEncoder().encode(text);

/** A PDF with one page per entry of `pages`, each line of a page (split on \n) shown in 12 pt Helvetica. */
export function makePdf(pages: string[]): Buffer {
  const escapePdf = (line: string) => line.replace(/[\\()]/g, (c) => `\\${c}`);
  const objects: string[] = [];
  const fontId = 3 + pages.length * 2;
  const pageIds = pages.map((_, i) => 3 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  pages.forEach((page, i) => {
    const lines = page.split('\n').map((line, n) => `${n === 0 ? '' : '0 -16 Td '}(${escapePdf(line)}) Tj`);
    const stream = `BT /F1 12 Tf 72 720 Td ${lines.join(' ')} ET`;
    objects[pageIds[i]!] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageIds[i]! + 1} 0 R /Resources << /Font << /F1 ${fontId} 0 R >> >> >>`;
    objects[pageIds[i]! + 1] =
      `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });
  objects[fontId] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(pdf, 'latin1');
    pdf += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) pdf += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** A Word document (OOXML) with one paragraph per entry. */
export function makeDocx(paragraphs: string[]): Buffer {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(p)}</w:t></w:r></w:p>`);
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': utf8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      '_rels/.rels': utf8(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      'word/document.xml': utf8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body.join('')}</w:body></w:document>`,
      ),
    }),
  );
}

/** A PowerPoint presentation (OOXML) with one slide per entry, each line of a slide (split on \n) a paragraph. */
export function makePptx(slides: string[]): Buffer {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': utf8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>${slides.map((_, i) => `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`).join('')}</Types>`,
    ),
    '_rels/.rels': utf8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>',
    ),
    'ppt/presentation.xml': utf8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`,
    ),
  };
  slides.forEach((slide, i) => {
    const paragraphs = slide
      .split('\n')
      .map((line) => `<a:p><a:r><a:t>${escapeXml(line)}</a:t></a:r></a:p>`)
      .join('');
    files[`ppt/slides/slide${i + 1}.xml`] = utf8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody>${paragraphs}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    );
  });
  return Buffer.from(zipSync(files));
}

/** An OpenDocument text with one paragraph per entry. */
export function makeOdt(paragraphs: string[]): Buffer {
  const body = paragraphs.map((p) => `<text:p>${escapeXml(p)}</text:p>`).join('');
  return Buffer.from(
    zipSync({
      // the mimetype entry comes first, stored (ODF 1.2 part 3 §3.3)
      mimetype: [utf8('application/vnd.oasis.opendocument.text'), { level: 0 }],
      'content.xml': utf8(
        `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
      ),
      'META-INF/manifest.xml': utf8(
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
      ),
    }),
  );
}

/** A zip whose one entry inflates to `bytes` of zeros from a few KB: a zip bomb in miniature. */
export function makeZipBomb(name: string, bytes: number): Buffer {
  return Buffer.from(zipSync({ [name]: [new Uint8Array(bytes), { level: 9 }] }));
}

/** A PDF whose one page's content stream is `bytes` of spaces, Flate-compressed to a few KB: a PDF bomb. */
export function makePdfBomb(bytes: number): Buffer {
  const stream = deflateSync(Buffer.alloc(bytes, 0x20), { level: 9 });
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n' +
      `4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`,
    'latin1',
  );
  return Buffer.concat([
    head,
    stream,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
  ]);
}

/** The bytes on which test/support/hungry-document-reader.ts runs its process out of heap. */
export const EXHAUST_THE_HEAP = 'exhaust the heap';
/** A document's bytes that make the test reader fill Buffers (outside the heap) until it is stopped. */
export const EXHAUST_THE_BUFFERS = 'exhaust the buffers';
