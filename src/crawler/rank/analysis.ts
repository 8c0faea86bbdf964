// Degree and PageRank analysis of a link graph (docs/reference.md#pagerank): top-k vertices by PageRank,
// in-degree and out-degree, and how much those top-k sets overlap (Jaccard similarity).

import { InputError } from '../../errors.js';
import type { Graph } from './graph.js';
import { PAGERANK_DEFAULTS, type PageRankOptions, type PageRankResult, pageRank } from './pagerank.js';

export interface RankedVertex {
  vertex: string;
  value: number;
}

/**
 * The k largest values, largest first. Ties are broken by vertex name ascending (JS string order, i.e.
 * UTF-16 code units, not locale), so the answer does not depend on vertex ids or on insertion order.
 * A bounded heap keeps it O(N log k): k = 10 of a million vertices costs one pass.
 */
export function topK(values: ArrayLike<number>, k: number, names: readonly string[]): RankedVertex[] {
  if (!(Number.isSafeInteger(k) && k >= 0))
    throw new InputError(`k must be a non-negative integer, got ${k}`, 'k');
  if (names.length < values.length) {
    throw new InputError(`${values.length} values but only ${names.length} names`, 'names');
  }
  const size = Math.min(k, values.length);
  // before(a, b): a ranks ahead of b.
  const before = (a: number, b: number): boolean => {
    const va = values[a]!;
    const vb = values[b]!;
    if (va !== vb) return va > vb;
    return names[a]! < names[b]!;
  };
  // heap[0] is the weakest of the kept vertices (the one the next better vertex replaces).
  const heap = new Int32Array(size);
  const siftDown = (start: number, length: number): void => {
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= length) return;
      const right = left + 1;
      let weakest = left;
      if (right < length && before(heap[left]!, heap[right]!)) weakest = right;
      if (!before(heap[i]!, heap[weakest]!)) return;
      const swap = heap[i]!;
      heap[i] = heap[weakest]!;
      heap[weakest] = swap;
      i = weakest;
    }
  };
  for (let v = 0; v < size; v++) heap[v] = v;
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(i, size);
  for (let v = size; v < values.length; v++) {
    if (size > 0 && before(v, heap[0]!)) {
      heap[0] = v;
      siftDown(0, size);
    }
  }
  const order = Array.from(heap).sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  return order.map((v) => ({ vertex: names[v]!, value: values[v]! }));
}

/** |A ∩ B| / |A ∪ B| of the two lists taken as sets; two empty sets are identical, so 1. */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  const setA = new Set(a);
  const setB = new Set(b);
  if (setA.size === 0 && setB.size === 0) return 1;
  let common = 0;
  for (const item of setA) if (setB.has(item)) common++;
  return common / (setA.size + setB.size - common);
}

export interface AnalyzeOptions extends PageRankOptions {
  /** How many vertices each top list holds (default 10). */
  topK?: number;
  /** Size of the top sets compared by Jaccard similarity (default 100). */
  jaccardK?: number;
}

export interface GraphAnalysis {
  /** N, every vertex PageRank ran on; unnamedVertices of them have no name (Graph.namedVertexCount). */
  vertices: number;
  unnamedVertices: number;
  edges: number;
  iterations: number;
  converged: boolean;
  delta: number;
  damping: number;
  epsilon: number;
  /** ranks[id] for every vertex, the unnamed ones (ids from namedVertexCount on) included. */
  ranks: Float64Array;
  top: { pageRank: RankedVertex[]; inDegree: RankedVertex[]; outDegree: RankedVertex[] };
  jaccard: { 'inDegree~pageRank': number; 'inDegree~outDegree': number; 'outDegree~pageRank': number };
}

/** The analysis's options when a ranking does not give them: PageRank's, the top list length and Jaccard's k. */
export const ANALYSIS_DEFAULTS = { ...PAGERANK_DEFAULTS, topK: 10, jaccardK: 100 } as const;

/** PageRank plus the queries of docs/reference.md#pagerank: top-k by each measure and the Jaccard overlap of the top-jaccardK sets. */
export function analyzeGraph(graph: Graph, options: AnalyzeOptions = {}): GraphAnalysis {
  checkListSizes(options); // before PageRank runs: a bad list size costs nothing
  return summarizeRanks(graph, pageRank(graph, options), options);
}

function checkListSizes(options: SummaryOptions): { k: number; jaccardK: number } {
  const k = options.topK ?? ANALYSIS_DEFAULTS.topK;
  const jaccardK = options.jaccardK ?? ANALYSIS_DEFAULTS.jaccardK;
  if (!(Number.isSafeInteger(jaccardK) && jaccardK >= 0)) {
    throw new InputError(`jaccardK must be a non-negative integer, got ${jaccardK}`, 'jaccardK');
  }
  if (!(Number.isSafeInteger(k) && k >= 0))
    throw new InputError(`topK must be a non-negative integer, got ${k}`, 'topK');
  return { k, jaccardK };
}

/** What summarizeRanks reads of the options: the damping and epsilon PageRank ran with, and the list sizes. */
type SummaryOptions = Pick<AnalyzeOptions, 'damping' | 'epsilon' | 'topK' | 'jaccardK'>;

/**
 * analyzeGraph's queries over a PageRank computed elsewhere (a service runs PageRank, the costly part, on a
 * worker thread, and these here, where the vertex names are): `result` is pageRank(graph, options)'s.
 */
export function summarizeRanks(
  graph: Graph,
  result: PageRankResult,
  options: SummaryOptions = {},
): GraphAnalysis {
  const damping = options.damping ?? ANALYSIS_DEFAULTS.damping;
  const epsilon = options.epsilon ?? ANALYSIS_DEFAULTS.epsilon;
  const { k, jaccardK } = checkListSizes(options);
  // Top lists and Jaccard sets hold named vertices only: an unnamed one has no name to list it by.
  const named = graph.namedVertexCount;
  const names = graph.names;
  const ranks = result.ranks.subarray(0, named);
  const inDegree = graph.inDegree.subarray(0, named);
  const outDegree = graph.outDegree.subarray(0, named);
  const topNames = (values: ArrayLike<number>) => topK(values, jaccardK, names).map((r) => r.vertex);
  const rankSet = topNames(ranks);
  const inSet = topNames(inDegree);
  const outSet = topNames(outDegree);
  return {
    vertices: graph.vertexCount,
    unnamedVertices: graph.vertexCount - named,
    edges: graph.edgeCount,
    iterations: result.iterations,
    converged: result.converged,
    delta: result.delta,
    damping,
    epsilon,
    ranks: result.ranks,
    top: {
      pageRank: topK(ranks, k, names),
      inDegree: topK(inDegree, k, names),
      outDegree: topK(outDegree, k, names),
    },
    jaccard: {
      'inDegree~pageRank': jaccard(inSet, rankSet),
      'inDegree~outDegree': jaccard(inSet, outSet),
      'outDegree~pageRank': jaccard(outSet, rankSet),
    },
  };
}
