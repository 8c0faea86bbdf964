// The document pool's reader process (document-pool.ts): reads documents' text one at a time, in a process of its
// own, where a hostile file can only exhaust this process (its heap limit, its deadline), never the one that
// forked it. Only the outcome crosses back: the text, or why there is none.
import { DocumentUnreadableError, readDocumentText } from '../../crawler/documents/read-text.js';

export interface DocumentTask {
  dataType: string;
  bytes: Uint8Array;
  maxChars: number;
  maxUncompressedBytes: number;
}

export type DocumentTaskOutcome = { text: string; truncated: boolean } | { error: string };

/** What the pool sends a reader process, and what the reader answers: `ready` once, then one reply per read. */
export type ReaderRequest = DocumentTask & { id: number };
export type ReaderReply = { ready: true } | { id: number; outcome: DocumentTaskOutcome };

export async function readDocumentTask(task: DocumentTask): Promise<DocumentTaskOutcome> {
  try {
    return await readDocumentText(task.dataType, task.bytes, task);
  } catch (error) {
    // whatever a parser throws on a document is the document's fault: recorded on its page, the crawl goes on
    if (error instanceof DocumentUnreadableError) return { error: error.message };
    return {
      error: `unreadable ${task.dataType}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * Serves the pool's reads in this process through `read` (document-reader.ts passes readDocumentTask; a test's
 * reader may misbehave), and ends the process when the pool goes (its IPC channel closes).
 */
export function serveDocumentReads(read: (task: DocumentTask) => Promise<DocumentTaskOutcome>): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('a document reader runs as a child process of the document pool (fork)');
  process.on('message', (request: ReaderRequest) => {
    void read(request).then((outcome) => send({ id: request.id, outcome } satisfies ReaderReply));
  });
  process.on('disconnect', () => process.exit(0));
  send({ ready: true } satisfies ReaderReply);
}
