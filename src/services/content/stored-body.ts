// A stored page body (gzip) back to text, decoded the way the crawl decoded it when it fetched the page
// (BOM, then the Content-Type charset, then <meta charset>, else UTF-8), so ISO-8859-1 or windows-1251
// pages read the same in ?include=html, the word statistics and corpora.
import { promisify } from 'node:util';
import { constants, gunzip as gunzipCallback, gunzipSync } from 'node:zlib';
import { decodeBody } from '../../crawler/fetch/index.js';

const gunzip = promisify(gunzipCallback);

/**
 * Gzip bytes that always hold at least `bodyBytes` bytes of the body once inflated: deflate never grows its
 * input by more than a few bytes per 64 KiB block, so this many compressed bytes cannot inflate to less. A
 * reader that wants only a body's first bytes reads this prefix of the stored gzip and no more.
 */
export function gzipPrefixBytes(bodyBytes: number): number {
  return bodyBytes + Math.ceil(bodyBytes / 1024) + 1024;
}

export async function storedBodyText(htmlGzip: Buffer, contentType: string | null): Promise<string> {
  return decodeBody(await gunzip(htmlGzip), contentType).text;
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
 * The decoded text of a stored body's first `maxBytes` bytes (the most of a page the crawl parses), and
 * whether the body went on past them. `htmlGzip` may itself be a prefix of the stored gzip of at least
 * gzipPrefixBytes(maxBytes) bytes.
 */
export function storedBodyPrefix(
  htmlGzip: Uint8Array,
  contentType: string | null,
  maxBytes: number,
): { text: string; cut: boolean } {
  const { bytes, cut } = gunzipPrefix(htmlGzip, maxBytes);
  return { text: decodeBody(bytes, contentType).text, cut };
}
