// Text produced chunk by chunk for a response (a crawl graph's edges file, JSON or GEXF), handed over one chunk
// per event-loop turn. A stream over a synchronous generator pulls chunks back to back until its buffer is full
// (16 of them under Readable.from, and again each time a fast client drains it), so a big graph's output held
// the API's event loop for a second and more at a time; between two chunks here, other requests run.
import { setImmediate as nextTurn } from 'node:timers/promises';

export async function* chunksByTurn(chunks: Iterable<string>): AsyncGenerator<string, void, undefined> {
  for (const chunk of chunks) {
    yield chunk;
    await nextTurn();
  }
}
