// Vertex-name interning for GraphBuilder: names become dense ids through an open-addressing hash table kept in
// an Int32Array, so a million names cost no JS object each in the table. Names are held either as JS strings
// (a graph built name by name) or as UTF-8 bytes in one growing arena (an edges file read straight from its
// bytes: a name is looked up inside the chunk it arrived in, and decoded to a string once, when the graph is built).

import { InputError } from '../../errors.js';

/** The names of a graph's vertices as GraphBuilder needs them: intern while building, then freeze. */
export interface VertexNameTable {
  /** Names interned so far; ids are 0 … size − 1 in order of first appearance. */
  readonly size: number;
  /** Interns a name given as a string and returns its id. */
  internString(name: string): number;
  /** The name of an interned vertex (for messages). */
  nameOf(id: number): string;
  /** Every name by id, as strings; interning ends here (the table keeps answering indexOf). */
  freeze(): string[];
  indexOf(name: string): number | undefined;
}

const EMPTY = -1;
const INITIAL_SLOTS = 2048;

/** The InputError of a graph with more vertices than a limit allows (one wording for every way in). */
export function tooManyVertices(maxVertices: number): InputError {
  return new InputError(`graph has more than ${maxVertices} vertices`, 'graph', { maxVertices });
}

/** Names as JS strings: for graphs built name by name (JSON edges, a crawl's pages, tests). */
export class StringNameTable implements VertexNameTable {
  readonly #names: string[] = [];
  // [2 * slot] = vertex id or EMPTY, [2 * slot + 1] = the name's hash; load kept ≤ 0.5.
  #slots = new Int32Array(2 * INITIAL_SLOTS).fill(EMPTY);

  get size(): number {
    return this.#names.length;
  }

  internString(name: string): number {
    const hash = hashString(name);
    const slot = this.#find(name, hash);
    const known = this.#slots[2 * slot]!;
    if (known !== EMPTY) return known;
    const id = this.#names.length;
    this.#names.push(name);
    this.#slots[2 * slot] = id;
    this.#slots[2 * slot + 1] = hash;
    if (4 * this.#names.length > this.#slots.length) this.#slots = rehash(this.#slots, 2);
    return id;
  }

  nameOf(id: number): string {
    return this.#names[id]!;
  }

  freeze(): string[] {
    return this.#names;
  }

  indexOf(name: string): number | undefined {
    const id = this.#slots[2 * this.#find(name, hashString(name))]!;
    return id === EMPTY ? undefined : id;
  }

  // The slot holding the id of `name`, or the free slot where it belongs.
  #find(name: string, hash: number): number {
    const slots = this.#slots;
    const mask = (slots.length >> 1) - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = slots[2 * slot]!;
      if (id === EMPTY) return slot;
      if (slots[2 * slot + 1] === hash && this.#names[id] === name) return slot;
    }
  }
}

// Utf8NameTable slots: 4 int32 per slot, so that a lookup that finds its name reads one slot and the name's
// bytes, and nothing else (the id → offset array is not on the lookup path).
const SLOT_ID = 0;
const SLOT_HASH = 1;
const SLOT_START = 2;
const SLOT_LENGTH = 3;
const SLOT_WIDTH = 4;

/**
 * Names as UTF-8 bytes: internBytes(source, start, end) looks up the name source[start, end) without making a
 * string of it, and copies its bytes into the arena only when it is new. Two names are the same vertex when
 * their bytes are equal; the parser hands over valid UTF-8 only, so that is when their strings are equal.
 */
export class Utf8NameTable implements VertexNameTable {
  #size = 0;
  #slots = new Int32Array(SLOT_WIDTH * INITIAL_SLOTS).fill(EMPTY);
  #arena = new Uint8Array(64 * 1024);
  #arenaUsed = 0;
  // offsets[id] … offsets[id + 1]: the name's bytes in the arena (names are appended in id order).
  #offsets = new Int32Array(1024);
  // OR of every name byte: below 0x80 means all names are ASCII, decoded in one go by freeze().
  #byteUnion = 0;
  #touched = 0;

  get size(): number {
    return this.#size;
  }

  /** Makes room for `count` names at once (an edges file declares its vertex count): no rehash on the way. */
  reserve(count: number): void {
    let length = this.#slots.length;
    while (2 * SLOT_WIDTH * count > length) length *= 2;
    if (length > this.#slots.length) this.#slots = rehash(this.#slots, SLOT_WIDTH, length);
    if (count + 1 > this.#offsets.length) {
      const offsets = new Int32Array(count + 1);
      offsets.set(this.#offsets);
      this.#offsets = offsets;
    }
  }

  /** The id of the name source[start, end) (valid UTF-8), interning it when new. */
  internBytes(source: Uint8Array, start: number, end: number): number {
    return this.internHashed(source, start, end, hashBytes(source, start, end));
  }

  /**
   * Hashes the names source[starts[k], ends[k]) for k < count into hashes[k], and reads the table and the arena
   * where each one will be looked up. internHashed then finds them in the cache: at a million names the table
   * and the arena are far larger than the cache, a lookup's two reads (slot, then name bytes) each miss, and
   * the second waits for the first; made here for a batch, with no read waiting on another, the misses overlap.
   */
  prefetch(
    source: Uint8Array,
    starts: Int32Array,
    ends: Int32Array,
    hashes: Int32Array,
    count: number,
  ): void {
    const slots = this.#slots;
    const arena = this.#arena;
    const mask = (slots.length >> 2) - 1;
    let touched = 0;
    for (let k = 0; k < count; k++) {
      const hash = hashBytes(source, starts[k]!, ends[k]!);
      hashes[k] = hash;
      touched ^= slots[SLOT_WIDTH * (hash & mask)]!;
    }
    for (let k = 0; k < count; k++) {
      const start = slots[SLOT_WIDTH * (hashes[k]! & mask) + SLOT_START]!;
      if (start >= 0) touched ^= arena[start]!;
    }
    // Kept so that the reads are not optimized away.
    this.#touched ^= touched;
  }

  /** internBytes with the name's hash already computed (by prefetch). */
  internHashed(source: Uint8Array, start: number, end: number, hash: number): number {
    const slots = this.#slots;
    const arena = this.#arena;
    const length = end - start;
    const mask = (slots.length >> 2) - 1;
    let slot = hash & mask;
    for (;;) {
      const at = SLOT_WIDTH * slot;
      const id = slots[at + SLOT_ID]!;
      if (id === EMPTY) break;
      if (slots[at + SLOT_HASH] === hash && slots[at + SLOT_LENGTH] === length) {
        const offset = slots[at + SLOT_START]! - start;
        let i = start;
        while (i < end && arena[offset + i] === source[i]) i++;
        if (i === end) return id;
      }
      slot = (slot + 1) & mask;
    }
    return this.#add(source, start, end, hash, slot);
  }

  /** The same bytes as last time? Cheaper than a lookup when consecutive edges share their source. */
  isName(id: number, source: Uint8Array, start: number, end: number): boolean {
    const from = this.#offsets[id]!;
    if (this.#offsets[id + 1]! - from !== end - start) return false;
    const arena = this.#arena;
    const offset = from - start;
    for (let i = start; i < end; i++) if (arena[offset + i] !== source[i]) return false;
    return true;
  }

  internString(name: string): number {
    const bytes = Buffer.from(name, 'utf8');
    return this.internBytes(bytes, 0, bytes.length);
  }

  nameOf(id: number): string {
    return Buffer.from(this.#arena.buffer, this.#arena.byteOffset, this.#arenaUsed).toString(
      'utf8',
      this.#offsets[id]!,
      this.#offsets[id + 1]!,
    );
  }

  freeze(): string[] {
    const count = this.#size;
    const offsets = this.#offsets;
    const names = new Array<string>(count);
    const bytes = Buffer.from(this.#arena.buffer, this.#arena.byteOffset, this.#arenaUsed);
    if (this.#byteUnion < 0x80) {
      // All ASCII: one decode of the arena, then a substring per name (bytes and UTF-16 units coincide).
      const text = bytes.toString('latin1');
      for (let id = 0; id < count; id++) names[id] = text.slice(offsets[id]!, offsets[id + 1]!);
    } else {
      for (let id = 0; id < count; id++) names[id] = bytes.toString('utf8', offsets[id]!, offsets[id + 1]!);
    }
    return names;
  }

  indexOf(name: string): number | undefined {
    const bytes = Buffer.from(name, 'utf8');
    const hash = hashBytes(bytes, 0, bytes.length);
    const slots = this.#slots;
    const mask = (slots.length >> 2) - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = SLOT_WIDTH * slot;
      const id = slots[at + SLOT_ID]!;
      if (id === EMPTY) return undefined;
      if (slots[at + SLOT_HASH] === hash && this.isName(id, bytes, 0, bytes.length)) return id;
    }
  }

  #add(source: Uint8Array, start: number, end: number, hash: number, slot: number): number {
    const id = this.#size;
    const length = end - start;
    if (this.#arenaUsed + length > this.#arena.length) {
      this.#arena = grownBytes(this.#arena, this.#arenaUsed + length);
    }
    const at = this.#arenaUsed;
    this.#arena.set(source.subarray(start, end), at);
    for (let i = start; i < end; i++) this.#byteUnion |= source[i]!;
    this.#arenaUsed = at + length;
    if (id + 2 > this.#offsets.length) {
      const offsets = new Int32Array(2 * this.#offsets.length);
      offsets.set(this.#offsets);
      this.#offsets = offsets;
    }
    this.#offsets[id + 1] = at + length;
    const slots = this.#slots;
    const s = SLOT_WIDTH * slot;
    slots[s + SLOT_ID] = id;
    slots[s + SLOT_HASH] = hash;
    slots[s + SLOT_START] = at;
    slots[s + SLOT_LENGTH] = length;
    this.#size = id + 1;
    if (2 * SLOT_WIDTH * this.#size > slots.length) this.#slots = rehash(slots, SLOT_WIDTH);
    return id;
  }
}

// A larger table (twice the size by default), every occupied slot re-placed by its hash (at index 1 of the slot).
function rehash(old: Int32Array, width: number, length = 2 * old.length): Int32Array<ArrayBuffer> {
  const slots = new Int32Array(length).fill(EMPTY);
  const mask = slots.length / width - 1;
  for (let i = 0; i < old.length; i += width) {
    if (old[i] === EMPTY) continue;
    let slot = old[i + 1]! & mask;
    while (slots[width * slot] !== EMPTY) slot = (slot + 1) & mask;
    slots.set(old.subarray(i, i + width), width * slot);
  }
  return slots;
}

function grownBytes(bytes: Uint8Array, needed: number): Uint8Array<ArrayBuffer> {
  let capacity = 2 * bytes.length;
  while (capacity < needed) capacity *= 2;
  const larger = new Uint8Array(capacity);
  larger.set(bytes);
  return larger;
}

// FNV-1a, then a final avalanche so that the low bits used as the slot are mixed.
function finishHash(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h | 0;
}

function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return finishHash(h);
}

function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return finishHash(h);
}
