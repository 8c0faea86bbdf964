// Group commit for a write made once per item (a crawled page's outcome): while a write is in flight, the
// items that arrive wait and are then written together, in arrival order, by one statement. An item that
// finds the writer idle is written at once, alone, so a slow crawl waits for nothing; a fast one pays a
// statement's fixed costs (its commit, the executor's start, statement triggers) once per batch. A batch
// that fails is written again item by item, so one bad row fails only its own item. A write may answer each
// item (what the statement returned for it): writeMany answers in the items' order.

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

export interface GroupWriterOptions<Item, Result = void> {
  /**
   * Writes several items in one statement, in the order given; throws if any of them fails. Answers each item
   * in that order (a writer whose Result is void answers nothing).
   */
  writeMany: (items: Item[]) => Promise<Result[]> | Promise<void>;
  /** Writes one item alone: for a lone item, and for each item of a batch that failed. */
  writeOne: (item: Item) => Promise<Result>;
  /** The most items one statement carries (their parameters grow with it). */
  maxItems: number;
  /**
   * An item's bytes, and the most bytes one statement carries: a batch stops short of them, but always takes
   * its first item. Absent: only maxItems bounds a batch.
   */
  itemBytes?: (item: Item) => number;
  maxBytes?: number;
  /** Statements in flight at once: more than one keeps a write from waiting on another's commit. */
  maxInFlight: number;
  /** A batch failed and its items were written one by one (for the log). */
  onBatchFailed?: (error: unknown, items: number) => void;
}

export class GroupWriter<Item, Result = void> {
  readonly #options: GroupWriterOptions<Item, Result>;
  readonly #waiting: Waiting<Item, Result>[] = [];
  #inFlight = 0;

  constructor(options: GroupWriterOptions<Item, Result>) {
    this.#options = options;
  }

  /** Resolves once the item is written (committed), with its answer; rejects with its own failure. */
  write(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      this.#startWrites();
    });
  }

  #startWrites(): void {
    while (this.#inFlight < this.#options.maxInFlight && this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, this.#batchLength());
      this.#inFlight++;
      void this.#writeBatch(batch).finally(() => {
        this.#inFlight--;
        this.#startWrites();
      });
    }
  }

  /** How many of the waiting items the next batch takes. */
  #batchLength(): number {
    const { itemBytes, maxBytes, maxItems } = this.#options;
    const most = Math.min(maxItems, this.#waiting.length);
    if (!itemBytes || maxBytes === undefined) return most;
    let bytes = itemBytes(this.#waiting[0]!.item);
    let length = 1;
    while (length < most) {
      bytes += itemBytes(this.#waiting[length]!.item);
      if (bytes > maxBytes) break;
      length++;
    }
    return length;
  }

  async #writeBatch(batch: Waiting<Item, Result>[]): Promise<void> {
    if (batch.length > 1) {
      try {
        const results = (await this.#options.writeMany(batch.map((waiting) => waiting.item))) as
          | Result[]
          | undefined;
        for (const [index, waiting] of batch.entries()) waiting.resolve(results?.[index] as Result);
        return;
      } catch (error) {
        this.#options.onBatchFailed?.(error, batch.length);
      }
    }
    // one at a time and in order, so what depends on the order (results counted up to maxResults) holds
    for (const waiting of batch) {
      try {
        waiting.resolve(await this.#options.writeOne(waiting.item));
      } catch (error) {
        waiting.reject(error);
      }
    }
  }
}
