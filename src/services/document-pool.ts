// Documents' text (PDF, DOCX, PPTX, ODT) is read on worker threads of a pool of its own, a sibling of the API's
// CPU pool (cpu-pool.ts) with the limits a hostile file needs: each thread's heap is capped (resourceLimits: a
// file that asks for more ends its thread, not the process), each read has a deadline from when a thread starts
// it (past it piscina stops the thread and starts another), and every zip inflates under a byte cap
// (crawler/documents/read-text.ts). One pool serves the crawl runners of a worker process and the API's
// /v1/score and /v1/extract; it implements the engine's DocumentTextReader port.
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { READABLE_DOCUMENT_TYPES } from '../crawler/documents/read-text.js';
import type { DocumentTextReader } from '../crawler/engine/ports.js';
import type { DocumentTask, DocumentTaskOutcome } from './document-tasks.js';

// The worker module beside this one, as .ts under tsx or .js from dist/ (as cpu-pool.ts finds its own).
const TASKS_MODULE = fileURLToPath(
  new URL(`./document-tasks${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

export interface DocumentPoolOptions {
  /** Worker threads (DOCUMENT_POOL_THREADS). */
  threads: number;
  /** A read's deadline from when its thread starts it, in ms (DOCUMENT_TIMEOUT_MS). */
  timeoutMs: number;
  /** Each thread's heap, in MiB (DOCUMENT_HEAP_MB): V8's old generation limit. */
  heapMb: number;
  /** The most a zip document (DOCX, PPTX, ODT) may inflate to (DOCUMENT_MAX_UNCOMPRESSED_BYTES). */
  maxUncompressedBytes: number;
  /** A thread's fault outside any read (piscina's 'error' event). */
  onError?: (error: unknown) => void;
}

export class DocumentPool implements DocumentTextReader {
  private pool: Piscina | null = null;
  private closed = false;
  /** Reads sent to threads in all (tests). */
  private readsOnThreads = 0;

  constructor(private readonly options: DocumentPoolOptions) {}

  reads(dataType: string): boolean {
    return READABLE_DOCUMENT_TYPES.has(dataType);
  }

  get threadReads(): number {
    return this.readsOnThreads;
  }

  private threads(): Piscina {
    if (!this.pool) {
      // started at the first document: a process that reads none has no threads
      this.pool = new Piscina({
        filename: TASKS_MODULE,
        minThreads: 0,
        maxThreads: this.options.threads,
        idleTimeout: 60_000,
        resourceLimits: {
          maxOldGenerationSizeMb: this.options.heapMb,
          maxYoungGenerationSizeMb: Math.max(16, Math.floor(this.options.heapMb / 8)),
        },
      });
      this.pool.on('error', (error: unknown) => this.options.onError?.(error));
    }
    return this.pool;
  }

  async read(
    dataType: string,
    body: Buffer,
    limits: { maxChars: number; signal?: AbortSignal },
  ): Promise<{ text: string; truncated: boolean } | { error: string }> {
    if (!this.reads(dataType)) return { error: `no reader for ${dataType} documents` };
    if (this.closed) throw new Error('the document pool is closed');
    const { timeoutMs } = this.options;
    const started = new Float64Array(new SharedArrayBuffer(8));
    const abort = new AbortController();
    let timedOut = false;
    // the deadline counts from the start on a thread: a read waiting behind others is not slow
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      timer = setTimeout(() => {
        // written once by the thread; Atomics has no Float64 form, and a late read only re-arms the timer
        const startedAt = started[0] ?? 0;
        if (startedAt === 0) return arm(timeoutMs);
        const leftMs = startedAt + timeoutMs - Date.now();
        if (leftMs > 0) return arm(leftMs);
        timedOut = true;
        abort.abort();
      }, ms);
    };
    arm(timeoutMs);
    const onCallerAbort = () => abort.abort();
    limits.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const task: DocumentTask = {
      dataType,
      bytes: body,
      maxChars: limits.maxChars,
      maxUncompressedBytes: this.options.maxUncompressedBytes,
      started,
    };
    this.readsOnThreads++;
    try {
      return (await this.threads().run(task, { signal: abort.signal })) as DocumentTaskOutcome;
    } catch (error) {
      if (timedOut) return { error: `reading the document took longer than ${timeoutMs} ms` };
      if (limits.signal?.aborted) throw limits.signal.reason ?? error;
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        return { error: `reading the document took more than ${this.options.heapMb} MiB of memory` };
      }
      if (this.closed) throw error;
      // a thread that died under the document (its heap, a native fault): the document's fault
      return { error: `reading the document stopped its thread: ${(error as Error).message}` };
    } finally {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** Stops the threads; a read still running is abandoned. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
    this.pool = null;
  }
}
