// A document reader process (services/pools/document-tasks.ts) that reads as the real one does, except a document whose
// bytes are EXHAUST_THE_HEAP: for that it makes one array of 200 M numbers (1.6 GB), the single large
// allocation after which V8 ends the whole process, not just a worker thread past its resourceLimits; and
// EXHAUST_THE_BUFFERS, for which it fills 2 GiB of Buffers, 16 MiB at a time (memory the heap limit does not
// count, as pdf.js's decoded streams are), taking a few seconds so that a memory watch can catch it.
import { setTimeout as sleep } from 'node:timers/promises';
import { readDocumentTask, serveDocumentReads } from '../../src/services/pools/document-tasks.js';
import { EXHAUST_THE_BUFFERS, EXHAUST_THE_HEAP } from './documents.js';

serveDocumentReads(async (task) => {
  const cue = Buffer.from(task.bytes).toString('latin1');
  if (cue === EXHAUST_THE_HEAP) {
    const numbers = new Array<number>(200_000_000).fill(0.5);
    return { error: `${numbers.length} numbers fit: the heap limit did not hold` };
  }
  if (cue === EXHAUST_THE_BUFFERS) {
    const held: Buffer[] = [];
    for (let i = 0; i < 128; i++) {
      held.push(Buffer.alloc(16 << 20, 1));
      await sleep(20);
    }
    return { error: `${held.length * 16} MiB of Buffers fit: the memory limit did not hold` };
  }
  return await readDocumentTask(task);
});
