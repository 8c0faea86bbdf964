// The API's CPU-bound work (cpu-tasks.ts: parsing, extraction, scoring) off its event loop: a small piscina
// worker-thread pool, so /healthz and status reads answer while a 5 MB document is scored or extracted.
// Small input runs inline, where a thread's round trip would cost more than the work. Every pooled task has a
// deadline: past it the thread running it is stopped (piscina terminates it and starts another), so no input
// can hold a thread forever.
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { TrawlError } from '../../errors.js';
import {
  type CpuTaskName,
  type CpuTasks,
  runTask,
  type TaskMessage,
  type TaskOutcome,
  taskChars,
  threadInput,
  threadTransfer,
} from './cpu-tasks.js';

/**
 * Input of at most this many characters runs inline. Up to this size, extraction and keyword scoring of HTML
 * cost less CPU than a thread's round trip with the input cloned both ways, even on a busy machine
 * (bench/eventloop.ts prints both from 8 to 64 KiB): below it the pool would only add latency, and the event
 * loop is never held for long.
 */
export const INLINE_MAX_CHARS = 64 * 1024;

/**
 * Tasks that may wait for a thread, per thread. A task takes up to seconds, so a longer queue would only wait
 * into its deadline: past it the request is a 503 at once. Counted here: piscina's maxQueue does not count
 * tasks that carry an abort signal, as all of ours do.
 */
const MAX_QUEUED_PER_THREAD = 8;

// The tasks module beside this one, as .ts under tsx (tests, `npm run dev`) or .js from dist/ (`npm start`):
// threads inherit the process's execArgv, so tsx's loader is registered in them too. Threads start from
// cpu-thread.cjs, which imports it (that file says why).
const TASKS_FILE = fileURLToPath(
  new URL(`./cpu-tasks${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);
const THREAD_ENTRY = fileURLToPath(new URL('./cpu-thread.cjs', import.meta.url));

export interface CpuPoolOptions {
  /** Worker threads; 0 runs every task inline on the event loop (CPU_POOL_THREADS). */
  threads: number;
  /** A pooled task's deadline from submission, in ms (CPU_TASK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Default INLINE_MAX_CHARS. */
  inlineMaxChars?: number;
  /**
   * A thread's heap (V8's old generation) in MiB (CPU_POOL_HEAP_MB): past it the thread is stopped and
   * replaced, and its task is a 422 on its field, instead of the process running out of memory.
   */
  heapMb?: number;
  /** A thread's fault outside any task (piscina's 'error' event). */
  onError?: (error: unknown) => void;
}

export class CpuPool {
  private pool: Piscina | null = null;
  private closed = false;
  private readonly inlineMaxChars: number;
  /** Tasks handed to a thread and not yet settled; tasks sent to threads in all (tests, the benchmark). */
  private threadTasks = { pending: 0, total: 0 };
  /** The pending tasks the queue's bound counts: not those of callers that bound their own (`throughput`). */
  private boundedPending = 0;

  constructor(private readonly options: CpuPoolOptions) {
    this.inlineMaxChars = options.inlineMaxChars ?? INLINE_MAX_CHARS;
  }

  /**
   * Runs task `name` and returns its value; its InputErrors and other TrawlErrors are thrown here as they
   * were thrown there. Past the deadline: a 422 on `field` when the task was running (its input costs too
   * much to process), a 503 when it was still waiting for a thread (the pool is busy). The deadline is the
   * pool's (CPU_TASK_TIMEOUT_MS) unless `timeoutMs` gives a task its own (a job's, not a request's).
   * A `throughput` task is not counted by the queue's bound, for a caller that bounds its own tasks in flight (a
   * crawl's pages) and would rather wait for a thread than be refused; `inlineMaxChars` is the most it runs
   * inline, when the pool's own INLINE_MAX_CHARS does not fit the caller's trade of latency for throughput.
   */
  async run<N extends CpuTaskName>(
    name: N,
    input: Parameters<CpuTasks[N]>[0],
    field: string,
    {
      timeoutMs = this.options.timeoutMs,
      throughput = false,
      inlineMaxChars = this.inlineMaxChars,
    }: { timeoutMs?: number; throughput?: boolean; inlineMaxChars?: number } = {},
  ): Promise<ReturnType<CpuTasks[N]>> {
    const outcome =
      this.options.threads === 0 || taskChars(name, input) <= inlineMaxChars
        ? runTask({ name, input })
        : await this.onThread(name, input, field, timeoutMs, throughput);
    if ('fault' in outcome) {
      const { code, message, field: faultField, detail } = outcome.fault;
      throw new TrawlError(code, message, {
        ...(faultField !== undefined ? { field: faultField } : {}),
        ...(detail !== undefined ? { detail } : {}),
      });
    }
    return outcome.value;
  }

  private threads(): Piscina {
    if (this.closed) throw new TrawlError('unavailable', 'the service is shutting down');
    if (!this.pool) {
      // Started at the first pooled task (a process that never gets a large one has no threads), then kept:
      // a thread takes about a second to start under tsx, longer than most tasks.
      this.pool = new Piscina({
        filename: THREAD_ENTRY,
        workerData: { tasksFile: TASKS_FILE },
        minThreads: this.options.threads,
        maxThreads: this.options.threads,
        ...(this.options.heapMb !== undefined
          ? { resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb } }
          : {}),
      });
      this.pool.on('error', (error: unknown) => this.options.onError?.(error));
    }
    return this.pool;
  }

  private async onThread<N extends CpuTaskName>(
    name: N,
    input: Parameters<CpuTasks[N]>[0],
    field: string,
    timeoutMs: number,
    unbounded: boolean,
  ): Promise<TaskOutcome<N>> {
    const pool = this.threads();
    const { threads } = this.options;
    if (!unbounded && this.boundedPending >= threads * (1 + MAX_QUEUED_PER_THREAD)) {
      throw new TrawlError('unavailable', 'every CPU worker thread is busy and the queue is full');
    }
    const started = new Int32Array(new SharedArrayBuffer(4));
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const message: TaskMessage<N> = { name, input: threadInput(name, input), started };
    this.threadTasks.pending++;
    this.threadTasks.total++;
    if (!unbounded) this.boundedPending++;
    try {
      return (await pool.run(message, {
        signal: deadline.signal,
        transferList: threadTransfer(name, input),
      })) as TaskOutcome<N>;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new TrawlError(
          'unprocessable',
          `processing this input needed more than ${this.options.heapMb} MiB of memory`,
          { field, detail: { heapMb: this.options.heapMb }, cause: error },
        );
      }
      if (deadline.signal.aborted && Atomics.load(started, 0) === 1) {
        throw new TrawlError('unprocessable', `processing this input took longer than ${timeoutMs} ms`, {
          field,
          detail: { timeoutMs },
          cause: error,
        });
      }
      if (deadline.signal.aborted) {
        throw new TrawlError('unavailable', 'every CPU worker thread was busy until the deadline', {
          cause: error,
        });
      }
      if (this.closed) throw new TrawlError('unavailable', 'the service is shutting down', { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
      this.threadTasks.pending--;
      if (!unbounded) this.boundedPending--;
    }
  }

  /** A pooled task's deadline when run() is not given one (CPU_TASK_TIMEOUT_MS). */
  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  get tasksOnThreads(): { pending: number; total: number } {
    return { ...this.threadTasks };
  }

  /** Stops the threads; a task still running is abandoned (the HTTP server has closed before this). */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
    this.pool = null;
  }
}
