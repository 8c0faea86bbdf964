// Turns a response body into text the way a browser would (WHATWG Encoding + HTML "determining the
// character encoding"): a byte order mark wins, then the Content-Type charset, then <meta charset> /
// <meta http-equiv> (or the XML declaration), else UTF-8. Latin-1 labels mean windows-1252 per WHATWG.
import iconv from 'iconv-lite';

const TEXTUAL =
  /^(text\/|application\/(?:[\w.+-]*\+)?(?:xml|json)\b|application\/(?:javascript|ecmascript|rss\+xml|atom\+xml)\b)/i;

/** Is a body of this content type text the crawler reads (HTML, XML, plain text, JSON)? */
export function isDecodedAsText(contentType: string | null): boolean {
  return contentType !== null && TEXTUAL.test(contentType.trim());
}

/** The media type without parameters, lower-cased: `text/html; charset=x` → `text/html`. */
export function mediaType(contentType: string | null): string | null {
  if (contentType === null) return null;
  const type = contentType.split(';')[0]?.trim().toLowerCase();
  return type ? type : null;
}

// WHATWG maps these labels to windows-1252; iconv-lite would decode them as strict ISO-8859-1, which
// loses the curly quotes and dashes that real "latin1" pages contain in 0x80–0x9F.
const WINDOWS_1252_LABELS = new Set([
  'ansi_x3.4-1968',
  'ascii',
  'cp1252',
  'cp819',
  'csisolatin1',
  'ibm819',
  'iso-8859-1',
  'iso-ir-100',
  'iso8859-1',
  'iso88591',
  'iso_8859-1',
  'iso_8859-1:1987',
  'l1',
  'latin1',
  'us-ascii',
  'windows-1252',
  'x-cp1252',
]);

/** A charset label normalised to a name iconv-lite decodes, or null when it is unknown. */
export function normalizeCharset(label: string | null | undefined): string | null {
  if (!label) return null;
  const name = label
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  if (name === '') return null;
  if (WINDOWS_1252_LABELS.has(name)) return 'windows-1252';
  if (name === 'utf8' || name === 'unicode-1-1-utf-8') return 'utf-8';
  return iconv.encodingExists(name) ? name : null;
}

export function charsetFromContentType(contentType: string | null): string | null {
  const match = contentType?.match(/;\s*charset\s*=\s*("?)([^";,\s]+)\1/i);
  return match ? normalizeCharset(match[2]) : null;
}

function charsetFromBom(body: Buffer): { charset: string; bomBytes: number } | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { charset: 'utf-8', bomBytes: 3 };
  if (body[0] === 0xfe && body[1] === 0xff) return { charset: 'utf-16be', bomBytes: 2 };
  if (body[0] === 0xff && body[1] === 0xfe) return { charset: 'utf-16le', bomBytes: 2 };
  return null;
}

// Browsers prescan the first 1024 bytes; real pages often carry long <head> comments or scripts
// before the meta tag, so we look a little further.
const PRESCAN_BYTES = 4096;

/** The charset declared in the document itself: `<meta charset>`, `<meta http-equiv content>`, `<?xml encoding?>`. */
export function charsetFromDocument(body: Buffer): string | null {
  const head = body.subarray(0, PRESCAN_BYTES).toString('latin1');
  const xml = head.match(/^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i);
  if (xml) return normalizeCharset(xml[1]);
  for (const meta of head.matchAll(/<meta\b[^>]*>/gi)) {
    const match = meta[0].match(/charset\s*=\s*["']?\s*([^"'\s;/>]+)/i);
    if (!match) continue;
    const charset = normalizeCharset(match[1]);
    // HTML: a meta declaring UTF-16 is a lie (the bytes we are reading are ASCII-compatible).
    if (charset?.startsWith('utf-16')) return 'utf-8';
    if (charset) return charset;
  }
  return null;
}

/** Decodes a body: BOM, then the header's charset, then the document's own declaration, then UTF-8. */
export function decodeBody(body: Buffer, contentType: string | null): { text: string; charset: string } {
  const bom = charsetFromBom(body);
  if (bom) return { text: iconv.decode(body.subarray(bom.bomBytes), bom.charset), charset: bom.charset };
  const charset = charsetFromContentType(contentType) ?? charsetFromDocument(body) ?? 'utf-8';
  return { text: iconv.decode(body, charset), charset };
}

/**
 * Text encoded back into the charset its body was decoded from (a rendered DOM stored in place of the fetched
 * body), so whoever decodes the stored body by the page's Content-Type or <meta charset> reads it right.
 * Characters the charset cannot hold become "?" (a script may add any).
 */
export function encodeText(text: string, charset: string | null): Buffer {
  const name = normalizeCharset(charset) ?? 'utf-8';
  return iconv.encodingExists(name) ? iconv.encode(text, name) : Buffer.from(text);
}
