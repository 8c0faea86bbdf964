// The document pool's worker module (document-pool.ts): reads one document's text on a worker thread, where a
// hostile file can only exhaust the thread (its heap limit, its deadline), never the process. Only the outcome
// crosses back: the text, or why there is none.
import { DocumentUnreadableError, readDocumentText } from '../crawler/documents/read-text.js';

export interface DocumentTask {
  dataType: string;
  bytes: Uint8Array;
  maxChars: number;
  maxUncompressedBytes: number;
  /** Set to the time (ms since the epoch) the thread starts the task: the deadline counts from then. */
  started: Float64Array;
}

export type DocumentTaskOutcome = { text: string; truncated: boolean } | { error: string };

export async function readDocumentTask(task: DocumentTask): Promise<DocumentTaskOutcome> {
  task.started[0] = Date.now();
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

// piscina calls the module's default export with each task.
export default readDocumentTask;
