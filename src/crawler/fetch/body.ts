// Reads a response body through its Content-Encoding (gzip, deflate, br) and stops at a byte cap on the
// decompressed size, which also bounds decompression bombs. "deflate" is zlib-wrapped per RFC 9110 but
// some servers send raw deflate, so the first byte decides (as browsers do). With a budget hold, the bytes
// kept are covered by the process's body budget first (body-budget.ts): the read waits for them, paused.
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import type { BudgetHold } from './body-budget.js';

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

export interface BodyReadOptions {
  /** The page's share of the process's body budget: grown as bytes arrive; a body it cannot cover is cut. */
  hold?: BudgetHold;
  /** Content-Length of the response: asked of the budget at once when the body is not encoded. */
  contentLength?: number | null;
  /** Ends a wait for the budget. */
  signal?: AbortSignal;
  /** Called with true before a wait for the budget and false after it (the fetch's deadline pauses). */
  onBudgetWait?: (waiting: boolean) => void;
}

export interface BodyRead {
  body: Buffer;
  /** Cut at maxBytes or by the budget. */
  truncated: boolean;
  /**
   * Cut by the budget, not at maxBytes: the body is larger than the whole budget, or waiting for more would
   * have deadlocked. `truncated` too.
   */
  budgetCut: boolean;
}

/** Bodies of unknown length are covered by the budget this much at a time. */
const BUDGET_STEP_BYTES = 1 << 20;

export async function readBody(
  body: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
  options: BodyReadOptions = {},
): Promise<BodyRead> {
  const { hold, signal, onBudgetWait } = options;
  // A body never takes more than the whole budget: past it, it could only be cut anyway.
  let cap = hold ? Math.min(maxBytes, hold.budgetBytes) : maxBytes;
  let budgetCut = false;
  let chunks: Buffer[] = [];
  // With the length known, the body is copied into one buffer as it comes, not concatenated at the end:
  // a big body is not held twice.
  let whole: Buffer | null = null;
  let size = 0;
  let truncated = false;

  /** Makes the hold cover `bytes` (≤ cap) if the budget allows; on refusal the body stops where it is held. */
  const cover = async (bytes: number): Promise<void> => {
    if (!hold || hold.heldBytes >= bytes) return;
    const ask = Math.min(cap, Math.max(bytes, hold.heldBytes + BUDGET_STEP_BYTES)) - hold.heldBytes;
    onBudgetWait?.(true);
    let granted: boolean;
    try {
      granted = await hold.grow(ask, signal);
    } finally {
      onBudgetWait?.(false);
    }
    if (!granted) {
      budgetCut = true;
      cap = Math.max(size, hold.heldBytes);
    }
  };
  const append = (chunk: Buffer): void => {
    if (whole !== null && size + chunk.length <= whole.length) chunk.copy(whole, size);
    else {
      if (whole !== null) chunks = [whole.subarray(0, size)];
      whole = null;
      chunks.push(chunk);
    }
    size += chunk.length;
  };
  const keep = async (chunk: Buffer): Promise<boolean> => {
    if (hold && size + chunk.length > hold.heldBytes && size < cap) {
      await cover(Math.min(cap, size + chunk.length));
    }
    const room = (hold ? Math.min(cap, hold.heldBytes) : cap) - size;
    if (chunk.length > room) {
      if (room > 0) append(chunk.subarray(0, room));
      truncated = true;
      return false;
    }
    append(chunk);
    return true;
  };
  const result = (): BodyRead => {
    const read =
      whole !== null ? (whole as Buffer).subarray(0, size) : Buffer.concat(chunks as Uint8Array[], size);
    chunks = [];
    whole = null;
    // A body that ended short of what was asked for gives the rest back at once.
    hold?.shrinkTo(read.length);
    // cap falls below maxBytes only for the budget: refused bytes, or a body larger than the whole budget
    return { body: read, truncated, budgetCut: truncated && (budgetCut || cap < maxBytes) };
  };

  // Only the outermost coding is undone; stacked codings ("gzip, br") are vanishingly rare on the web.
  const codings = (contentEncoding ?? '').toLowerCase().split(',');
  const coding = codings[codings.length - 1]?.trim() ?? '';
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let decoder: Transform | null = null;
  try {
    const { contentLength } = options;
    if ((coding === '' || coding === 'identity') && contentLength != null && contentLength > 0) {
      await cover(Math.min(cap, contentLength));
      const expected = Math.min(cap, contentLength);
      if (hold === undefined || hold.heldBytes >= expected) whole = Buffer.allocUnsafe(expected);
    }
    const first = await iterator.next();
    if (first.done) return result();
    decoder = decoderFor(coding, first.value);
    if (decoder === null) {
      if (await keep(first.value)) {
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
          if (!(await keep(next.value))) break;
        }
      }
      return result();
    }
    const source = (async function* () {
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    })();
    pipeline(source, decoder, () => {});
    for await (const chunk of decoder as AsyncIterable<Buffer>) {
      if (!(await keep(chunk))) break;
    }
    return result();
  } finally {
    decoder?.destroy();
    body.destroy();
  }
}
