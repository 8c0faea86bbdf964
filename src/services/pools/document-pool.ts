// Documents' text (PDF, DOCX, PPTX, ODT) is read in child processes of a pool of their own, each with the limits a
// hostile file needs: its heap is capped (--max-old-space-size), each read has a deadline from when its process
// starts it (past it the process is killed and another started for the next read), and every zip inflates under
// a byte cap (crawler/documents/read-text.ts). Processes, not worker threads: V8 ends the whole process, not the
// thread, when a worker thread runs out of heap in one large allocation (a big array, JSON.parse), so a thread's
// resourceLimits cannot keep a document from killing the crawl; a reader process that dies takes only its read
// with it, recorded as the document's error. The heap limit does not count Buffers and typed arrays (pdf.js
// decodes streams into them), so a reader's resident memory is also watched while it reads, and a reader
// past its memory limit is killed like one past its deadline. One pool serves the crawl runners of a worker process and the
// API's /v1/score and /v1/extract; it implements the engine's DocumentTextReader port.
import { type ChildProcess, fork } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { READABLE_DOCUMENT_TYPES } from '../../crawler/documents/read-text.js';
import type { DocumentTextReader } from '../../crawler/engine/ports.js';
import { residentMemory } from '../../crawler/render/process-memory.js';
import type { DocumentTaskOutcome, ReaderReply, ReaderRequest } from './document-tasks.js';

// The reader's entry beside this module, as .ts under tsx (tests, `npm run dev`) or .js from dist/ (`npm start`),
// as cpu-pool.ts finds its threads' module; the reader is forked with this process's loader flags (tsx's).
const READER_MODULE = fileURLToPath(
  new URL(`./document-reader${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/** A reader's own start (loading Node and the reader's modules) before it can take a read. */
const START_TIMEOUT_MS = 60_000;
/** A reader left idle this long ends: a process that reads no documents keeps none. */
const IDLE_TIMEOUT_MS = 60_000;
/** How often a reading process's resident memory is read (/proc/<pid>/status): a few µs a look. */
const MEMORY_CHECK_INTERVAL_MS = 50;
/** The end of a dead reader's stderr kept to say why it died (V8's "heap out of memory"). */
const STDERR_TAIL_CHARS = 4096;

export interface DocumentPoolOptions {
  /** Reader processes at most (DOCUMENT_POOL_THREADS). */
  processes: number;
  /** A read's deadline from when its process starts it, in ms (DOCUMENT_TIMEOUT_MS). */
  timeoutMs: number;
  /** Each reader's heap, in MiB (DOCUMENT_HEAP_MB): V8's old generation limit. */
  heapMb: number;
  /**
   * Each reader's resident memory while it reads, in MiB (DOCUMENT_MEMORY_MB): the heap and what it does not
   * count (Buffers, typed arrays, native allocations). Linux only; elsewhere the heap limit alone holds.
   */
  memoryMb: number;
  /** The most a zip document (DOCX, PPTX, ODT) may inflate to (DOCUMENT_MAX_UNCOMPRESSED_BYTES). */
  maxUncompressedBytes: number;
  /** A reader's fault outside any read: it did not start, or died while idle. */
  onError?: (error: unknown) => void;
  /** The reader's entry module; tests pass one that misbehaves on cue. */
  readerModule?: string;
}

/** One reader process: takes one read at a time. */
interface Reader {
  child: ChildProcess;
  busy: boolean;
  /** Set once the process has ended, with why (its exit code or signal, and V8's last words if any). */
  ended: string | null;
  stderrTail: string;
  idleTimer?: NodeJS.Timeout;
  /** Called when the process ends (the read in hand, or the wait for it to start). */
  onEnd?: (why: string, outOfMemory: boolean) => void;
  onReply?: (reply: ReaderReply) => void;
}

class PoolClosedError extends Error {
  constructor() {
    super('the document pool is closed');
  }
}

export class DocumentPool implements DocumentTextReader {
  private readonly readers = new Set<Reader>();
  /** Reads waiting for a reader, woken one at a time as readers free up or end. */
  private readonly waiting: Array<() => void> = [];
  private closed = false;
  private nextId = 1;
  /** Reads sent to reader processes, and reader processes started, in all (tests). */
  private counts = { reads: 0, processes: 0 };

  constructor(private readonly options: DocumentPoolOptions) {}

  reads(dataType: string): boolean {
    return READABLE_DOCUMENT_TYPES.has(dataType);
  }

  get processReads(): number {
    return this.counts.reads;
  }

  get processesStarted(): number {
    return this.counts.processes;
  }

  async read(
    dataType: string,
    body: Buffer,
    limits: { maxChars: number; signal?: AbortSignal },
  ): Promise<{ text: string; truncated: boolean } | { error: string }> {
    if (!this.reads(dataType)) return { error: `no reader for ${dataType} documents` };
    if (this.closed) throw new PoolClosedError();
    let reader: Reader;
    try {
      reader = await this.acquire(limits.signal);
    } catch (error) {
      if (error instanceof ReaderStartError) return { error: error.message };
      throw error;
    }
    this.counts.reads++;
    const request: ReaderRequest = {
      id: this.nextId++,
      dataType,
      bytes: body,
      maxChars: limits.maxChars,
      maxUncompressedBytes: this.options.maxUncompressedBytes,
    };
    return await this.run(reader, request, limits.signal);
  }

  /** Ends the readers; a read still running is abandoned (it throws). */
  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.all([...this.readers].map((reader) => this.end(reader)));
  }

  /** A free reader (started if there are fewer than `processes`), marked busy; waits while all are busy. */
  private async acquire(signal: AbortSignal | undefined): Promise<Reader> {
    for (;;) {
      signal?.throwIfAborted();
      if (this.closed) throw new PoolClosedError();
      const idle = [...this.readers].find((reader) => !reader.busy && reader.ended === null);
      if (idle) {
        this.hold(idle);
        return idle;
      }
      if (this.readers.size < this.options.processes) return await this.start(signal);
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          this.waiting.splice(this.waiting.indexOf(wake), 1);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(wake);
      });
    }
  }

  /** Forks a reader, busy from the start, and waits for it to say it is ready. */
  private start(signal: AbortSignal | undefined): Promise<Reader> {
    const { heapMb } = this.options;
    const child = fork(this.options.readerModule ?? READER_MODULE, [], {
      execArgv: [...loaderArgs(process.execArgv), `--max-old-space-size=${heapMb}`],
      // Buffers cross as bytes, not as JSON arrays of numbers
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.counts.processes++;
    const reader: Reader = { child, busy: true, ended: null, stderrTail: '' };
    this.readers.add(reader);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      reader.stderrTail = (reader.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.on('message', (reply: ReaderReply) => reader.onReply?.(reply));
    child.on('error', () => {}); // a failed fork or kill also ends in 'close', which says what happened
    child.on('close', (code, exitSignal) => {
      const outOfMemory = /heap out of memory/i.test(reader.stderrTail);
      reader.ended = exitSignal ? `signal ${exitSignal}` : `exit code ${code}`;
      clearTimeout(reader.idleTimer);
      this.readers.delete(reader);
      if (reader.onEnd) reader.onEnd(reader.ended, outOfMemory);
      // one the pool did not kill (past a deadline, idle, on close) died on its own
      else if (!child.killed)
        this.options.onError?.(new Error(`an idle document reader ended (${reader.ended})`));
      this.waiting.shift()?.();
    });
    return new Promise<Reader>((resolve, reject) => {
      const settle = (error?: Error) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reader.onReply = undefined;
        reader.onEnd = undefined;
        if (!error) return resolve(reader);
        void this.end(reader);
        reject(error);
      };
      const timer = setTimeout(
        () => settle(new ReaderStartError(`the document reader did not start in ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
      const onAbort = () => settle(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      reader.onReply = (reply) => {
        if ('ready' in reply) settle();
      };
      reader.onEnd = (why) => {
        if (this.closed) return settle(new PoolClosedError());
        const error = new ReaderStartError(`the document reader did not start (${why})`);
        this.options.onError?.(Object.assign(error, { stderr: reader.stderrTail }));
        settle(error);
      };
    });
  }

  /** One read on a reader that holds none: its outcome, or the error that ended it (deadline, heap, a fault). */
  private run(
    reader: Reader,
    request: ReaderRequest,
    signal: AbortSignal | undefined,
  ): Promise<DocumentTaskOutcome> {
    const { timeoutMs, heapMb, memoryMb } = this.options;
    return new Promise<DocumentTaskOutcome>((resolve, reject) => {
      const settle = (outcome: DocumentTaskOutcome | { thrown: unknown }) => {
        clearTimeout(timer);
        clearInterval(memoryCheck);
        signal?.removeEventListener('abort', onAbort);
        reader.onReply = undefined;
        reader.onEnd = undefined;
        if ('thrown' in outcome) reject(outcome.thrown);
        else resolve(outcome);
      };
      // the process is free when the read is sent: the deadline counts from its start
      const timer = setTimeout(() => {
        settle({ error: `reading the document took longer than ${timeoutMs} ms` });
        void this.end(reader);
      }, timeoutMs);
      const onAbort = () => {
        settle({ thrown: signal?.reason });
        void this.end(reader);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      let overMemory = false;
      const memoryCheck = setInterval(() => {
        const pid = reader.child.pid;
        if (overMemory || pid === undefined) return;
        const bytes = residentMemory(pid)?.rssBytes ?? null;
        if (bytes === null || bytes <= memoryMb * 1024 * 1024) return;
        overMemory = true;
        void this.end(reader);
      }, MEMORY_CHECK_INTERVAL_MS);
      memoryCheck.unref();
      reader.onReply = (reply) => {
        if (!('id' in reply) || reply.id !== request.id) return;
        settle(reply.outcome);
        this.release(reader);
      };
      reader.onEnd = (why, outOfMemory) => {
        // the reader died under the document (its heap, a native fault): the document's fault
        if (this.closed) settle({ thrown: new PoolClosedError() });
        else if (overMemory)
          settle({ error: `reading the document took more than ${memoryMb} MiB of resident memory` });
        else if (outOfMemory)
          settle({ error: `reading the document took more than ${heapMb} MiB of memory` });
        else settle({ error: `reading the document ended its reader process (${why})` });
      };
      reader.child.send(request, (error) => {
        // the process went before the read reached it: 'close' follows and settles the read
        if (error) void this.end(reader);
      });
    });
  }

  /** Marks a reader busy: it holds the pool's process open until the read's outcome is in. */
  private hold(reader: Reader): void {
    reader.busy = true;
    clearTimeout(reader.idleTimer);
    refer(reader.child, true);
  }

  /** A reader back in the pool: the next waiting read takes it, or it ends after a while idle. */
  private release(reader: Reader): void {
    reader.busy = false;
    // idle, it keeps no process alive
    refer(reader.child, false);
    reader.idleTimer = setTimeout(() => void this.end(reader), IDLE_TIMEOUT_MS);
    reader.idleTimer.unref();
    this.waiting.shift()?.();
  }

  /** Kills a reader and waits for it to be gone ('close' removes it from the pool). */
  private async end(reader: Reader): Promise<void> {
    if (reader.ended !== null) return;
    const closed = new Promise<void>((resolve) => reader.child.once('close', () => resolve()));
    // an idle reader holds nothing open: its end, awaited, must
    refer(reader.child, true);
    reader.child.kill('SIGKILL');
    await closed;
  }
}

/** Whether a reader's process, its IPC channel and its stderr pipe keep this process alive. */
function refer(child: ChildProcess, held: boolean): void {
  const channel = child.channel as { ref?: () => void; unref?: () => void } | null | undefined;
  const stderr = child.stderr as (NodeJS.ReadableStream & { ref?: () => void; unref?: () => void }) | null;
  if (held) {
    child.ref();
    channel?.ref?.();
    stderr?.ref?.();
  } else {
    child.unref();
    channel?.unref?.();
    stderr?.unref?.();
  }
}

/** A reader that could not start: the read it was for is recorded with this as its error. */
class ReaderStartError extends Error {}

/**
 * The flags a reader keeps from this process's: its loaders (tsx's --import), not the test runner's, an
 * inspector's port or this process's heap limit.
 */
function loaderArgs(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    if (/^--(test|inspect|debug|watch|max-old-space-size)/.test(arg)) {
      // a flag's value may be the next argument
      if (!arg.includes('=') && execArgv[i + 1] !== undefined && !execArgv[i + 1]!.startsWith('-')) i++;
      continue;
    }
    kept.push(arg);
  }
  return kept;
}
