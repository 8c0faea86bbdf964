// The text of a downloaded document: PDF through unpdf (pdf.js built for servers), DOCX through mammoth (its raw
// text), PPTX and ODT read as what they are, a zip of XML (ECMA-376 slides' <a:t> runs; ODF's content.xml).
// DOC and PPT (OLE compound files) have no well-kept reader: their text is not read. A document is hostile until
// read: every zip's and every PDF Flate stream's real uncompressed size is counted as it is inflated and the read
// stops past a cap (a bomb announces small sizes and inflates to gigabytes), the text stops at maxChars, and the caller runs this on a
// reader process with a deadline and a heap limit (services/pools/document-pool.ts).
import { inflateSync } from 'node:zlib';
import { Unzip, UnzipInflate } from 'fflate';

/** Document data types (url-kind.ts) whose text is read. */
export const READABLE_DOCUMENT_TYPES: ReadonlySet<string> = new Set(['PDF', 'DOCX', 'PPTX', 'ODT']);

export interface DocumentTextLimits {
  /** The text kept, in characters: the rest is dropped and `truncated` set. */
  maxChars: number;
  /** The most a zip container may inflate to, all entries together. */
  maxUncompressedBytes: number;
}

export interface DocumentText {
  text: string;
  truncated: boolean;
}

/** A document that cannot be read: broken, of no readable type, or over a limit (the message says which). */
export class DocumentUnreadableError extends Error {
  override readonly name = 'DocumentUnreadableError';
}

export async function readDocumentText(
  dataType: string,
  bytes: Uint8Array,
  limits: DocumentTextLimits,
): Promise<DocumentText> {
  switch (dataType) {
    case 'PDF':
      checkPdfInflation(bytes, limits.maxUncompressedBytes);
      return capped(await pdfText(bytes, limits.maxChars), limits.maxChars);
    case 'DOCX':
      return capped(await docxText(bytes, limits), limits.maxChars);
    case 'PPTX':
      return capped(await pptxText(bytes, limits), limits.maxChars);
    case 'ODT':
      return capped(await odtText(bytes, limits), limits.maxChars);
    default:
      throw new DocumentUnreadableError(`no reader for ${dataType} documents`);
  }
}

function capped(text: string, maxChars: number): DocumentText {
  const clean = text
    .replace(/[ \t\f\v]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
  return clean.length > maxChars
    ? { text: clean.slice(0, maxChars), truncated: true }
    : { text: clean, truncated: false };
}

async function pdfText(bytes: Uint8Array, maxChars: number): Promise<string> {
  const { getDocumentProxy } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js may take the buffer over (it transfers it to its own worker where it has one): hand it a copy
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, verbosity: 0 });
  } catch (error) {
    throw new DocumentUnreadableError(`unreadable PDF: ${(error as Error).message}`);
  }
  try {
    const pages: string[] = [];
    let chars = 0;
    // page by page, so a huge document stops once maxChars are in hand
    for (let number = 1; number <= pdf.numPages && chars <= maxChars; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
        else if (item.str !== '' && !item.str.endsWith(' ')) text += ' ';
      }
      page.cleanup();
      pages.push(text);
      chars += text.length;
    }
    return pages.join('\n');
  } catch (error) {
    throw new DocumentUnreadableError(`unreadable PDF: ${(error as Error).message}`);
  } finally {
    await pdf.destroy();
  }
}

/**
 * A PDF's Flate streams inflate to at most maxUncompressedBytes in all: pdf.js inflates them without a bound,
 * so a few megabytes of compressed zeros would fill the reader's heap. Each stream is inflated here
 * under what is left of the cap (zlib's maxOutputLength), its output dropped at once; a stream zlib cannot
 * inflate is left to pdf.js, which fails on it or skips it.
 */
export function checkPdfInflation(bytes: Uint8Array, maxUncompressedBytes: number): void {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = pdf.toString('latin1');
  let total = 0;
  for (const match of text.matchAll(/(?<!end)stream\r?\n/g)) {
    const start = match.index + match[0].length;
    // the stream's dictionary: from the last `obj` before it
    const dictionary = text.slice(Math.max(0, text.lastIndexOf(' obj', match.index)), match.index);
    if (!dictionary.includes('/FlateDecode')) continue;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    try {
      total += inflateSync(pdf.subarray(start, end), {
        maxOutputLength: maxUncompressedBytes - total + 1,
        finishFlush: 2, // Z_SYNC_FLUSH: a stream cut short still counts what it holds
      }).length;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') total = maxUncompressedBytes + 1;
    }
    if (total > maxUncompressedBytes) {
      throw new DocumentUnreadableError(
        `the document inflates past ${maxUncompressedBytes} bytes (a compression bomb?): not read`,
      );
    }
  }
}

/**
 * The entries of a zip that `wanted` names, inflated, counting every entry's real output against
 * maxUncompressedBytes (entries not wanted are inflated too when `measureAll`: mammoth reads the whole archive).
 */
export function unzipCapped(
  bytes: Uint8Array,
  wanted: (name: string) => boolean,
  maxUncompressedBytes: number,
  measureAll = false,
): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  let total = 0;
  let fault: Error | null = null;
  const unzip = new Unzip((file) => {
    const keep = wanted(file.name);
    if (!keep && !measureAll) return;
    const chunks: Uint8Array[] = [];
    file.ondata = (error, chunk, final) => {
      if (fault) return;
      if (error) {
        fault = new DocumentUnreadableError(`unreadable zip entry ${file.name}: ${error.message}`);
        return;
      }
      total += chunk.length;
      if (total > maxUncompressedBytes) {
        fault = new DocumentUnreadableError(
          `the document inflates past ${maxUncompressedBytes} bytes (a zip bomb?): not read`,
        );
        file.terminate();
        return;
      }
      if (keep) chunks.push(chunk);
      if (final && keep) files.set(file.name, Buffer.concat(chunks));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    // fed in slices, so a bomb is caught after a slice's worth of output, not after the whole archive
    const slice = 64 * 1024;
    for (let offset = 0; offset < bytes.length && !fault; offset += slice) {
      unzip.push(bytes.subarray(offset, offset + slice), offset + slice >= bytes.length);
    }
  } catch (error) {
    if (!fault) throw new DocumentUnreadableError(`unreadable zip: ${(error as Error).message}`);
  }
  if (fault) throw fault;
  return files;
}

async function docxText(bytes: Uint8Array, limits: DocumentTextLimits): Promise<string> {
  // mammoth inflates with jszip, which counts nothing: the archive's real size is measured first
  unzipCapped(bytes, () => false, limits.maxUncompressedBytes, true);
  const mammoth = (await import('mammoth')).default;
  try {
    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    return value;
  } catch (error) {
    throw new DocumentUnreadableError(`unreadable DOCX: ${(error as Error).message}`);
  }
}

async function pptxText(bytes: Uint8Array, limits: DocumentTextLimits): Promise<string> {
  const slides = unzipCapped(
    bytes,
    (name) => /^ppt\/slides\/slide\d+\.xml$/.test(name),
    limits.maxUncompressedBytes,
  );
  if (slides.size === 0) throw new DocumentUnreadableError('unreadable PPTX: no slides');
  const number = (name: string) => Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);
  return [...slides]
    .sort(([a], [b]) => number(a) - number(b))
    .map(([, xml]) =>
      xmlText(new TextDecoder().decode(xml), /<a:t(?:\s[^>]*)?>([^<]*)<\/a:t>|<\/a:p>|<a:br\b[^>]*\/>/g),
    )
    .join('\n');
}

async function odtText(bytes: Uint8Array, limits: DocumentTextLimits): Promise<string> {
  const content = unzipCapped(bytes, (name) => name === 'content.xml', limits.maxUncompressedBytes).get(
    'content.xml',
  );
  if (!content) throw new DocumentUnreadableError('unreadable ODT: no content.xml');
  const xml = new TextDecoder().decode(content);
  const body = xml.slice(Math.max(0, xml.indexOf('<office:body')));
  // text:p and text:h hold the text; line breaks, tabs and runs of spaces are elements of their own
  const text = body
    .replace(/<\/text:(?:p|h)>|<text:line-break\/>/g, '\n')
    .replace(/<text:tab\/>/g, '\t')
    .replace(/<text:s(?:\s+text:c="(\d+)")?\/>/g, (_all, count?: string) =>
      ' '.repeat(Math.min(Number(count ?? 1), 100)),
    )
    .replace(/<[^>]*>/g, '');
  return decodeXmlEntities(text);
}

/** The text of the XML's matches of `pattern`: group 1 is a text run, a match without it a line break. */
function xmlText(xml: string, pattern: RegExp): string {
  let text = '';
  for (const match of xml.matchAll(pattern))
    text += match[1] !== undefined ? decodeXmlEntities(match[1]) : '\n';
  return text;
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_all, name: string) => {
    if (name.startsWith('#x')) return safeCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return safeCodePoint(Number(name.slice(1)));
    return XML_ENTITIES[name] ?? '';
  });
}

function safeCodePoint(code: number): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
}
