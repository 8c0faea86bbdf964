// Vertex-name interning for GraphBuilder: names become dense ids through an open-addressing hash table kept in
// an Int32Array, so a million names cost no JS object each in the table. Names are held either as JS strings
// (a graph built name by name) or as UTF-8 bytes in one growing arena (an edges file read straight from its
// bytes: a name is looked up inside the chunk it arrived in, and decoded to a string once, when the graph is built).
// Many edges files name their vertices by number (0 … N − 1, or ids up to a few times N): those names skip the
// hash table and find their id by their value in an array (Utf8NameTable's numbered names).

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

// Utf8NameTable slots, 4 int32 each. A name of at most 8 bytes is its own key, held in the slot: [id, bytes 0–3,
// bytes 4–7 (little-endian, zero-padded), length], so that its lookup reads one slot and nothing else. A longer
// name's slot is [id, hash, start in the arena, length], and its lookup also reads its bytes in the arena.
// Lengths tell the two kinds apart. (Names of ≤ 8 bytes are the common case: numbers, short ids; the bench's
// `p123456`.)
const SLOT_ID = 0;
const SLOT_LOW = 1;
const SLOT_HIGH = 2;
const SLOT_LENGTH = 3;
const SLOT_WIDTH = 4;
const INLINE_BYTES = 8;
// A numbered name: canonical decimal ("7", never "007" or "+7", which stay names of their own in the hash table)
// of at most 9 digits (exact in int32), below a limit that reserve() sets from the declared vertex count: a few
// times N covers files numbered from 1, or with gaps, and an array of that many ids costs less than the hash
// table's 32 bytes a name.
const ZERO = 0x30;
const NUMBERED_DIGITS = 9;
const NUMBERED_PER_VERTEX = 4;
const NUMBERED_SLACK = 1024;
// 512 MiB of address space at most; pages of the array that no name reaches are never written, so cost nothing.
const NUMBERED_MAX = 2 ** 27;

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
  // The keys of the names being looked up (#key writes entry k): the slot's low and high words, and the hash.
  #keyLow = new Int32Array(1);
  #keyHigh = new Int32Array(1);
  #keyHash = new Int32Array(1);
  // 1 for a numbered name, whose key is its value (in #keyLow) and whose id is in #numbered, not in #slots.
  #keyNumbered = new Uint8Array(1);
  #touched = 0;
  // Numbered names: #numbered[value] = id + 1 (0 = not seen; no fill, so pages no name reaches stay untouched),
  // for values below #numberedLimit (0 until reserve(): then every name goes to the hash table).
  #numberedLimit = 0;
  #numbered = new Int32Array(0);
  // The hash table is grown to this many slots (reserve()) at the first name it holds, so that a file of
  // numbered names never allocates it.
  #reservedSlotsLength = 0;

  get size(): number {
    return this.#size;
  }

  /**
   * Makes room for `count` names at once (an edges file declares its vertex count): no rehash on the way.
   * Called before the first name, it also sets which numbers are numbered names (never changed after, so
   * that a name is always looked up where it was interned).
   */
  reserve(count: number): void {
    let length = this.#slots.length;
    while (2 * SLOT_WIDTH * count > length) length *= 2;
    this.#reservedSlotsLength = Math.max(this.#reservedSlotsLength, length);
    if (this.#size === 0 && this.#numberedLimit === 0) {
      this.#numberedLimit = Math.min(NUMBERED_MAX, NUMBERED_PER_VERTEX * count + NUMBERED_SLACK);
    }
    if (count + 1 > this.#offsets.length) {
      const offsets = new Int32Array(count + 1);
      offsets.set(this.#offsets);
      this.#offsets = offsets;
    }
  }

  /** The id of the name source[start, end) (valid UTF-8), interning it when new. */
  internBytes(source: Uint8Array, start: number, end: number): number {
    this.#key(source, start, end, 0);
    this.#allocate(this.#keyNumbered[0] === 0, this.#keyNumbered[0] === 1);
    return this.#intern(source, start, end, 0);
  }

  /**
   * internBytes for names source[starts[k], ends[k]), k < count, in that order (so new names take ids in
   * that order), their ids into ids[k]. At a million names the table is far larger than the cache and a
   * lookup misses on its slot (and, for a long name, again on its bytes in the arena, which waits for the
   * slot); so the batch's slots are read first, with no read waiting on another, and the misses overlap.
   * A batch of numbered names, or of hashed names, goes through a loop of its own kind (one loop for both
   * leaves the engine unable to inline the lookups); a batch of both, one name at a time.
   */
  internAll(source: Uint8Array, starts: Int32Array, ends: Int32Array, ids: Int32Array, count: number): void {
    if (this.#keyHash.length < count) {
      this.#keyLow = new Int32Array(count);
      this.#keyHigh = new Int32Array(count);
      this.#keyHash = new Int32Array(count);
      this.#keyNumbered = new Uint8Array(count);
    }
    const numbered = this.#keyNumbers(source, starts, ends, count);
    if (numbered === 0) {
      this.#allocate(true, false);
      this.#internAllHashed(source, starts, ends, ids, count);
    } else if (numbered === count) {
      this.#allocate(false, true);
      this.#internAllNumbered(source, starts, ends, ids, count);
    } else {
      for (let k = 0; k < count; k++) ids[k] = this.internBytes(source, starts[k]!, ends[k]!);
    }
  }

  // The values of the batch's numbered names into #keyLow (#keyNumbered[k] = 1), and how many there are.
  #keyNumbers(source: Uint8Array, starts: Int32Array, ends: Int32Array, count: number): number {
    const lows = this.#keyLow;
    const isNumbered = this.#keyNumbered;
    let numbered = 0;
    for (let k = 0; k < count; k++) {
      const value = this.#numberedValue(source, starts[k]!, ends[k]!);
      if (value >= 0) {
        lows[k] = value;
        isNumbered[k] = 1;
        numbered++;
      } else {
        isNumbered[k] = 0;
      }
    }
    return numbered;
  }

  #internAllNumbered(
    source: Uint8Array,
    starts: Int32Array,
    ends: Int32Array,
    ids: Int32Array,
    count: number,
  ): void {
    const values = this.#keyLow;
    const numbered = this.#numbered;
    let touched = 0;
    for (let k = 0; k < count; k++) touched ^= numbered[values[k]!]!;
    this.#touched ^= touched;
    for (let k = 0; k < count; k++) ids[k] = this.#internNumbered(source, starts[k]!, ends[k]!, values[k]!);
  }

  #internAllHashed(
    source: Uint8Array,
    starts: Int32Array,
    ends: Int32Array,
    ids: Int32Array,
    count: number,
  ): void {
    const hashes = this.#keyHash;
    let long = false;
    for (let k = 0; k < count; k++) {
      this.#hashedKey(source, starts[k]!, ends[k]!, k);
      long ||= ends[k]! - starts[k]! > INLINE_BYTES;
    }
    const slots = this.#slots;
    const mask = slots.length / SLOT_WIDTH - 1;
    // A loop of loads alone, so that the processor has many of them in flight at once.
    let touched = 0;
    for (let k = 0; k < count; k++) touched ^= slots[SLOT_WIDTH * (hashes[k]! & mask)]!;
    if (long) {
      const arena = this.#arena;
      for (let k = 0; k < count; k++) {
        if (ends[k]! - starts[k]! <= INLINE_BYTES) continue;
        const at = slots[SLOT_WIDTH * (hashes[k]! & mask) + SLOT_HIGH]!;
        if (at >= 0) touched ^= arena[at]!;
      }
    }
    // Kept so that the reads are not optimized away.
    this.#touched ^= touched;
    for (let k = 0; k < count; k++) ids[k] = this.#internHashed(source, starts[k]!, ends[k]!, k);
  }

  /** The same bytes as vertex id's name? */
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
    this.#key(bytes, 0, bytes.length, 0);
    if (this.#keyNumbered[0] === 1) {
      const id = this.#numberedId(this.#keyLow[0]!);
      return id === EMPTY ? undefined : id;
    }
    const at = this.#find(bytes, 0, bytes.length, 0);
    const id = this.#slots[at + SLOT_ID]!;
    return id === EMPTY ? undefined : id;
  }

  // The key of source[start, end) into entry k of the key arrays: a numbered name's value, or a hashed name's
  // words and hash.
  #key(source: Uint8Array, start: number, end: number, k: number): void {
    const value = this.#numberedValue(source, start, end);
    if (value >= 0) {
      this.#keyLow[k] = value;
      this.#keyNumbered[k] = 1;
      return;
    }
    this.#keyNumbered[k] = 0;
    this.#hashedKey(source, start, end, k);
  }

  // The value of a numbered name, or −1.
  #numberedValue(source: Uint8Array, start: number, end: number): number {
    const length = end - start;
    const first = source[start]! - ZERO;
    if (first < 0 || first > 9 || length > NUMBERED_DIGITS || (first === 0 && length > 1)) return -1;
    let value = first;
    for (let i = start + 1; i < end; i++) {
      const digit = source[i]! - ZERO;
      if (digit < 0 || digit > 9) return -1;
      value = 10 * value + digit;
    }
    return value < this.#numberedLimit ? value : -1;
  }

  // A hashed name's key: a name of ≤ 8 bytes is its own key (its two words), a longer one its hash.
  #hashedKey(source: Uint8Array, start: number, end: number, k: number): void {
    const length = end - start;
    if (length > INLINE_BYTES) {
      const hash = hashBytes(source, start, end);
      this.#keyLow[k] = hash;
      this.#keyHash[k] = hash;
      return;
    }
    let low = 0;
    let high = 0;
    const middle = length < 4 ? end : start + 4;
    for (let i = start; i < middle; i++) low |= source[i]! << (8 * (i - start));
    for (let i = middle; i < end; i++) high |= source[i]! << (8 * (i - middle));
    this.#keyLow[k] = low;
    this.#keyHigh[k] = high;
    this.#keyHash[k] = hashInline(low, high, length);
  }

  // The slot (its index in #slots) holding the name keyed by entry k, or the free slot where it belongs.
  #find(source: Uint8Array, start: number, end: number, k: number): number {
    const slots = this.#slots;
    const length = end - start;
    const low = this.#keyLow[k]!;
    const mask = slots.length / SLOT_WIDTH - 1;
    for (let slot = this.#keyHash[k]! & mask; ; slot = (slot + 1) & mask) {
      const at = SLOT_WIDTH * slot;
      if (slots[at + SLOT_ID] === EMPTY) return at;
      if (slots[at + SLOT_LENGTH] !== length || slots[at + SLOT_LOW] !== low) continue;
      if (length <= INLINE_BYTES) {
        if (slots[at + SLOT_HIGH] === this.#keyHigh[k]) return at;
      } else {
        const arena = this.#arena;
        const offset = slots[at + SLOT_HIGH]! - start;
        let i = start;
        while (i < end && arena[offset + i] === source[i]) i++;
        if (i === end) return at;
      }
    }
  }

  #intern(source: Uint8Array, start: number, end: number, k: number): number {
    if (this.#keyNumbered[k] === 1) return this.#internNumbered(source, start, end, this.#keyLow[k]!);
    return this.#internHashed(source, start, end, k);
  }

  #internNumbered(source: Uint8Array, start: number, end: number, value: number): number {
    const known = this.#numbered[value]! - 1;
    if (known !== EMPTY) return known;
    const id = this.#append(source, start, end);
    this.#numbered[value] = id + 1;
    return id;
  }

  #internHashed(source: Uint8Array, start: number, end: number, k: number): number {
    const at = this.#find(source, start, end, k);
    const known = this.#slots[at + SLOT_ID]!;
    return known === EMPTY ? this.#add(source, start, end, k, at) : known;
  }

  // The tables reserve() asked for, once a name is to be looked up in them (so a file of numbered names never
  // allocates the hash table; an empty array is a cheap "not seen" for the other).
  #allocate(hashed: boolean, numbered: boolean): void {
    if (hashed && this.#slots.length < this.#reservedSlotsLength) this.#rehash(this.#reservedSlotsLength);
    if (numbered && this.#numbered.length < this.#numberedLimit) {
      this.#numbered = new Int32Array(this.#numberedLimit);
    }
  }

  #numberedId(value: number): number {
    return this.#numbered.length === 0 ? EMPTY : this.#numbered[value]! - 1;
  }

  // A new name into the hash table's free slot `at`.
  #add(source: Uint8Array, start: number, end: number, k: number, at: number): number {
    const id = this.#append(source, start, end);
    const length = end - start;
    const slots = this.#slots;
    slots[at + SLOT_ID] = id;
    slots[at + SLOT_LOW] = this.#keyLow[k]!;
    slots[at + SLOT_HIGH] = length <= INLINE_BYTES ? this.#keyHigh[k]! : this.#offsets[id]!;
    slots[at + SLOT_LENGTH] = length;
    if (2 * SLOT_WIDTH * this.#size > slots.length) this.#rehash(2 * slots.length);
    return id;
  }

  // The next id, its name's bytes appended to the arena.
  #append(source: Uint8Array, start: number, end: number): number {
    const id = this.#size;
    const length = end - start;
    if (this.#arenaUsed + length > this.#arena.length) {
      this.#arena = grownBytes(this.#arena, this.#arenaUsed + length);
    }
    const offset = this.#arenaUsed;
    // Byte by byte: names are short, and a subarray per name would be a million objects to collect.
    const arena = this.#arena;
    let union = this.#byteUnion;
    for (let i = start; i < end; i++) {
      arena[offset + i - start] = source[i]!;
      union |= source[i]!;
    }
    this.#byteUnion = union;
    this.#arenaUsed = offset + length;
    if (id + 2 > this.#offsets.length) {
      const offsets = new Int32Array(2 * this.#offsets.length);
      offsets.set(this.#offsets);
      this.#offsets = offsets;
    }
    this.#offsets[id + 1] = offset + length;
    this.#size = id + 1;
    return id;
  }

  // A table of `length` int32, every name re-placed by its hash (the slot's own for a long name).
  #rehash(length: number): void {
    const old = this.#slots;
    const slots = new Int32Array(length).fill(EMPTY);
    const mask = length / SLOT_WIDTH - 1;
    for (let at = 0; at < old.length; at += SLOT_WIDTH) {
      if (old[at + SLOT_ID] === EMPTY) continue;
      const nameLength = old[at + SLOT_LENGTH]!;
      const hash =
        nameLength > INLINE_BYTES
          ? old[at + SLOT_LOW]!
          : hashInline(old[at + SLOT_LOW]!, old[at + SLOT_HIGH]!, nameLength);
      let slot = hash & mask;
      while (slots[SLOT_WIDTH * slot] !== EMPTY) slot = (slot + 1) & mask;
      slots.set(old.subarray(at, at + SLOT_WIDTH), SLOT_WIDTH * slot);
    }
    this.#slots = slots;
  }
}

// StringNameTable's larger table (twice the size by default), every occupied slot re-placed by its hash (at
// index 1 of the slot).
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

// A name of ≤ 8 bytes as its two words and length: a multiply-xorshift mix, so that names differing in one
// digit land far apart.
function hashInline(low: number, high: number, length: number): number {
  let h = Math.imul(low ^ length, 0x9e3779b1) ^ Math.imul(high, 0x85ebca6b);
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae35);
  return finishHash(h);
}

function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return finishHash(h);
}
