// A Map that holds at most `capacity` entries and forgets the least recently used first: the one bound for
// every in-process memo (scope verdicts, canonical link forms, loaded corpora, finished crawls' status), so a
// long-lived worker or API process keeps a fixed footprint whatever it has seen.
//
// Entries sit in a doubly linked list, most recently used first, beside a Map from key to entry: a hit moves
// its entry to the front by relinking it, where re-inserting it into the Map (delete then set) would hash
// the key twice and leave the Map a deleted slot to compact on every hit of a hot path.

interface Entry<K, V> {
  key: K;
  value: V;
  newer: Entry<K, V> | null;
  older: Entry<K, V> | null;
}

export class LruMap<K, V> {
  readonly #entries = new Map<K, Entry<K, V>>();
  #newest: Entry<K, V> | null = null;
  #oldest: Entry<K, V> | null = null;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value, marked most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#touch(entry);
    return entry.value;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  set(key: K, value: V): this {
    const known = this.#entries.get(key);
    if (known !== undefined) {
      known.value = value;
      this.#touch(known);
      return this;
    }
    const entry: Entry<K, V> = { key, value, newer: null, older: this.#newest };
    if (this.#newest) this.#newest.newer = entry;
    this.#newest = entry;
    this.#oldest ??= entry;
    this.#entries.set(key, entry);
    if (this.#entries.size > this.capacity && this.#oldest) this.delete(this.#oldest.key);
    return this;
  }

  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#unlink(entry);
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#newest = null;
    this.#oldest = null;
  }

  /** Moves an entry to the most recently used end. */
  #touch(entry: Entry<K, V>): void {
    if (entry === this.#newest) return;
    this.#unlink(entry);
    entry.older = this.#newest;
    entry.newer = null;
    if (this.#newest) this.#newest.newer = entry;
    this.#newest = entry;
    this.#oldest ??= entry;
  }

  #unlink(entry: Entry<K, V>): void {
    if (entry.newer) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    if (entry.older) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    entry.newer = null;
    entry.older = null;
  }
}
