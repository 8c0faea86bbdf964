// Reads a text/event-stream from a fetch body (WHATWG HTML §9.2.6, "interpreting an event stream"): fields
// `event`, `data` (several lines joined by \n), `id`; a blank line dispatches; lines starting with `:` are
// comments (keep-alives). fetch, not EventSource: EventSource cannot send the Authorization header.

export interface ServerSentEvent {
  event: string;
  data: string;
  /** the last `id:` seen so far in the stream, for Last-Event-ID on reconnect */
  lastEventId: string;
}

export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const decoder = new TextDecoder();
  let buffered = '';
  let event = '';
  let data: string[] = [];
  let lastEventId = '';
  // one pass over the complete lines buffered; at the end of the body a trailing CR ends its line too
  function* dispatch(atEnd: boolean): Generator<ServerSentEvent> {
    for (let end = lineEnd(buffered, atEnd); end; end = lineEnd(buffered, atEnd)) {
      const line = buffered.slice(0, end.at);
      buffered = buffered.slice(end.at + end.length);
      if (line === '') {
        if (data.length) yield { event: event || 'message', data: data.join('\n'), lastEventId };
        event = '';
        data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id' && !value.includes('\0')) lastEventId = value;
      }
    }
  }
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    yield* dispatch(false);
  }
  buffered += decoder.decode();
  yield* dispatch(true);
}

/**
 * Where the first complete line ends (CRLF, LF or CR), or null. A CR that ends the text may be half of a
 * CRLF whose LF is in the next chunk, so it ends a line only at the end of the body.
 */
function lineEnd(text: string, atEnd: boolean): { at: number; length: number } | null {
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 10) return { at: i, length: 1 };
    if (char === 13) {
      if (i + 1 === text.length) return atEnd ? { at: i, length: 1 } : null;
      return { at: i, length: text.charCodeAt(i + 1) === 10 ? 2 : 1 };
    }
  }
  return null;
}
