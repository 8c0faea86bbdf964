// The frontier's ordering (docs/reference.md#weighted-queue): highest weight first, ties in insertion order, so equal weights
// give exact FIFO and breadth-first search is the special case. A key already queued keeps its first weight;
// a key once visited (extracted or marked) is never queued again. Binary max-heap on (weight desc, seq asc).
// addOrRaise is trawl's departure for a topic crawl capped by pages fetched: a queued key takes a higher weight.

interface Entry<K> {
  readonly key: K;
  /** Fixed by add(); only addOrRaise raises it. */
  weight: number;
  /** Insertion counter: the tie-break that makes equal weights FIFO. */
  readonly seq: number;
  /** Current position in the heap array, kept so markVisited can remove a queued key in O(log n). */
  index: number;
}

export interface WeightedItem<K> {
  key: K;
  weight: number;
}

export class WeightedQueue<K> {
  readonly #heap: Entry<K>[] = [];
  readonly #queued = new Map<K, Entry<K>>();
  readonly #visited = new Set<K>();
  #nextSeq = 0;

  /**
   * Queues `key` with `weight` unless it is already queued (the first weight stays) or was visited.
   * Returns whether the key was queued by this call. Weights may be ±Infinity but not NaN, which has no order.
   */
  add(key: K, weight: number): boolean {
    if (Number.isNaN(weight)) throw new RangeError('WeightedQueue.add: weight is NaN');
    if (this.#visited.has(key) || this.#queued.has(key)) return false;
    const entry: Entry<K> = { key, weight, seq: this.#nextSeq++, index: this.#heap.length };
    this.#heap.push(entry);
    this.#queued.set(key, entry);
    this.#siftUp(entry.index);
    return true;
  }

  /**
   * add(), except that a key already queued with a lower weight takes `weight`, so a queued key holds the
   * highest weight it was offered (docs/reference.md#topic-weights, cap "fetched"). It keeps its insertion
   * counter: among equal weights it stays where it was first added. A lower or equal weight changes nothing, and
   * a visited key is never queued again. Returns whether the key was queued or raised by this call.
   */
  addOrRaise(key: K, weight: number): boolean {
    if (Number.isNaN(weight)) throw new RangeError('WeightedQueue.addOrRaise: weight is NaN');
    const entry = this.#queued.get(key);
    if (entry === undefined) return this.add(key, weight);
    if (weight <= entry.weight) return false;
    entry.weight = weight;
    this.#siftUp(entry.index);
    return true;
  }

  /** Removes and returns the highest-weight element (earliest added among equals); its key becomes visited. */
  extract(): WeightedItem<K> | undefined {
    const top = this.#heap[0];
    if (top === undefined) return undefined;
    this.#removeAt(0);
    this.#visited.add(top.key);
    return { key: top.key, weight: top.weight };
  }

  /** The element extract() would return next, without removing it. */
  peek(): WeightedItem<K> | undefined {
    const top = this.#heap[0];
    return top === undefined ? undefined : { key: top.key, weight: top.weight };
  }

  /** Whether `key` is queued now (not whether it was ever seen; see isVisited). */
  has(key: K): boolean {
    return this.#queued.has(key);
  }

  isVisited(key: K): boolean {
    return this.#visited.has(key);
  }

  /**
   * Closes `key` (e.g. reached through a redirect, or restored from storage). A queued key is removed from the
   * queue too: it was visited, so fetching it again would break the closed-set rule.
   */
  markVisited(key: K): void {
    this.#visited.add(key);
    const entry = this.#queued.get(key);
    if (entry !== undefined) this.#removeAt(entry.index);
  }

  /** Number of queued elements (visited keys are not counted). */
  get size(): number {
    return this.#heap.length;
  }

  get visitedCount(): number {
    return this.#visited.size;
  }

  /** True when a should leave the heap before b. */
  #before(a: Entry<K>, b: Entry<K>): boolean {
    return a.weight > b.weight || (a.weight === b.weight && a.seq < b.seq);
  }

  #removeAt(index: number): void {
    const heap = this.#heap;
    const removed = heap[index]!;
    this.#queued.delete(removed.key);
    const last = heap.pop()!;
    if (index === heap.length) return; // removed the last slot
    heap[index] = last;
    last.index = index;
    // The moved entry may belong above or below its new slot.
    this.#siftUp(index);
    this.#siftDown(last.index);
  }

  #siftUp(start: number): void {
    const heap = this.#heap;
    const entry = heap[start]!;
    let index = start;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex]!;
      if (!this.#before(entry, parent)) break;
      heap[index] = parent;
      parent.index = index;
      index = parentIndex;
    }
    heap[index] = entry;
    entry.index = index;
  }

  #siftDown(start: number): void {
    const heap = this.#heap;
    const length = heap.length;
    const entry = heap[start]!;
    let index = start;
    for (;;) {
      const leftIndex = 2 * index + 1;
      if (leftIndex >= length) break;
      const rightIndex = leftIndex + 1;
      let childIndex = leftIndex;
      if (rightIndex < length && this.#before(heap[rightIndex]!, heap[leftIndex]!)) childIndex = rightIndex;
      const child = heap[childIndex]!;
      if (!this.#before(child, entry)) break;
      heap[index] = child;
      child.index = index;
      index = childIndex;
    }
    heap[index] = entry;
    entry.index = index;
  }
}
