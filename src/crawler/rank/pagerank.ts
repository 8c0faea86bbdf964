// PageRank by power iteration (docs/reference.md#pagerank; Page, Brin, Motwani & Winograd 1999), with the
// topic-sensitive variant of Haveliwala (WWW 2002): teleport only to a chosen set of vertices.
// Pull-style over the in-edges, regrouped once by source block (blockedInEdges); nothing allocated per iteration.

import { InputError } from '../../errors.js';
import type { Graph } from './graph.js';

export interface PageRankOptions {
  /** β, the probability of following a link rather than teleporting. */
  damping?: number;
  /** Stop once the L1 norm of v_{t+1} − v_t is ≤ epsilon. */
  epsilon?: number;
  maxIterations?: number;
  /** Vertex ids of the teleport set (topic-sensitive PageRank); absent means every vertex. */
  personalization?: Int32Array | readonly number[];
  /** Sources per cache block (a tuning knob; the result does not depend on it, bit for bit). */
  blockVertices?: number;
}

export interface PageRankResult {
  /** ranks[id], summing to 1. */
  ranks: Float64Array;
  /** Updates performed: v_0 is the uniform vector, the result is v_iterations. */
  iterations: number;
  converged: boolean;
  /** L1 norm of the last update (Infinity when no update was performed). */
  delta: number;
}

/** β, ε and the iteration cap when a ranking does not give them (the API schema shows them as defaults). */
export const PAGERANK_DEFAULTS = { damping: 0.85, epsilon: 1e-6, maxIterations: 1000 } as const;

/**
 * v_{t+1}[v] = β · Σ_{u→v} v_t[u] / outDegree(u) + (β · D_t + 1 − β) · t[v], starting from v_0 = 1/N.
 *
 * t is the teleport distribution: 1/N for every vertex, or 1/|P| on the personalization set P and 0
 * elsewhere. D_t is the rank held by dangling vertices (no out-links); it is spread like the teleport,
 * i.e. uniformly over all vertices, or only over P when P is given — a dangling page behaves as if it
 * linked to every page (or to every page of the topic). This keeps Σ v_t = 1 and matches networkx's
 * default (`dangling=None` uses the personalization vector).
 *
 * Iteration stops at the first t with ‖v_{t+1} − v_t‖₁ ≤ ε, so a smaller ε never takes fewer iterations.
 * Reaching maxIterations first returns the last vector with converged = false.
 */
export function pageRank(graph: Graph, options: PageRankOptions = {}): PageRankResult {
  const damping = options.damping ?? PAGERANK_DEFAULTS.damping;
  const epsilon = options.epsilon ?? PAGERANK_DEFAULTS.epsilon;
  const maxIterations = options.maxIterations ?? PAGERANK_DEFAULTS.maxIterations;
  if (!(damping >= 0 && damping <= 1)) {
    throw new InputError(`damping must be in [0, 1], got ${damping}`, 'damping');
  }
  if (!(epsilon > 0 && Number.isFinite(epsilon))) {
    throw new InputError(`epsilon must be a positive number, got ${epsilon}`, 'epsilon');
  }
  if (!(Number.isSafeInteger(maxIterations) && maxIterations >= 0)) {
    throw new InputError(
      `maxIterations must be a non-negative integer, got ${maxIterations}`,
      'maxIterations',
    );
  }

  const n = graph.vertexCount;
  if (n === 0) return { ranks: new Float64Array(0), iterations: 0, converged: true, delta: 0 };

  const teleport = teleportVector(n, options.personalization);
  const { outDegree } = graph;

  const inverseOutDegree = new Float64Array(n);
  for (let u = 0; u < n; u++) {
    const degree = outDegree[u]!;
    if (degree > 0) inverseOutDegree[u] = 1 / degree;
  }

  const blockVertices = options.blockVertices ?? BLOCK_VERTICES;
  if (!(Number.isSafeInteger(blockVertices) && blockVertices > 0)) {
    throw new InputError(`blockVertices must be a positive integer, got ${blockVertices}`, 'blockVertices');
  }
  const { targets, ends, sources } = blockedInEdges(graph, blockVertices);
  const runCount = targets.length;

  let current = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  // share[u] = v_t[u] / outDegree(u): what u passes along each out-link this round; danglingRank = D_t.
  let share = new Float64Array(n);
  let nextShare = new Float64Array(n);
  let danglingRank = 0;
  for (let u = 0; u < n; u++) {
    share[u] = current[u]! * inverseOutDegree[u]!;
    if (outDegree[u] === 0) danglingRank += current[u]!;
  }

  let iterations = 0;
  let delta = Number.POSITIVE_INFINITY;
  let converged = false;
  while (iterations < maxIterations) {
    const teleportMass = damping * danglingRank + 1 - damping;

    // next[v] = Σ share over v's in-edges, run by run: block by block, sources ascending within a block,
    // so every sum is added in the same order as one pass over v's sorted in-edges would (bit for bit).
    next.fill(0);
    let j = 0;
    for (let r = 0; r < runCount; r++) {
      const v = targets[r]!;
      let sum = next[v]!;
      const end = ends[r]!;
      for (; j < end; j++) sum += share[sources[j]!]!;
      next[v] = sum;
    }
    // The update, with the next round's shares and dangling rank folded in (one pass instead of three).
    delta = 0;
    danglingRank = 0;
    for (let v = 0; v < n; v++) {
      const value = damping * next[v]! + teleportMass * teleport[v]!;
      delta += Math.abs(value - current[v]!);
      next[v] = value;
      nextShare[v] = value * inverseOutDegree[v]!;
      if (outDegree[v] === 0) danglingRank += value;
    }
    const previous = current;
    current = next;
    next = previous;
    const previousShare = share;
    share = nextShare;
    nextShare = previousShare;
    iterations++;
    if (delta <= epsilon) {
      converged = true;
      break;
    }
  }
  return { ranks: current, iterations, converged, delta };
}

// 128k sources = 1 MB of shares, which stay in cache while their block is gathered: smaller blocks pay more
// runs per target, larger ones more cache misses (docs/benchmarks.md#rank).
const BLOCK_VERTICES = 1 << 17;

/**
 * Cache blocking: the gather share[source] is random over all N sources, and at 1M vertices (8 MB of
 * shares) most reads miss the cache and the TLB. So the in-edges are regrouped by source block: block b
 * holds, for each target with an in-edge from sources [b·B, (b+1)·B), one run (target, end) whose sources
 * sit contiguously in `sources`, sorted. Blocks come in order, so a sweep reads `sources` front to back,
 * gathers from one block's shares at a time, and touches only targets that have in-edges from the block
 * (a full sweep of N targets per block made small blocks too costly).
 *
 * Built from the out-edges, one block at a time, by a counting sort of the block's edges by target: the
 * block's sources are walked in id order, so each run comes out sorted. Transposing the whole graph first
 * (an in-edge CSR, then regrouped) would write every edge to a random place in an array of all E edges; a
 * block's scatter stays within its own share of them, and nothing else wants the in-edge CSR.
 */
function blockedInEdges(
  graph: Graph,
  blockVertices: number,
): { targets: Int32Array; ends: Int32Array; sources: Int32Array } {
  const { vertexCount: n, edgeCount, outOffsets, outTargets } = graph;
  const blockCount = Math.max(1, Math.ceil(n / blockVertices));
  // A run per (block, target) pair with an edge: at most the block's edges, and at most N.
  let runCapacity = 0;
  for (let b = 0; b < blockCount; b++) {
    const first = b * blockVertices;
    const last = Math.min(n, first + blockVertices);
    runCapacity += Math.min(n, outOffsets[last]! - outOffsets[first]!);
  }
  const targets = new Int32Array(runCapacity);
  const ends = new Int32Array(runCapacity);
  const sources = new Int32Array(edgeCount);
  // cursor[v]: first the block's in-degree of v, then where its next source goes.
  const cursor = new Int32Array(n);
  let runs = 0;
  for (let b = 0; b < blockCount; b++) {
    const first = b * blockVertices;
    const last = Math.min(n, first + blockVertices);
    const edgesEnd = outOffsets[last]!;
    for (let j = outOffsets[first]!; j < edgesEnd; j++) cursor[outTargets[j]!]!++;
    let at = outOffsets[first]!;
    for (let v = 0; v < n; v++) {
      const count = cursor[v]!;
      if (count === 0) continue;
      targets[runs] = v;
      ends[runs++] = at + count;
      cursor[v] = at;
      at += count;
    }
    for (let u = first; u < last; u++) {
      const end = outOffsets[u + 1]!;
      for (let j = outOffsets[u]!; j < end; j++) sources[cursor[outTargets[j]!]!++] = u;
    }
    cursor.fill(0);
  }
  // Views, not copies: the unused tail was never written, so it takes no memory.
  return { targets: targets.subarray(0, runs), ends: ends.subarray(0, runs), sources };
}

function teleportVector(
  n: number,
  personalization: Int32Array | readonly number[] | undefined,
): Float64Array {
  const teleport = new Float64Array(n);
  if (personalization === undefined) return teleport.fill(1 / n);
  let members = 0;
  for (let i = 0; i < personalization.length; i++) {
    const id = personalization[i]!;
    if (!(Number.isInteger(id) && id >= 0 && id < n)) {
      throw new InputError(`personalization[${i}] is not a vertex id: ${id}`, 'personalization', {
        index: i,
      });
    }
    if (teleport[id] === 0) {
      teleport[id] = 1;
      members++;
    }
  }
  if (members === 0) throw new InputError('personalization set is empty', 'personalization');
  for (let v = 0; v < n; v++) teleport[v]! /= members;
  return teleport;
}
