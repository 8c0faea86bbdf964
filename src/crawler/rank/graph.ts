// A directed graph in compressed-sparse-row form: out-edges as offset/target typed arrays, in- and out-degrees,
// vertex names interned once into dense ids. Sized for a crawl's link graph (millions of vertices and edges)
// without a JS object per edge; docs/reference.md#graph-file wants no self-loops and no duplicate edges.
// No in-edge CSR: PageRank, its one reader, regroups the out-edges by target its own way (blockedInEdges).

import { InputError, TrawlError } from '../../errors.js';
import { StringNameTable, tooManyVertices, type VertexNameTable } from './names.js';

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
  /** N: every vertex, named or not. */
  readonly vertexCount: number;
  /**
   * Vertices 0 … namedVertexCount − 1 have names; the rest are unnamed: an edges file declared them on its
   * first line but no edge names them (docs/reference.md#graph-file). They are isolated and rank as
   * dangling pages, and have no name to list them by.
   */
  readonly namedVertexCount: number;
  readonly edgeCount: number;
  /** names[id] is the name of vertex id as it was added (namedVertexCount of them). */
  readonly names: readonly string[];
  indexOf(name: string): number | undefined;
  /** Out-edges of u are outTargets[outOffsets[u] .. outOffsets[u+1]), sorted by target id. */
  readonly outOffsets: Int32Array;
  readonly outTargets: Int32Array;
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
const INSERTION_SORT_MAX = 24;
// Ids are int32; the largest count that leaves room for offsets[count].
const MAX_IDS = 2 ** 31 - 2;

/**
 * Collects vertices and edges, then freezes them into a {@link Graph}.
 *
 * Duplicate edges are found in build() by sorting each vertex's adjacency, not at addEdge time: an exact
 * check per edge needs a hash probe (a cache miss) per edge, far costlier than the sort on a large graph.
 * Under duplicateEdges: 'reject', build() throws an InputError whose detail.edge is the 0-based ordinal
 * (among the edges addEdge accepted) of the earliest repeat, so a parser can name its line.
 * Names are interned by a {@link VertexNameTable}: strings by default; the edges-file parser passes a
 * Utf8NameTable and interns names from its bytes itself, then adds edges by id.
 */
export class GraphBuilder {
  readonly #selfLoops: EdgePolicy;
  readonly #duplicateEdges: EdgePolicy;
  readonly #maxVertices: number;
  readonly #maxEdges: number;
  readonly #names: VertexNameTable;
  // The edges as runs of one source: run r is the edges runEnd[r − 1] … runEnd[r] − 1 (from 0 for r = 0),
  // all from runFrom[r], their targets in #to. Edge lists come grouped by source, so there are about as
  // many runs as sources, and build() moves a run at a time instead of an edge at a time.
  #to = new Int32Array(INITIAL_EDGE_CAPACITY);
  #runFrom = new Int32Array(INITIAL_EDGE_CAPACITY);
  #runEnd = new Int32Array(INITIAL_EDGE_CAPACITY);
  #runCount = 0;
  #edgeCount = 0;
  #droppedSelfLoops = 0;
  #built = false;

  constructor(options: GraphBuilderOptions = {}, names: VertexNameTable = new StringNameTable()) {
    this.#selfLoops = options.selfLoops ?? DEFAULT_EDGE_POLICY;
    this.#duplicateEdges = options.duplicateEdges ?? DEFAULT_EDGE_POLICY;
    this.#maxVertices = checkLimit(options.maxVertices, 'maxVertices', MAX_IDS);
    this.#maxEdges = checkLimit(options.maxEdges, 'maxEdges', MAX_IDS);
    this.#names = names;
  }

  /** The vertex limit (maxVertices, or the largest the id type allows). */
  get maxVertices(): number {
    return this.#maxVertices;
  }

  /** Named vertices so far. */
  get vertexCount(): number {
    return this.#names.size;
  }

  /** Edges accepted so far, duplicates included (they are removed or rejected by build()). */
  get edgeCount(): number {
    return this.#edgeCount;
  }

  /** Interns a vertex name and returns its dense id (the same id for the same name). */
  addVertex(name: string): number {
    this.#assertOpen();
    const id = this.#names.internString(name);
    this.checkVertexLimit();
    return id;
  }

  /** Adds the edge from → to, adding either vertex if it is new. */
  addEdge(from: string, to: string): AddEdgeResult {
    return this.addEdgeById(this.addVertex(from), this.addVertex(to));
  }

  /** Throws the InputError of too many vertices once the names interned outnumber maxVertices. */
  checkVertexLimit(): void {
    if (this.#names.size > this.#maxVertices) throw tooManyVertices(this.#maxVertices);
  }

  /** addEdge for ids of the name table (addVertex, or a parser interning names itself). */
  addEdgeById(from: number, to: number): AddEdgeResult {
    this.#assertOpen();
    const vertexCount = this.#names.size;
    if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 0 && to >= 0)) {
      throw new TrawlError('internal', `edge ids must be vertex ids, got ${from} → ${to}`);
    }
    if (from >= vertexCount || to >= vertexCount) {
      throw new TrawlError('internal', `edge ${from} → ${to} names a vertex that was never added`);
    }
    if (from === to) {
      if (this.#selfLoops === 'reject') {
        const name = this.#names.nameOf(from);
        throw new InputError(`self-loop on vertex ${name}`, 'graph', { from: name, to: name });
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
    if (edge === this.#to.length) this.#to = grown(this.#to);
    this.#to[edge] = to;
    this.#edgeCount = edge + 1;
    const run = this.#runCount;
    if (run > 0 && this.#runFrom[run - 1] === from) {
      this.#runEnd[run - 1] = edge + 1;
    } else {
      if (run === this.#runFrom.length) {
        this.#runFrom = grown(this.#runFrom);
        this.#runEnd = grown(this.#runEnd);
      }
      this.#runFrom[run] = from;
      this.#runEnd[run] = edge + 1;
      this.#runCount = run + 1;
    }
    return 'added';
  }

  /**
   * addEdgeById(from[k], to[k]) for k = 0 … count − 1, in order, with the checks done once for the batch: a
   * parser's path, without a checked call per edge. It stops before the first edge addEdgeById would refuse (a
   * self-loop under selfLoops: 'reject', an edge past maxEdges) and returns how many it took, so that
   * addEdgeById on that edge throws its error for the caller to place (a line of a file).
   */
  addEdgesById(from: Int32Array, to: Int32Array, count: number): number {
    this.#assertOpen();
    const vertexCount = this.#names.size;
    for (let k = 0; k < count; k++) {
      const source = from[k]!;
      const target = to[k]!;
      if (!(source >= 0 && target >= 0 && source < vertexCount && target < vertexCount)) {
        throw new TrawlError('internal', `edge ${source} → ${target} names a vertex that was never added`);
      }
    }
    const dropSelfLoops = this.#selfLoops === 'drop';
    let edge = this.#edgeCount;
    while (this.#to.length < Math.min(this.#maxEdges, edge + count)) this.#to = grown(this.#to);
    let run = this.#runCount;
    let k = 0;
    for (; k < count; k++) {
      const source = from[k]!;
      const target = to[k]!;
      if (source === target) {
        if (!dropSelfLoops) break;
        this.#droppedSelfLoops++;
        continue;
      }
      if (edge >= this.#maxEdges) break;
      this.#to[edge++] = target;
      if (run > 0 && this.#runFrom[run - 1] === source) {
        this.#runEnd[run - 1] = edge;
      } else {
        if (run === this.#runFrom.length) {
          this.#runFrom = grown(this.#runFrom);
          this.#runEnd = grown(this.#runEnd);
        }
        this.#runFrom[run] = source;
        this.#runEnd[run++] = edge;
      }
    }
    this.#edgeCount = edge;
    this.#runCount = run;
    return k;
  }

  /**
   * Freezes the graph. A builder builds once: the graph takes over its name table.
   * `vertexCount`, when larger than the names interned, adds unnamed vertices after the named ones (an
   * edges file's declared count: vertices no edge names, isolated, so dangling in PageRank).
   */
  build(options: { vertexCount?: number } = {}): Graph {
    this.#assertOpen();
    const namedVertexCount = this.#names.size;
    const vertexCount = options.vertexCount ?? namedVertexCount;
    if (!(Number.isSafeInteger(vertexCount) && vertexCount >= namedVertexCount)) {
      throw new TrawlError(
        'internal',
        `vertexCount ${vertexCount} is fewer than the ${namedVertexCount} vertices named`,
      );
    }
    if (vertexCount > this.#maxVertices) throw tooManyVertices(this.#maxVertices);
    this.#built = true;
    const addedEdges = this.#edgeCount;
    const to = this.#to;
    const runFrom = this.#runFrom;
    const runEnd = this.#runEnd;
    const runCount = this.#runCount;

    // Counting sort by source, a run at a time, then each adjacency sorted by target so repeats sit side by side.
    const outDegree = new Int32Array(vertexCount);
    for (let r = 0, start = 0; r < runCount; start = runEnd[r++]!)
      outDegree[runFrom[r]!]! += runEnd[r]! - start;
    const outOffsets = prefixSums(outDegree);
    const outTargets = new Int32Array(addedEdges);
    const cursor = outOffsets.slice(0, vertexCount);
    for (let r = 0, start = 0; r < runCount; start = runEnd[r++]!) {
      const end = runEnd[r]!;
      const at = cursor[runFrom[r]!]!;
      for (let e = start; e < end; e++) outTargets[at + e - start] = to[e]!;
      cursor[runFrom[r]!] = at + end - start;
    }

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
    this.#to = new Int32Array(0);
    this.#runFrom = new Int32Array(0);
    this.#runEnd = new Int32Array(0);

    const inDegree = new Int32Array(vertexCount);
    for (let j = 0; j < edgeCount; j++) inDegree[targets[j]!]!++;

    const table = this.#names;
    return {
      vertexCount,
      namedVertexCount,
      edgeCount,
      names: table.freeze(),
      indexOf: (name: string) => table.indexOf(name),
      outOffsets,
      outTargets: targets,
      inDegree,
      outDegree,
      droppedSelfLoops: this.#droppedSelfLoops,
      droppedDuplicates: duplicates,
    };
  }

  // Error path only: the repeat with the smallest ordinal, found by replaying the edges in order.
  #firstDuplicate(): InputError {
    const seen = new Set<number>();
    const n = this.#names.size;
    const sources = new Int32Array(this.#edgeCount);
    for (let r = 0, start = 0; r < this.#runCount; start = this.#runEnd[r++]!) {
      sources.fill(this.#runFrom[r]!, start, this.#runEnd[r]!);
    }
    for (let e = 0; e < this.#edgeCount; e++) {
      const from = sources[e]!;
      const to = this.#to[e]!;
      const key = from * n + to; // < 2^62 in theory; exact while n < 2^26, and only a hint beyond.
      if (seen.has(key) && hasEarlier(sources, this.#to, e, from, to)) {
        const fromName = this.#names.nameOf(from);
        const toName = this.#names.nameOf(to);
        return new InputError(`duplicate edge ${fromName} → ${toName}`, 'graph', {
          from: fromName,
          to: toName,
          edge: e,
        });
      }
      seen.add(key);
    }
    return new InputError('duplicate edge', 'graph');
  }

  #assertOpen(): void {
    if (this.#built) throw new TrawlError('internal', 'GraphBuilder.build() was already called');
  }
}

function hasEarlier(
  sources: Int32Array,
  targets: Int32Array,
  edge: number,
  from: number,
  to: number,
): boolean {
  for (let e = 0; e < edge; e++) if (sources[e] === from && targets[e] === to) return true;
  return false;
}

function grown(values: Int32Array): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(2 * values.length);
  larger.set(values);
  return larger;
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
