// The structure figures of a link graph (docs/reference.md#graph-structure), as network scientists quote them:
// size, degree, density, reciprocity, weak and strong components, clustering, diameters and the average
// shortest path. Everything is iterative over typed arrays (no recursion: a path of a million vertices must
// not overflow the stack), and the costly searches stop at a work budget or a deadline with bounds instead.
// Sources: Tarjan 1972 (strong components); Schank & Wagner 2005 (triangles by degree order); Takes &
// Kosters 2011 (BoundingDiameters); networkx's definitions, which the figures match (docs/reference.md).

import { TrawlError } from '../../errors.js';
import type { Graph } from './graph.js';

/** What the figures read of a graph: its arrays, not its names (a worker thread gets no names). */
export type GraphTopology = Pick<
  Graph,
  'vertexCount' | 'edgeCount' | 'outOffsets' | 'outTargets' | 'inDegree' | 'outDegree'
>;

export interface StructureOptions {
  /**
   * Edge visits the diameter and shortest-path searches may spend, checked before each breadth-first search:
   * past it they stop and report bounds. Components and clustering are always computed in full.
   */
  workBudget?: number;
  /** Date.now() past which the searches stop with what they have (and components or clustering throw). */
  deadlineAt?: number;
}

/**
 * Enough for every search of an exact average shortest path on a graph of about 5,000 vertices and 120,000
 * edges (every source's search), and for the diameter bounds of far larger ones.
 */
export const DEFAULT_WORK_BUDGET = 2 ** 30;

/** How many of the largest component sizes a summary lists. */
export const LISTED_COMPONENT_SIZES = 10;

export interface ComponentFigures {
  count: number;
  /** Vertices in the largest (0 for an empty graph). */
  largest: number;
  /** The sizes of the largest components, largest first (at most LISTED_COMPONENT_SIZES). */
  sizes: number[];
}

export interface DistanceBounds {
  lower: number;
  upper: number;
}

export interface DiameterFigures {
  /** The longest finite shortest path along edges' directions; the lower bound when not exact. */
  directed: number;
  /** The same with edges taken both ways. */
  undirected: number;
  /**
   * Mean hops of the directed shortest paths over ordered pairs (u, v), u ≠ v, v reachable from u: over every
   * source when exact, else over the averageShortestPathSources sources searched (a uniform sample), null when
   * no pair is connected or no source was searched.
   */
  averageShortestPath: number | null;
  averageShortestPathSources: number;
  /** Both diameters closed (lower = upper) and the average covers every source. */
  exact: boolean;
  bounds: { directed: DistanceBounds; undirected: DistanceBounds };
  /** Breadth-first searches run for these figures. */
  searches: number;
}

export interface GraphStructure {
  vertices: number;
  edges: number;
  /** edges / vertices (Gephi's average degree of a directed graph). */
  averageDegree: number;
  /** edges / (N (N − 1)). */
  density: number;
  /** The share of edges whose reverse edge exists too. */
  reciprocity: number;
  /** Vertices without any edge. */
  isolated: number;
  components: { weak: ComponentFigures; strong: ComponentFigures };
  /** Of the undirected simple graph (each pair linked either way is one edge). */
  clustering: { average: number; transitivity: number };
  diameter: DiameterFigures;
}

export interface VertexStructure {
  /** The local clustering coefficient of each vertex in the undirected simple graph (0 below degree 2). */
  clustering: Float64Array;
  /** Component ids numbered 0, 1, … in the order of each component's smallest vertex id. */
  weakComponent: Int32Array;
  strongComponent: Int32Array;
}

/** Vertices dequeued between two looks at the clock inside a search. */
const CLOCK_EVERY_STEPS = 1 << 16;

/** Keeps the deadline: `passed()` looks at the clock only every CLOCK_EVERY_STEPS calls of `step()`. */
export class Deadline {
  #steps = 0;
  #passed = false;
  constructor(private readonly at: number) {}

  /** A cheap call in a hot loop; true once the deadline has passed. */
  step(): boolean {
    if (++this.#steps < CLOCK_EVERY_STEPS) return this.#passed;
    this.#steps = 0;
    return this.passed();
  }

  passed(): boolean {
    if (!this.#passed && Date.now() > this.at) this.#passed = true;
    return this.#passed;
  }

  /** Components and clustering have no partial answer: past the deadline they throw. */
  check(what: string): void {
    if (this.step()) {
      throw new TrawlError('unprocessable', `the graph's ${what} took longer than the deadline`, {
        field: 'graph',
      });
    }
  }
}

/** Every figure and the per-vertex ones, in one pass of each algorithm. */
export function graphStructure(
  graph: GraphTopology,
  options: StructureOptions = {},
): { figures: GraphStructure; perVertex: VertexStructure } {
  const deadline = new Deadline(options.deadlineAt ?? Number.POSITIVE_INFINITY);
  const budget = new WorkBudget(options.workBudget ?? DEFAULT_WORK_BUDGET);
  const n = graph.vertexCount;
  const undirected = undirectedAdjacency(graph);
  const weak = weakComponents(undirected, deadline);
  const strong = strongComponents(graph, deadline);
  const clustering = clusteringCoefficients(undirected, deadline);
  // The directed bounds first: their few searches are what the budget must never go without. Then the
  // undirected bounds may take half of what is left, of the budget and of the time, so that the average
  // shortest path has a sample even where the bounds do not close.
  const directedBounds = directedDiameterBounds(graph, strong, budget, deadline);
  const undirectedBudget = new WorkBudget((budget.limit - budget.spent) / 2);
  const deadlineAt = options.deadlineAt ?? Number.POSITIVE_INFINITY;
  const undirectedDeadline = new Deadline(
    Number.isFinite(deadlineAt) ? Date.now() + (deadlineAt - Date.now()) / 2 : deadlineAt,
  );
  const undirectedBounds = undirectedDiameter(undirected, weak, undirectedBudget, undirectedDeadline);
  budget.spent += undirectedBudget.spent;
  budget.searches += undirectedBudget.searches;
  const paths = shortestPaths(graph, budget, deadline);
  // Every source searched: its eccentricities are exact, so their maximum is the directed diameter.
  const directed =
    paths.sources === n
      ? { lower: paths.longest, upper: paths.longest }
      : {
          lower: Math.max(directedBounds.lower, paths.longest),
          upper: directedBounds.upper,
        };

  let isolated = 0;
  for (let v = 0; v < n; v++) if (graph.inDegree[v] === 0 && graph.outDegree[v] === 0) isolated++;
  const e = graph.edgeCount;
  const figures: GraphStructure = {
    vertices: n,
    edges: e,
    averageDegree: n === 0 ? 0 : e / n,
    density: n < 2 ? 0 : e / (n * (n - 1)),
    // E directed edges over M undirected pairs: 2 (E − M) of them have their reverse.
    reciprocity: e === 0 ? 0 : (2 * (e - undirected.targets.length / 2)) / e,
    isolated,
    components: { weak: componentFigures(weak.sizes), strong: componentFigures(strong.sizes) },
    clustering: { average: clustering.average, transitivity: clustering.transitivity },
    diameter: {
      directed: directed.lower,
      undirected: undirectedBounds.lower,
      averageShortestPath: paths.pairs === 0 ? null : paths.distanceSum / paths.pairs,
      averageShortestPathSources: paths.sources,
      exact:
        directed.lower === directed.upper &&
        undirectedBounds.lower === undirectedBounds.upper &&
        paths.sources === n,
      bounds: { directed, undirected: { lower: undirectedBounds.lower, upper: undirectedBounds.upper } },
      searches: budget.searches,
    },
  };
  return {
    figures,
    perVertex: {
      clustering: clustering.perVertex,
      weakComponent: weak.ids,
      strongComponent: strong.ids,
    },
  };
}

/** Counts edge visits and searches; `allows()` is asked before each search. */
export class WorkBudget {
  spent = 0;
  searches = 0;
  constructor(readonly limit: number) {}
  allows(): boolean {
    return this.spent < this.limit;
  }
}

/** A CSR adjacency: the neighbours of v are targets[offsets[v] .. offsets[v + 1]), sorted. */
export interface Adjacency {
  vertexCount: number;
  offsets: Int32Array;
  targets: Int32Array;
}

/** The in-edges as a CSR: sources of v sorted, found by one counting pass over the out-edges. */
export function inAdjacency(graph: GraphTopology): Adjacency {
  const n = graph.vertexCount;
  const offsets = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) offsets[v + 1] = offsets[v]! + graph.inDegree[v]!;
  const cursor = offsets.slice(0, n);
  const targets = new Int32Array(graph.edgeCount);
  const { outOffsets, outTargets } = graph;
  for (let u = 0; u < n; u++) {
    const end = outOffsets[u + 1]!;
    for (let j = outOffsets[u]!; j < end; j++) targets[cursor[outTargets[j]!]!++] = u;
  }
  return { vertexCount: n, offsets, targets };
}

/** The undirected simple graph: each vertex's out- and in-neighbours merged, a pair linked both ways once. */
export function undirectedAdjacency(graph: GraphTopology): Adjacency {
  const n = graph.vertexCount;
  const incoming = inAdjacency(graph);
  const offsets = new Int32Array(n + 1);
  const targets = new Int32Array(2 * graph.edgeCount);
  const { outOffsets, outTargets } = graph;
  let write = 0;
  for (let v = 0; v < n; v++) {
    offsets[v] = write;
    let i = outOffsets[v]!;
    const iEnd = outOffsets[v + 1]!;
    let k = incoming.offsets[v]!;
    const kEnd = incoming.offsets[v + 1]!;
    while (i < iEnd && k < kEnd) {
      const a = outTargets[i]!;
      const b = incoming.targets[k]!;
      if (a < b) {
        targets[write++] = a;
        i++;
      } else if (b < a) {
        targets[write++] = b;
        k++;
      } else {
        targets[write++] = a;
        i++;
        k++;
      }
    }
    while (i < iEnd) targets[write++] = outTargets[i++]!;
    while (k < kEnd) targets[write++] = incoming.targets[k++]!;
  }
  offsets[n] = write;
  return { vertexCount: n, offsets, targets: targets.subarray(0, write) };
}

export interface Components {
  /** ids[v]: v's component, numbered in the order of each component's smallest vertex. */
  ids: Int32Array;
  /** sizes[c]: vertices in component c. */
  sizes: Int32Array;
}

/** Weak components: breadth-first search over the undirected graph from each vertex not yet reached, in id order. */
export function weakComponents(undirected: Adjacency, deadline = new Deadline(Infinity)): Components {
  const n = undirected.vertexCount;
  const ids = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  const sizes: number[] = [];
  const { offsets, targets } = undirected;
  for (let s = 0; s < n; s++) {
    if (ids[s] !== -1) continue;
    const component = sizes.length;
    ids[s] = component;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    while (head < tail) {
      deadline.check('weak components');
      const u = queue[head++]!;
      const end = offsets[u + 1]!;
      for (let j = offsets[u]!; j < end; j++) {
        const w = targets[j]!;
        if (ids[w] === -1) {
          ids[w] = component;
          queue[tail++] = w;
        }
      }
    }
    sizes.push(tail);
  }
  return { ids, sizes: Int32Array.from(sizes) };
}

export interface StrongComponents extends Components {
  /**
   * The components in the order Tarjan's algorithm closes them, which is a reverse topological order of the
   * condensation (every edge between two components goes to one closed earlier): closing[k] is a component id.
   */
  closing: Int32Array;
}

/** Strong components by Tarjan's algorithm, with an explicit stack of (vertex, next edge) frames. */
export function strongComponents(graph: GraphTopology, deadline = new Deadline(Infinity)): StrongComponents {
  const n = graph.vertexCount;
  const { outOffsets, outTargets } = graph;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const frames = new Int32Array(n);
  const nextEdge = new Int32Array(n);
  const closedId = new Int32Array(n); // the component of v, numbered in closing order
  let stackSize = 0;
  let counter = 0;
  let closed = 0;
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1) continue;
    let depth = 0;
    index[s] = low[s] = counter++;
    stack[stackSize++] = s;
    onStack[s] = 1;
    frames[depth++] = s;
    nextEdge[s] = outOffsets[s]!;
    while (depth > 0) {
      deadline.check('strong components');
      const v = frames[depth - 1]!;
      if (nextEdge[v]! < outOffsets[v + 1]!) {
        const w = outTargets[nextEdge[v]!++]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack[stackSize++] = w;
          onStack[w] = 1;
          frames[depth++] = w;
          nextEdge[w] = outOffsets[w]!;
        } else if (onStack[w] === 1 && index[w]! < low[v]!) {
          low[v] = index[w]!;
        }
        continue;
      }
      depth--;
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack[--stackSize]!;
          onStack[w] = 0;
          closedId[w] = closed;
        } while (w !== v);
        closed++;
      }
      if (depth > 0) {
        const parent = frames[depth - 1]!;
        if (low[v]! < low[parent]!) low[parent] = low[v]!;
      }
    }
  }
  // Renumber by smallest vertex, as weak components are, and keep the closing order for the condensation.
  const renumber = new Int32Array(closed).fill(-1);
  const ids = new Int32Array(n);
  const sizes = new Int32Array(closed);
  let next = 0;
  for (let v = 0; v < n; v++) {
    const c = closedId[v]!;
    if (renumber[c] === -1) renumber[c] = next++;
    ids[v] = renumber[c]!;
    sizes[ids[v]!]!++;
  }
  const closing = new Int32Array(closed);
  for (let c = 0; c < closed; c++) closing[c] = renumber[c]!;
  return { ids, sizes, closing };
}

function componentFigures(sizes: Int32Array): ComponentFigures {
  const sorted = Int32Array.from(sizes).sort().reverse();
  return {
    count: sizes.length,
    largest: sorted[0] ?? 0,
    sizes: Array.from(sorted.subarray(0, LISTED_COMPONENT_SIZES)),
  };
}

export interface Clustering {
  perVertex: Float64Array;
  /** The mean of perVertex over every vertex (networkx average_clustering: degree < 2 counts 0). */
  average: number;
  /** 3 × triangles / connected triples (networkx transitivity); 0 without triangles. */
  transitivity: number;
}

/**
 * Triangles by degree order: each undirected edge is oriented from the lower (degree, id) end to the higher,
 * and a triangle a < b < c is found once, from a, as b's and c's marks meet. Orienting towards the
 * higher-degree end keeps every vertex's forward list short (at most √(2M) on M edges), so the work is
 * O(M √M) at worst instead of a hub's degree squared. The vertices are renumbered by that order first: the
 * hubs, which most forward lists point to, then sit together in memory, and so do their marks and counts.
 */
export function clusteringCoefficients(undirected: Adjacency, deadline = new Deadline(Infinity)): Clustering {
  const n = undirected.vertexCount;
  const { offsets, targets } = undirected;
  // byRank[r]: the vertex of rank r in (degree, id) order, by a counting sort on degree (stable in id).
  let maxDegree = 0;
  for (let v = 0; v < n; v++) maxDegree = Math.max(maxDegree, offsets[v + 1]! - offsets[v]!);
  const degreeStart = new Int32Array(maxDegree + 2);
  for (let v = 0; v < n; v++) degreeStart[offsets[v + 1]! - offsets[v]! + 1]!++;
  for (let d = 1; d <= maxDegree + 1; d++) degreeStart[d]! += degreeStart[d - 1]!;
  const byRank = new Int32Array(n);
  const rankOf = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    const r = degreeStart[offsets[v + 1]! - offsets[v]!]!++;
    byRank[r] = v;
    rankOf[v] = r;
  }
  // forward[r]: the ranks above r among r's neighbours, written rank by rank (sequentially).
  const forwardOffsets = new Int32Array(n + 1);
  for (let r = 0; r < n; r++) {
    const v = byRank[r]!;
    let count = 0;
    const end = offsets[v + 1]!;
    for (let j = offsets[v]!; j < end; j++) if (rankOf[targets[j]!]! > r) count++;
    forwardOffsets[r + 1] = forwardOffsets[r]! + count;
  }
  const forward = new Int32Array(forwardOffsets[n]!);
  for (let r = 0, at = 0; r < n; r++) {
    const v = byRank[r]!;
    const end = offsets[v + 1]!;
    for (let j = offsets[v]!; j < end; j++) {
      const t = rankOf[targets[j]!]!;
      if (t > r) forward[at++] = t;
    }
  }
  const triangles = new Float64Array(n); // by rank
  // One byte per vertex, set for a's forward list and cleared after: a quarter of an Int32Array's cache lines.
  const marked = new Uint8Array(n);
  for (let a = 0; a < n; a++) {
    deadline.check('clustering');
    const aStart = forwardOffsets[a]!;
    const aEnd = forwardOffsets[a + 1]!;
    if (aEnd - aStart < 2) continue;
    for (let j = aStart; j < aEnd; j++) marked[forward[j]!] = 1;
    for (let j = aStart; j < aEnd; j++) {
      const b = forward[j]!;
      const bEnd = forwardOffsets[b + 1]!;
      let found = 0;
      for (let k = forwardOffsets[b]!; k < bEnd; k++) {
        const c = forward[k]!;
        if (marked[c] === 1) {
          found++;
          triangles[c]!++;
        }
      }
      triangles[a]! += found;
      triangles[b]! += found;
    }
    for (let j = aStart; j < aEnd; j++) marked[forward[j]!] = 0;
  }
  const perVertex = new Float64Array(n);
  let sum = 0;
  let triangleCorners = 0;
  let triples = 0;
  for (let v = 0; v < n; v++) {
    const d = offsets[v + 1]! - offsets[v]!;
    if (d < 2) continue;
    const pairs = (d * (d - 1)) / 2;
    const corners = triangles[rankOf[v]!]!;
    perVertex[v] = corners / pairs;
    sum += perVertex[v]!;
    triangleCorners += corners;
    triples += pairs;
  }
  return {
    perVertex,
    average: n === 0 ? 0 : sum / n,
    transitivity: triangleCorners === 0 ? 0 : triangleCorners / triples,
  };
}

/** One breadth-first search's outcome; `dist` holds the distances of `queue[0 .. reached)` (others −1). */
interface Search {
  /** The largest distance reached (the source's eccentricity in what it can reach); −1 when cut short. */
  eccentricity: number;
  farthest: number;
  reached: number;
  distanceSum: number;
}

// Direction-optimizing search (Beamer, Asanović & Patterson 2012): a level is searched bottom-up (each vertex
// not yet reached looks for a parent in the frontier, and stops at the first) once the frontier's edges
// outnumber 1/ALPHA of the edges left to explore, and top-down again once the frontier is below 1/BETA of
// the vertices (nor does a smaller frontier ever go bottom-up). On a web-like graph the middle levels hold most vertices, and bottom-up skips most of their
// edges. Their paper's constants.
const BOTTOM_UP_ALPHA = 14;
const BOTTOM_UP_BETA = 24;

/**
 * Reusable breadth-first search over an adjacency: distances stay in `dist` until the next search clears the
 * vertices it reached, so a search costs what it reaches plus a pass over N per bottom-up level. `reverse`
 * is the adjacency with every edge turned round (the same one for an undirected graph): the bottom-up
 * levels read it. `within` keeps the search inside one component (vertices whose `componentOf` is it).
 */
class Searcher {
  readonly dist: Int32Array;
  readonly queue: Int32Array;
  #reached = 0;

  constructor(
    private readonly adjacency: Adjacency,
    private readonly reverse: Adjacency,
    private readonly budget: WorkBudget,
    private readonly deadline: Deadline,
  ) {
    this.dist = new Int32Array(adjacency.vertexCount).fill(-1);
    this.queue = new Int32Array(adjacency.vertexCount);
  }

  search(source: number, componentOf?: Int32Array, within = -1): Search {
    const { dist, queue } = this;
    for (let i = 0; i < this.#reached; i++) dist[queue[i]!] = -1;
    const n = this.adjacency.vertexCount;
    const { offsets, targets } = this.adjacency;
    const reverseOffsets = this.reverse.offsets;
    const reverseTargets = this.reverse.targets;
    const restricted = componentOf !== undefined;
    let head = 0;
    let tail = 0;
    dist[source] = 0;
    queue[tail++] = source;
    let visits = 0;
    let distanceSum = 0;
    let unexploredEdges = targets.length - (offsets[source + 1]! - offsets[source]!);
    let bottomUp = false;
    let level = 0;
    let cut = false;
    while (head < tail) {
      if (this.deadline.passed()) {
        cut = true;
        break;
      }
      const levelEnd = tail;
      const next = level + 1;
      let frontierEdges = 0;
      for (let i = head; i < levelEnd; i++) {
        const u = queue[i]!;
        frontierEdges += offsets[u + 1]! - offsets[u]!;
      }
      // A small frontier stays top-down even when few edges are left: a pass over N would cost more.
      bottomUp =
        (levelEnd - head) * BOTTOM_UP_BETA > n &&
        (bottomUp || frontierEdges * BOTTOM_UP_ALPHA > unexploredEdges);
      if (bottomUp) {
        visits += n; // the pass over every vertex counts against the budget as an edge visit each
        for (let v = 0; v < n; v++) {
          if (dist[v] !== -1 || (restricted && componentOf[v] !== within)) continue;
          const end = reverseOffsets[v + 1]!;
          for (let j = reverseOffsets[v]!; j < end; j++) {
            visits++;
            if (dist[reverseTargets[j]!] === level) {
              dist[v] = next;
              queue[tail++] = v;
              break;
            }
          }
        }
        head = levelEnd;
      } else {
        for (; head < levelEnd; head++) {
          const u = queue[head]!;
          const end = offsets[u + 1]!;
          const start = offsets[u]!;
          visits += end - start;
          for (let j = start; j < end; j++) {
            const w = targets[j]!;
            if (dist[w] !== -1 || (restricted && componentOf[w] !== within)) continue;
            dist[w] = next;
            queue[tail++] = w;
          }
        }
      }
      for (let i = levelEnd; i < tail; i++) {
        const w = queue[i]!;
        unexploredEdges -= offsets[w + 1]! - offsets[w]!;
      }
      distanceSum += (tail - levelEnd) * next;
      if (tail > levelEnd) level = next;
    }
    this.#reached = tail;
    this.budget.spent += visits + tail;
    this.budget.searches++;
    const farthest = queue[tail - 1]!;
    if (cut) return { eccentricity: -1, farthest, reached: tail, distanceSum };
    return { eccentricity: level, farthest, reached: tail, distanceSum };
  }
}

/**
 * The undirected diameter by BoundingDiameters (Takes & Kosters): every vertex keeps bounds on its
 * eccentricity, starting at [0, its component's size − 1]; a search from v with eccentricity e tightens each
 * reached w to [max(e − d, d), e + d] with d = d(v, w). A vertex whose upper bound is at most the best
 * eccentricity found cannot raise the diameter and is dropped; the search ends when none is left (exact) or at
 * the budget (bounds). The next source alternates between the largest upper and the smallest lower bound.
 */
export function undirectedDiameter(
  undirected: Adjacency,
  weak: Components,
  budget: WorkBudget,
  deadline = new Deadline(Infinity),
): DistanceBounds {
  const n = undirected.vertexCount;
  const lowerOf = new Int32Array(n);
  const upperOf = new Int32Array(n);
  for (let v = 0; v < n; v++) upperOf[v] = weak.sizes[weak.ids[v]!]! - 1;
  let candidates = new Int32Array(n);
  let count = 0;
  for (let v = 0; v < n; v++) if (upperOf[v]! > 0) candidates[count++] = v;
  candidates = candidates.subarray(0, count);
  const searcher = new Searcher(undirected, undirected, budget, deadline);
  const degree = (v: number) => undirected.offsets[v + 1]! - undirected.offsets[v]!;
  let lower = 0;
  let pickLargestUpper = true;
  // A high-degree vertex sits centrally: its search gives good bounds to everyone first.
  let source = -1;
  for (let i = 0; i < count; i++) {
    const v = candidates[i]!;
    if (source === -1 || degree(v) > degree(source)) source = v;
  }
  while (count > 0 && budget.allows() && !deadline.passed()) {
    const found = searcher.search(source);
    if (found.eccentricity < 0) break;
    const e = found.eccentricity;
    const { dist, queue } = searcher;
    for (let i = 0; i < found.reached; i++) {
      const w = queue[i]!;
      const d = dist[w]!;
      const low = Math.max(e - d, d);
      if (low > lowerOf[w]!) lowerOf[w] = low;
      if (e + d < upperOf[w]!) upperOf[w] = e + d;
      // ecc(w) ≥ its lower bound, and the diameter ≥ every eccentricity
      if (lowerOf[w]! > lower) lower = lowerOf[w]!;
    }
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const w = candidates[i]!;
      if (upperOf[w]! > lower) candidates[kept++] = w;
    }
    count = kept;
    source = -1;
    for (let i = 0; i < count; i++) {
      const w = candidates[i]!;
      if (source === -1) source = w;
      else if (pickLargestUpper) {
        if (upperOf[w]! > upperOf[source]! || (upperOf[w] === upperOf[source] && degree(w) > degree(source)))
          source = w;
      } else if (
        lowerOf[w]! < lowerOf[source]! ||
        (lowerOf[w] === lowerOf[source] && degree(w) > degree(source))
      ) {
        source = w;
      }
    }
    pickLargestUpper = !pickLargestUpper;
  }
  let upper = lower;
  for (let i = 0; i < count; i++) if (upperOf[candidates[i]!]! > upper) upper = upperOf[candidates[i]!]!;
  return { lower, upper };
}

/** Forward and backward sweeps from here and there: each search's eccentricity is a path that exists. */
const DIRECTED_SWEEPS = 4;

/**
 * Bounds on the directed diameter. Lower: alternating forward and backward sweeps from a high-degree vertex
 * of the largest strong component, each from the farthest vertex the last one reached. Upper: a shortest
 * path crosses strong components along the condensation (a DAG), and inside each it is a shortest path of
 * that component alone (leaving and coming back would put the vertices in between in it too). So it is at
 * most the heaviest condensation path, weighing each component by a bound on its own diameter (its size − 1,
 * or ecc_out(c) + ecc_in(c) from any c of it) plus 1 per edge between components.
 */
export function directedDiameterBounds(
  graph: GraphTopology,
  strong: StrongComponents,
  budget: WorkBudget,
  deadline = new Deadline(Infinity),
): DistanceBounds {
  const n = graph.vertexCount;
  if (n === 0) return { lower: 0, upper: 0 };
  const outgoing: Adjacency = { vertexCount: n, offsets: graph.outOffsets, targets: graph.outTargets };
  const incoming = inAdjacency(graph);
  const forward = new Searcher(outgoing, incoming, budget, deadline);
  const backward = new Searcher(incoming, outgoing, budget, deadline);
  const componentCount = strong.sizes.length;
  // Each component's most connected vertex: its searches start there.
  const hub = new Int32Array(componentCount).fill(-1);
  const links = (v: number) => graph.outDegree[v]! + graph.inDegree[v]!;
  for (let v = 0; v < n; v++) {
    const c = strong.ids[v]!;
    if (hub[c] === -1 || links(v) > links(hub[c]!)) hub[c] = v;
  }
  let largest = 0;
  for (let c = 1; c < componentCount; c++) if (strong.sizes[c]! > strong.sizes[largest]!) largest = c;

  let lower = 0;
  let source = hub[largest]!;
  for (let sweep = 0; sweep < DIRECTED_SWEEPS && budget.allows() && !deadline.passed(); sweep++) {
    const found = (sweep % 2 === 0 ? forward : backward).search(source);
    if (found.eccentricity < 0) break;
    if (found.eccentricity > lower) lower = found.eccentricity;
    source = found.farthest;
  }

  // Components by size, largest first, get the two searches while the budget lasts; the rest keep size − 1.
  const weight = new Float64Array(componentCount);
  for (let c = 0; c < componentCount; c++) weight[c] = strong.sizes[c]! - 1;
  const bySize = Array.from(strong.sizes.keys()).sort((a, b) => strong.sizes[b]! - strong.sizes[a]!);
  for (const c of bySize) {
    if (weight[c]! <= 2 || !budget.allows() || deadline.passed()) break;
    const out = forward.search(hub[c]!, strong.ids, c);
    const into = backward.search(hub[c]!, strong.ids, c);
    if (out.eccentricity < 0 || into.eccentricity < 0) break;
    lower = Math.max(lower, out.eccentricity, into.eccentricity);
    weight[c] = Math.min(weight[c]!, out.eccentricity + into.eccentricity);
  }

  // heaviest[c]: the heaviest condensation path starting in c. Components close after their successors.
  const heaviest = new Float64Array(componentCount);
  const members = componentMembers(strong);
  let upper = 0;
  for (const c of strong.closing) {
    let best = 0;
    for (let i = members.offsets[c]!; i < members.offsets[c + 1]!; i++) {
      const u = members.targets[i]!;
      const end = graph.outOffsets[u + 1]!;
      for (let j = graph.outOffsets[u]!; j < end; j++) {
        const d = strong.ids[graph.outTargets[j]!]!;
        if (d !== c && 1 + heaviest[d]! > best) best = 1 + heaviest[d]!;
      }
    }
    heaviest[c] = weight[c]! + best;
    if (heaviest[c]! > upper) upper = heaviest[c]!;
  }
  return { lower, upper: Math.max(lower, upper) };
}

/** The vertices of each component, grouped: a CSR from component to its vertices. */
function componentMembers(components: Components): Adjacency {
  const count = components.sizes.length;
  const offsets = new Int32Array(count + 1);
  for (let c = 0; c < count; c++) offsets[c + 1] = offsets[c]! + components.sizes[c]!;
  const cursor = offsets.slice(0, count);
  const targets = new Int32Array(components.ids.length);
  for (let v = 0; v < components.ids.length; v++) targets[cursor[components.ids[v]!]!++] = v;
  return { vertexCount: count, offsets, targets };
}

/** A fixed seed: the sample of sources, and so an estimated average, is the same on every run. */
const SOURCE_ORDER_SEED = 0x5eed;

/**
 * Directed breadth-first searches from every source, in a fixed pseudo-random order, while the budget lasts:
 * the sums of distances and the counts of reachable pairs give the average shortest path, over every source
 * or over a uniform sample of them; the largest eccentricity seen is a lower bound on the directed diameter
 * (the diameter itself once every source is searched).
 */
export function shortestPaths(
  graph: GraphTopology,
  budget: WorkBudget,
  deadline = new Deadline(Infinity),
): { sources: number; pairs: number; distanceSum: number; longest: number } {
  const n = graph.vertexCount;
  const order = new Int32Array(n);
  for (let v = 0; v < n; v++) order[v] = v;
  let state = SOURCE_ORDER_SEED;
  for (let i = n - 1; i > 0; i--) {
    // xorshift32: enough to spread a sample over the vertex ids
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const j = (state >>> 0) % (i + 1);
    const swap = order[i]!;
    order[i] = order[j]!;
    order[j] = swap;
  }
  const outgoing: Adjacency = { vertexCount: n, offsets: graph.outOffsets, targets: graph.outTargets };
  const searcher = new Searcher(outgoing, inAdjacency(graph), budget, deadline);
  let sources = 0;
  let pairs = 0;
  let distanceSum = 0;
  let longest = 0;
  while (sources < n && budget.allows() && !deadline.passed()) {
    const found = searcher.search(order[sources]!);
    if (found.eccentricity < 0) break;
    sources++;
    pairs += found.reached - 1;
    distanceSum += found.distanceSum;
    if (found.eccentricity > longest) longest = found.eccentricity;
  }
  return { sources, pairs, distanceSum, longest };
}
