// Every handler the renderer gives Playwright (route handlers, page, context and browser events) runs through
// guarded(). Playwright calls handlers from its connection's dispatch, where nobody awaits them: a throw or a
// rejected promise there is an uncaught exception, and a page's scripts (a popup, a download, a frame removed
// while it loads) can make a handler throw. Guarded, the fault goes to the render instead: the page is
// recorded with it (render-failed), and the process goes on.

/** Where a fault goes: the render it belongs to, or the log for a browser's own events. */
export type FaultSink = (where: string, error: unknown) => void;

/** An error's first line (Playwright's messages go on with call logs and hints). */
export function firstLineOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

/** `handler`, made safe to give Playwright: it never throws nor rejects; a fault goes to `sink`. */
export function guarded<Args extends unknown[]>(
  where: string,
  sink: FaultSink,
  handler: (...args: Args) => unknown,
): (...args: Args) => Promise<void> {
  return async (...args: Args) => {
    try {
      await handler(...args);
    } catch (error) {
      try {
        sink(where, error);
      } catch {
        // a sink that throws has nowhere left to report to: the process must still go on
      }
    }
  };
}

/**
 * The faults of one render's handlers: the first one in words, and `faulted`, which resolves when it happens,
 * so the render ends then as failed instead of waiting out its deadline.
 */
export class HandlerFaults {
  #problem: string | null = null;
  #resolve!: (problem: { problem: string }) => void;
  readonly faulted = new Promise<{ problem: string }>((resolve) => {
    this.#resolve = resolve;
  });

  /** The first fault, in words (null: none). */
  get problem(): string | null {
    return this.#problem;
  }

  /** The sink to give guarded() for this render's handlers. */
  readonly sink: FaultSink = (where, error) => {
    if (this.#problem !== null) return;
    this.#problem = `render failed: the ${where} handler threw: ${firstLineOf(error)}`;
    this.#resolve({ problem: this.#problem });
  };
}
