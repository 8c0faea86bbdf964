// eventually(): the one way a test waits for something another process, thread or timer will do. It polls a
// check until it gives a truthy value (and does not throw), with a deadline: a test never hangs, and when the
// deadline passes it fails saying what it waited for and what it saw last, instead of timing out mute.
import { inspect } from 'node:util';

export interface EventuallyOptions {
  /** What is awaited, for the failure message ("crawl 12 to end"). */
  message: string;
  /** How long to keep trying. Deadlines are generous (the CI box is loaded): several times the usual wait. */
  timeoutMs?: number;
  /** The pause between two checks. */
  intervalMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_INTERVAL_MS = 50;

/** Thrown when the deadline passes; `lastValue`/`cause` hold what the check gave or threw last. */
export class EventuallyTimeout extends Error {
  constructor(
    message: string,
    readonly lastValue: unknown,
    cause: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'EventuallyTimeout';
  }
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `check` until it returns (or resolves to) a truthy value, then returns that value. A check that
 * throws (an assertion not yet true) is tried again. After `timeoutMs` it throws an EventuallyTimeout naming
 * `message`, the last value seen and the last error thrown. A check that itself hangs is cut off at the
 * deadline too. Checks that must fail at once (a crawl that failed while we wait for it to progress) return
 * the state instead, and the caller asserts on it.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { message, timeoutMs = DEFAULT_TIMEOUT_MS, intervalMs = DEFAULT_INTERVAL_MS }: EventuallyOptions,
): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let lastValue: unknown;
  let lastError: unknown;
  let attempts = 0;
  for (;;) {
    attempts++;
    lastError = undefined;
    let timer: NodeJS.Timeout | undefined;
    const cutOff = Symbol('deadline');
    try {
      const outcome = await Promise.race([
        Promise.resolve().then(check),
        new Promise<typeof cutOff>((resolve) => {
          timer = setTimeout(() => resolve(cutOff), Math.max(0, deadline - Date.now()));
        }),
      ]);
      if (outcome === cutOff) {
        lastError = new Error(`the check was still running at the deadline (attempt ${attempts})`);
      } else {
        lastValue = outcome;
        if (outcome) return outcome as Exclude<T, false | 0 | '' | null | undefined>;
      }
    } catch (error) {
      lastError = error;
    } finally {
      clearTimeout(timer);
    }
    if (Date.now() >= deadline) {
      const seen =
        lastError === undefined
          ? `last value: ${inspect(lastValue, { depth: 4, breakLength: Number.POSITIVE_INFINITY })}`
          : `last error: ${lastError instanceof Error ? lastError.message : inspect(lastError)}`;
      throw new EventuallyTimeout(
        `timed out after ${Date.now() - started} ms (${attempts} checks) waiting for ${message}; ${seen}`,
        lastValue,
        lastError,
      );
    }
    await pause(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}
