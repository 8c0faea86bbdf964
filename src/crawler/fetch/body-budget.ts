// A process-wide budget of response-body bytes held in memory at once. A crawl page takes a hold, its body
// reader grows the hold as bytes arrive (by the whole Content-Length at once when the server announces it),
// and the page gives it back once it is parsed and stored. Without it, maxBytes × concurrency has no bound:
// a few huge pages at once take a worker out of V8's heap, and the worker that retakes them dies too.
//
// A body that does not fit waits, its socket paused (TCP pushes back on the server), until other pages give
// bytes back; waiters are served first come, first served, so a big body is not starved by small ones. A wait
// never deadlocks: when every page holding bytes is itself waiting for more, nobody would give any back, so
// the waiting page holding the most is cut where it is (its body marked truncated), and the bytes it frees
// once stored let the others go on.

interface Waiter {
  hold: BudgetHold;
  bytes: number;
  settle: (granted: boolean) => void;
}

export class BodyBudget {
  readonly totalBytes: number;
  #usedBytes = 0;
  /** Holds with bytes granted, whether or not they are waiting for more. */
  readonly #holders = new Set<BudgetHold>();
  readonly #waiters: Waiter[] = [];

  constructor(totalBytes: number) {
    if (!Number.isSafeInteger(totalBytes) || totalBytes < 1) {
      throw new RangeError(`a body budget needs a positive whole number of bytes, got ${totalBytes}`);
    }
    this.totalBytes = totalBytes;
  }

  get usedBytes(): number {
    return this.#usedBytes;
  }

  /** Pages waiting for bytes. */
  get waiting(): number {
    return this.#waiters.length;
  }

  /** A hold for one page's body: empty until grown, released once the page is done with its body. */
  hold(): BudgetHold {
    return new BudgetHold(this);
  }

  /** @internal BudgetHold's side: resolves true when granted, false when the hold must stop growing. */
  request(hold: BudgetHold, bytes: number, signal?: AbortSignal): Promise<boolean> {
    if (hold.heldBytes + bytes > this.totalBytes) return Promise.resolve(false);
    if (this.#waiters.length === 0 && this.#usedBytes + bytes <= this.totalBytes) {
      this.#grant(hold, bytes);
      return Promise.resolve(true);
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<boolean>((resolve, reject) => {
      const onAbort = () => {
        const index = this.#waiters.indexOf(waiter);
        if (index !== -1) this.#waiters.splice(index, 1);
        hold.waiting = false;
        reject(signal?.reason);
        this.#serve();
      };
      const waiter: Waiter = {
        hold,
        bytes,
        settle: (granted) => {
          signal?.removeEventListener('abort', onAbort);
          hold.waiting = false;
          resolve(granted);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      hold.waiting = true;
      this.#waiters.push(waiter);
      this.#serve();
    });
  }

  /** @internal */
  give(hold: BudgetHold, bytes: number): void {
    const given = Math.min(bytes, hold.heldBytes);
    if (given <= 0) return;
    hold.heldBytes -= given;
    this.#usedBytes -= given;
    if (hold.heldBytes === 0) this.#holders.delete(hold);
    this.#serve();
  }

  #grant(hold: BudgetHold, bytes: number): void {
    hold.heldBytes += bytes;
    this.#usedBytes += bytes;
    if (hold.heldBytes > 0) this.#holders.add(hold);
  }

  #serve(): void {
    for (;;) {
      const head = this.#waiters[0];
      if (head === undefined) return;
      if (this.#usedBytes + head.bytes <= this.totalBytes) {
        this.#waiters.shift();
        this.#grant(head.hold, head.bytes);
        head.settle(true);
        continue;
      }
      // Someone holding bytes is not waiting (reading, parsing, storing): it will give them back.
      for (const holder of this.#holders) if (!holder.waiting) return;
      // Every holder waits: cut the one holding most, which frees the most once its page is stored.
      let victim: Waiter | undefined;
      for (const waiter of this.#waiters) {
        if (waiter.hold.heldBytes > (victim?.hold.heldBytes ?? 0)) victim = waiter;
      }
      // Holders exist only among waiters here, so a victim exists; guard against a broken invariant anyway.
      if (victim === undefined) return;
      this.#waiters.splice(this.#waiters.indexOf(victim), 1);
      victim.settle(false);
      return;
    }
  }
}

export class BudgetHold {
  heldBytes = 0;
  /** @internal Waiting for bytes (set by the budget). */
  waiting = false;
  readonly #budget: BodyBudget;

  constructor(budget: BodyBudget) {
    this.#budget = budget;
  }

  get budgetBytes(): number {
    return this.#budget.totalBytes;
  }

  /**
   * `bytes` more, waiting as long as it takes (the signal ends the wait: rejects with its reason). false: the
   * bytes cannot be had, now or ever (the hold would pass the whole budget, or waiting would deadlock), so the
   * body must stop growing here.
   */
  grow(bytes: number, signal?: AbortSignal): Promise<boolean> {
    if (bytes <= 0) return Promise.resolve(true);
    return this.#budget.request(this, bytes, signal);
  }

  /** Gives back what is held beyond `bytes` (a body that ended short of what was asked for). */
  shrinkTo(bytes: number): void {
    this.#budget.give(this, this.heldBytes - Math.max(0, bytes));
  }

  /** Gives everything back; the hold may be grown again afterwards. */
  release(): void {
    this.#budget.give(this, this.heldBytes);
  }
}
