// A document reader process (services/document-tasks.ts) that reads as the real one does, except a document whose
// bytes are EXHAUST_THE_HEAP: for that it makes one array of 200 M numbers (1.6 GB), the single large
// allocation after which V8 ends the whole process, not just a worker thread past its resourceLimits.
import { readDocumentTask, serveDocumentReads } from '../../src/services/document-tasks.js';
import { EXHAUST_THE_HEAP } from './documents.js';

serveDocumentReads(async (task) => {
  if (Buffer.from(task.bytes).toString('latin1') === EXHAUST_THE_HEAP) {
    const numbers = new Array<number>(200_000_000).fill(0.5);
    return { error: `${numbers.length} numbers fit: the heap limit did not hold` };
  }
  return await readDocumentTask(task);
});
