// Reads a response body through its Content-Encoding (gzip, deflate, br) and stops at a byte cap on the
// decompressed size, which also bounds decompression bombs. "deflate" is zlib-wrapped per RFC 9110 but
// some servers send raw deflate, so the first byte decides (as browsers do).
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';

export class UnsupportedEncodingError extends Error {
  readonly code = 'ETRAWLENCODING';
}

function decoderFor(encoding: string, firstChunk: Buffer): Transform | null {
  // Flush on partial input: a body cut by the server still yields what was decodable.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (encoding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(flush);
    case 'deflate':
      // A zlib header: CM = 8 in the low nibble and the 16-bit header divisible by 31.
      return (firstChunk[0]! & 0x0f) === 8 && ((firstChunk[0]! << 8) | (firstChunk[1] ?? 0)) % 31 === 0
        ? zlib.createInflate(flush)
        : zlib.createInflateRaw(flush);
    case 'br':
      return zlib.createBrotliDecompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      });
    default:
      throw new UnsupportedEncodingError(`unsupported Content-Encoding: ${encoding}`);
  }
}

export async function readBody(
  body: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  const keep = (chunk: Buffer): boolean => {
    const room = maxBytes - size;
    if (chunk.length > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room));
      size = maxBytes;
      truncated = true;
      return false;
    }
    chunks.push(chunk);
    size += chunk.length;
    return true;
  };

  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let decoder: Transform | null = null;
  try {
    const first = await iterator.next();
    if (first.done) return { body: Buffer.alloc(0), truncated: false };
    // Only the outermost coding is undone; stacked codings ("gzip, br") are vanishingly rare on the web.
    const codings = (contentEncoding ?? '').toLowerCase().split(',');
    decoder = decoderFor(codings[codings.length - 1]?.trim() ?? '', first.value);
    if (decoder === null) {
      if (keep(first.value)) {
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
          if (!keep(next.value)) break;
        }
      }
      return { body: Buffer.concat(chunks), truncated };
    }
    const source = (async function* () {
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    })();
    pipeline(source, decoder, () => {});
    for await (const chunk of decoder as AsyncIterable<Buffer>) {
      if (!keep(chunk)) break;
    }
    return { body: Buffer.concat(chunks), truncated };
  } finally {
    decoder?.destroy();
    body.destroy();
  }
}
