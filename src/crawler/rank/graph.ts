// A directed graph in compressed-sparse-row form: out-edges and in-edges as offset/target typed arrays,
// vertex names interned once into dense ids. Sized for a crawl's link graph (millions of vertices and
// edges) without a JS object per edge; docs/reference.md#graph-file wants no self-loops and no duplicate edges.

import { InputError, TrawlError } from '../../errors.js';

/** What the builder does with a self-loop or a repeated edge: throw an InputError, or drop it and count it. */
export type EdgePolicy = 'reject' | 'drop';

/** Self-loops and repeated edges are rejected unless a ranking says to drop them. */
export const DEFAULT_EDGE_POLICY: EdgePolicy = 'reject';

export interface GraphBuilderOptions {
  selfLoops?: EdgePolicy;
  duplicateEdges?: EdgePolicy;
  /** Upper bounds that turn a hostile input into an InputError instead of an out-of-memory crash. */
  maxVertices?: number;
  maxEdges?: number;
}

export interface Graph {
  readonly vertexCount: number;
  readonly edgeCount: number;
  /** names[id] is the vertex's name as it was added. */
  readonly names: readonly string[];
  indexOf(name: string): number | undefined;
  /** Out-edges of u are outTargets[outOffsets[u] .. outOffsets[u+1]), sorted by target id. */
  readonly outOffsets: Int32Array;
  readonly outTargets: Int32Array;
  /** In-edges of v are inSources[inOffsets[v] .. inOffsets[v+1]), sorted by source id (pull-style iteration). */
  readonly inOffsets: Int32Array;
  readonly inSources: Int32Array;
  readonly inDegree: Int32Array;
  readonly outDegree: Int32Array;
  /** Edges the builder dropped under the 'drop' policies. */
  readonly droppedSelfLoops: number;
  readonly droppedDuplicates: number;
}

/** 'self-loop' when the edge was dropped under selfLoops: 'drop'; duplicates are only known at build(). */
export type AddEdgeResult = 'added' | 'self-loop';

const EMPTY = -1;
const INITIAL_EDGE_CAPACITY = 1024;
const INITIAL_VERTEX_CAPACITY = 1024;
const INSERTION_SORT_MAX = 24;

/**
 * Collects vertices and edges, then freezes them into a {@link Graph}.
 *
 * Duplicate edges are found in build() by sorting each vertex's adjacency, not at addEdge time: an exact
 * check per edge needs a hash probe (a cache miss) per edge, measured 10× the cost of the sort on 8M edges.
 * Under duplicateEdges: 'reject', build() throws an InputError whose detail.edge is the 0-based ordinal
 * (among the edges addEdge accepted) of the earliest repeat, so a parser can name its line.
 * Names are interned in an open-addressing table of (id, hash) pairs, so a parser can look a name up
 * inside its line (addEdgeFromSlices) without cutting a substring for names it has seen.
 */
export class GraphBuilder {
  readonly #selfLoops: EdgePolicy;
  readonly #duplicateEdges: EdgePolicy;
  readonly #maxVertices: number;
  readonly #maxEdges: number;
  readonly #names: string[] = [];
  // [2 * slot] = vertex id or EMPTY, [2 * slot + 1] = the name's hash; load kept ≤ 0.5.
  #nameSlots = new Int32Array(4 * INITIAL_VERTEX_CAPACITY).fill(EMPTY);
  #from = new Int32Array(INITIAL_EDGE_CAPACITY);
  #to = new Int32Array(INITIAL_EDGE_CAPACITY);
  #edgeCount = 0;
  #lastFrom = EMPTY;
  #droppedSelfLoops = 0;
  #built = false;

  constructor(options: GraphBuilderOptions = {}) {
    this.#selfLoops = options.selfLoops ?? DEFAULT_EDGE_POLICY;
    this.#duplicateEdges = options.duplicateEdges ?? DEFAULT_EDGE_POLICY;
    this.#maxVertices = checkLimit(options.maxVertices, 'maxVertices', 2 ** 31 - 2);
    this.#maxEdges = checkLimit(options.maxEdges, 'maxEdges', 2 ** 31 - 2);
  }

  get vertexCount(): number {
    return this.#names.length;
  }

  /** Edges accepted so far, duplicates included (they are removed or rejected by build()). */
  get edgeCount(): number {
    return this.#edgeCount;
  }

  /** Interns a vertex name and returns its dense id (the same id for the same name). */
  addVertex(name: string): number {
    return this.#intern(name, 0, name.length);
  }

  /** Adds the edge from → to, adding either vertex if it is new. */
  addEdge(from: string, to: string): AddEdgeResult {
    return this.addEdgeById(this.#intern(from, 0, from.length), this.#intern(to, 0, to.length));
  }

  /** addEdge(text.slice(fromStart, fromEnd), text.slice(toStart, toEnd)) without cutting known names out. */
  addEdgeFromSlices(
    text: string,
    fromStart: number,
    fromEnd: number,
    toStart: number,
    toEnd: number,
  ): AddEdgeResult {
    // Edge lists usually come grouped by source: try the previous source before the table.
    let from = this.#lastFrom;
    if (from === EMPTY || !sameText(this.#names[from]!, text, fromStart, fromEnd)) {
      from = this.#intern(text, fromStart, fromEnd);
      this.#lastFrom = from;
    }
    return this.addEdgeById(from, this.#intern(text, toStart, toEnd));
  }

  /** addEdge for ids returned by addVertex, for callers that already hold ids (generators, tests). */
  addEdgeById(from: number, to: number): AddEdgeResult {
    this.#assertOpen();
    const vertexCount = this.#names.length;
    if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 0 && to >= 0)) {
      throw new TrawlError('internal', `edge ids must be vertex ids, got ${from} → ${to}`);
    }
    if (from >= vertexCount || to >= vertexCount) {
      throw new TrawlError('internal', `edge ${from} → ${to} names a vertex that was never added`);
    }
    if (from === to) {
      if (this.#selfLoops === 'reject') {
        throw new InputError(`self-loop on vertex ${this.#names[from]}`, 'graph', {
          from: this.#names[from],
          to: this.#names[to],
        });
      }
      this.#droppedSelfLoops++;
      return 'self-loop';
    }
    const edge = this.#edgeCount;
    if (edge >= this.#maxEdges) {
      throw new InputError(`graph has more than ${this.#maxEdges} edges`, 'graph', {
        maxEdges: this.#maxEdges,
      });
    }
    if (edge === this.#from.length) this.#growEdges();
    this.#from[edge] = from;
    this.#to[edge] = to;
    this.#edgeCount = edge + 1;
    return 'added';
  }

  /** Freezes the graph. A builder builds once: the graph takes over its name table. */
  build(): Graph {
    this.#assertOpen();
    this.#built = true;
    const vertexCount = this.#names.length;
    const addedEdges = this.#edgeCount;
    const from = this.#from;
    const to = this.#to;

    // Counting sort by source, then each adjacency sorted by target so repeats sit side by side.
    const outDegree = new Int32Array(vertexCount);
    for (let e = 0; e < addedEdges; e++) outDegree[from[e]!]!++;
    const outOffsets = prefixSums(outDegree);
    const outTargets = new Int32Array(addedEdges);
    const cursor = outOffsets.slice(0, vertexCount);
    for (let e = 0; e < addedEdges; e++) outTargets[cursor[from[e]!]!++] = to[e]!;

    let write = 0;
    let duplicates = 0;
    for (let u = 0; u < vertexCount; u++) {
      const start = outOffsets[u]!;
      const end = outOffsets[u + 1]!;
      sortRange(outTargets, start, end);
      outOffsets[u] = write;
      let previous = EMPTY;
      for (let j = start; j < end; j++) {
        const target = outTargets[j]!;
        if (target === previous) {
          duplicates++;
          continue;
        }
        outTargets[write++] = target;
        previous = target;
      }
      outDegree[u] = write - outOffsets[u]!;
    }
    outOffsets[vertexCount] = write;
    if (duplicates > 0 && this.#duplicateEdges === 'reject') throw this.#firstDuplicate();
    const edgeCount = write;
    const targets = edgeCount === addedEdges ? outTargets : outTargets.slice(0, edgeCount);
    this.#from = new Int32Array(0);
    this.#to = new Int32Array(0);

    // Walking sources in id order leaves every in-adjacency sorted by source.
    const inDegree = new Int32Array(vertexCount);
    for (let j = 0; j < edgeCount; j++) inDegree[targets[j]!]!++;
    const inOffsets = prefixSums(inDegree);
    const inSources = new Int32Array(edgeCount);
    cursor.set(inOffsets.subarray(0, vertexCount));
    for (let u = 0; u < vertexCount; u++) {
      const end = outOffsets[u + 1]!;
      for (let j = outOffsets[u]!; j < end; j++) inSources[cursor[targets[j]!]!++] = u;
    }

    return {
      vertexCount,
      edgeCount,
      names: this.#names,
      indexOf: (name: string) => {
        const slot = this.#findName(name, 0, name.length, hashRange(name, 0, name.length));
        const id = this.#nameSlots[2 * slot]!;
        return id === EMPTY ? undefined : id;
      },
      outOffsets,
      outTargets: targets,
      inOffsets,
      inSources,
      inDegree,
      outDegree,
      droppedSelfLoops: this.#droppedSelfLoops,
      droppedDuplicates: duplicates,
    };
  }

  // Error path only: the repeat with the smallest ordinal, found by replaying the edges in order.
  #firstDuplicate(): InputError {
    const seen = new Set<number>();
    const n = this.#names.length;
    for (let e = 0; e < this.#edgeCount; e++) {
      const from = this.#from[e]!;
      const to = this.#to[e]!;
      const key = from * n + to; // < 2^62 in theory; exact while n < 2^26, and only a hint beyond.
      if (seen.has(key) && this.#hasEarlier(e, from, to)) {
        return new InputError(`duplicate edge ${this.#names[from]} → ${this.#names[to]}`, 'graph', {
          from: this.#names[from],
          to: this.#names[to],
          edge: e,
        });
      }
      seen.add(key);
    }
    return new InputError('duplicate edge', 'graph');
  }

  #hasEarlier(edge: number, from: number, to: number): boolean {
    for (let e = 0; e < edge; e++) if (this.#from[e] === from && this.#to[e] === to) return true;
    return false;
  }

  #intern(text: string, start: number, end: number): number {
    const hash = hashRange(text, start, end);
    const slot = this.#findName(text, start, end, hash);
    const known = this.#nameSlots[2 * slot]!;
    if (known !== EMPTY) return known;
    this.#assertOpen();
    const id = this.#names.length;
    if (id >= this.#maxVertices) {
      throw new InputError(`graph has more than ${this.#maxVertices} vertices`, 'graph', {
        maxVertices: this.#maxVertices,
      });
    }
    this.#names.push(start === 0 && end === text.length ? text : text.slice(start, end));
    this.#nameSlots[2 * slot] = id;
    this.#nameSlots[2 * slot + 1] = hash;
    if (4 * this.#names.length > this.#nameSlots.length) this.#growNameSlots();
    return id;
  }

  // The slot holding the id of the name text[start, end), or the free slot where it belongs.
  #findName(text: string, start: number, end: number, hash: number): number {
    const slots = this.#nameSlots;
    const names = this.#names;
    const mask = (slots.length >> 1) - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = slots[2 * slot]!;
      if (id === EMPTY) return slot;
      if (slots[2 * slot + 1] !== hash) continue;
      if (sameText(names[id]!, text, start, end)) return slot;
    }
  }

  #growNameSlots(): void {
    const old = this.#nameSlots;
    const slots = new Int32Array(2 * old.length).fill(EMPTY);
    const mask = (slots.length >> 1) - 1;
    for (let i = 0; i < old.length; i += 2) {
      const id = old[i]!;
      if (id === EMPTY) continue;
      const hash = old[i + 1]!;
      let slot = hash & mask;
      while (slots[2 * slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[2 * slot] = id;
      slots[2 * slot + 1] = hash;
    }
    this.#nameSlots = slots;
  }

  #assertOpen(): void {
    if (this.#built) throw new TrawlError('internal', 'GraphBuilder.build() was already called');
  }

  #growEdges(): void {
    const capacity = this.#from.length * 2;
    const from = new Int32Array(capacity);
    from.set(this.#from);
    const to = new Int32Array(capacity);
    to.set(this.#to);
    this.#from = from;
    this.#to = to;
  }
}

function sameText(name: string, text: string, start: number, end: number): boolean {
  const length = end - start;
  if (name.length !== length) return false;
  for (let i = 0; i < length; i++) if (name.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

// Most adjacencies are short: insertion sort in place, the engine's typed-array sort for the long ones.
function sortRange(values: Int32Array, start: number, end: number): void {
  if (end - start > INSERTION_SORT_MAX) {
    values.subarray(start, end).sort();
    return;
  }
  for (let i = start + 1; i < end; i++) {
    const value = values[i]!;
    let j = i - 1;
    while (j >= start && values[j]! > value) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = value;
  }
}

// FNV-1a over UTF-16 code units, then a final avalanche so the low bits used as the slot are mixed.
function hashRange(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h | 0;
}

function prefixSums(counts: Int32Array): Int32Array {
  const offsets = new Int32Array(counts.length + 1);
  let sum = 0;
  for (let i = 0; i < counts.length; i++) {
    offsets[i] = sum;
    sum += counts[i]!;
  }
  offsets[counts.length] = sum;
  return offsets;
}

function checkLimit(value: number | undefined, name: string, ceiling: number): number {
  if (value === undefined) return ceiling;
  if (!Number.isInteger(value) || value < 0) {
    throw new TrawlError('internal', `${name} must be a non-negative integer, got ${value}`);
  }
  return Math.min(value, ceiling);
}
