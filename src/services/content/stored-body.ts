// A stored page body back to bytes and text, decoded the way the crawl decoded it when it fetched the page
// (BOM, then the Content-Type charset, then <meta charset>, else UTF-8), so ISO-8859-1 or windows-1251
// pages read the same in ?include=html, the word statistics, corpora and WARC exports. Bodies are stored raw
// (page_contents.html, page_responses.body) and PostgreSQL compresses them; rows written before that hold
// gzip of them (html_gzip, body_gzip). A reader names the row's body with storedBody() and reads it here, the
// one place that knows the two forms apart.
import { promisify } from 'node:util';
import { constants, gunzip as gunzipCallback, gunzipSync } from 'node:zlib';
import { decodeBody } from '../../crawler/fetch/index.js';

const gunzip = promisify(gunzipCallback);

/** A stored body, whole or its first bytes as read: raw, or gzip for a row written before raw bodies. */
export interface StoredBody {
  bytes: Uint8Array;
  gzip: boolean;
}

/** The body a row holds: its raw column when set, else its gzip column; null when it has neither. */
export function storedBody(
  raw: Uint8Array | null | undefined,
  gzip: Uint8Array | null | undefined,
): StoredBody | null {
  if (raw != null) return { bytes: raw, gzip: false };
  if (gzip != null) return { bytes: gzip, gzip: true };
  return null;
}

/**
 * Stored bytes that always hold at least `bodyBytes` bytes of the body, raw or gzip: deflate never grows its
 * input by more than a few bytes per 64 KiB block, so this many compressed bytes cannot inflate to less. A
 * reader that wants only a body's first bytes reads this prefix of the stored value (SQL substring, which
 * decompresses only that slice of a value PostgreSQL compressed) and no more.
 */
export function storedPrefixBytes(bodyBytes: number): number {
  return bodyBytes + Math.ceil(bodyBytes / 1024) + 1024;
}

/** The whole body's bytes (inflated off the event loop when stored as gzip). */
export async function storedBodyBytes(body: StoredBody): Promise<Buffer> {
  return body.gzip ? gunzip(body.bytes) : asBuffer(body.bytes);
}

export async function storedBodyText(body: StoredBody, contentType: string | null): Promise<string> {
  return decodeBody(await storedBodyBytes(body), contentType).text;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** First compressed slice tried by gunzipPrefix; each next one is twice the last. */
const FIRST_SLICE_BYTES = 64 * 1024;

/**
 * The first `maxBytes` bytes of a gzip body (whole or itself cut: a prefix of a stored gzip inflates as far
 * as it goes), and whether the body went on past them. Inflates growing slices of the input, so a body that
 * compresses a hundredfold never lands in memory whole: the output stays within about twice `maxBytes`.
 */
export function gunzipPrefix(gzip: Uint8Array, maxBytes: number): { bytes: Buffer; cut: boolean } {
  const maxOutputLength = 2 * maxBytes + FIRST_SLICE_BYTES;
  let known = 0; // a slice length whose output was shorter than maxBytes
  let sliceBytes = Math.min(gzip.length, FIRST_SLICE_BYTES);
  for (;;) {
    let bytes: Buffer;
    try {
      bytes = gunzipSync(gzip.subarray(0, sliceBytes), {
        finishFlush: constants.Z_SYNC_FLUSH,
        maxOutputLength,
      });
    } catch (error) {
      // this slice inflates past the cap: try one halfway back to the last that did not
      if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE' || sliceBytes - known <= 1)
        throw error;
      sliceBytes = known + Math.floor((sliceBytes - known) / 2);
      continue;
    }
    if (bytes.length > maxBytes) return { bytes: bytes.subarray(0, maxBytes), cut: true };
    if (sliceBytes >= gzip.length) return { bytes, cut: false };
    known = sliceBytes;
    sliceBytes = Math.min(gzip.length, sliceBytes * 2);
  }
}

/**
 * The first `maxBytes` bytes of a stored body, and whether the body went on past them. `body` may itself be a
 * prefix of the stored value of at least storedPrefixBytes(maxBytes) bytes.
 */
function storedBodyHead(body: StoredBody, maxBytes: number): { bytes: Buffer; cut: boolean } {
  if (body.gzip) return gunzipPrefix(body.bytes, maxBytes);
  const bytes = asBuffer(body.bytes);
  return bytes.length > maxBytes ? { bytes: bytes.subarray(0, maxBytes), cut: true } : { bytes, cut: false };
}

/**
 * The decoded text of a stored body's first `maxBytes` bytes (the most of a page the crawl parses), and
 * whether the body went on past them. `body` may itself be a prefix of the stored value of at least
 * storedPrefixBytes(maxBytes) bytes.
 */
export function storedBodyPrefix(
  body: StoredBody,
  contentType: string | null,
  maxBytes: number,
): { text: string; cut: boolean } {
  const { bytes, cut } = storedBodyHead(body, maxBytes);
  return { text: decodeBody(bytes, contentType).text, cut };
}
