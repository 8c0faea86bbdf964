import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Graph, GraphBuilder } from '../../../src/crawler/rank/graph.js';
import { pageRank } from '../../../src/crawler/rank/pagerank.js';
import { InputError } from '../../../src/errors.js';

function graphOf(edges: Array<[string, string]>, vertices: string[] = []): Graph {
  const builder = new GraphBuilder();
  for (const v of vertices) builder.addVertex(v);
  for (const [from, to] of edges) builder.addEdge(from, to);
  return builder.build();
}

function rankOf(graph: Graph, ranks: Float64Array, name: string): number {
  return ranks[graph.indexOf(name)!]!;
}

// A→B, A→C, B→C, C→A with β = 0.85, N = 3, t = (1 − β)/N = 0.05, no dangling vertex:
//   rA = t + β·rC,  rB = t + β·rA/2,  rC = t + β·(rA/2 + rB)
// Substituting rB and rC into rA: rA·(1 − β²/2 − β³/2) = t·(1 + β + β²) ⇒ rA = 686/1769,
// then rB = 380/1769, rC = 703/1769 (sum 1).
const cycle: Array<[string, string]> = [
  ['A', 'B'],
  ['A', 'C'],
  ['B', 'C'],
  ['C', 'A'],
];

test('pageRank matches the hand-solved fixed point of a small graph', () => {
  const graph = graphOf(cycle);
  const result = pageRank(graph, { epsilon: 1e-12 });
  assert.equal(result.converged, true);
  assert.ok(result.delta <= 1e-12);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'A') - 686 / 1769) < 1e-11);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'B') - 380 / 1769) < 1e-11);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'C') - 703 / 1769) < 1e-11);
});

test('one iteration from the uniform vector, by hand', () => {
  // v0 = 1/3 each. v1[A] = 0.05 + 0.85·(1/3) = 1/3; v1[B] = 0.05 + 0.85·(1/6) = 0.191666…;
  // v1[C] = 0.05 + 0.85·(1/6 + 1/3) = 0.475; ‖v1 − v0‖₁ = 0 + 0.141666… + 0.141666… = 0.283333…
  const graph = graphOf(cycle);
  const result = pageRank(graph, { maxIterations: 1 });
  assert.equal(result.iterations, 1);
  assert.equal(result.converged, false);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'A') - 1 / 3) < 1e-15);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'B') - (0.05 + 0.85 / 6)) < 1e-15);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'C') - 0.475) < 1e-15);
  assert.ok(Math.abs(result.delta - 2 * (0.475 - 1 / 3)) < 1e-15);
});

test('dangling vertices spread their rank uniformly over all vertices', () => {
  // A→B, A→C, B→C; C has no out-links, so its rank D = rC goes 1/3 to each vertex:
  //   rA = t + β·rC/3,  rB = t + β·(rA/2 + rC/3),  rC = t + β·(rA/2 + rB + rC/3),  t = 0.05
  // Solved exactly: rA = 800/4049, rB = 1140/4049, rC = 2109/4049 (sum 1).
  const graph = graphOf([
    ['A', 'B'],
    ['A', 'C'],
    ['B', 'C'],
  ]);
  const result = pageRank(graph, { epsilon: 1e-13 });
  assert.equal(result.converged, true);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'A') - 800 / 4049) < 1e-12);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'B') - 1140 / 4049) < 1e-12);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'C') - 2109 / 4049) < 1e-12);
  const total = result.ranks.reduce((sum, r) => sum + r, 0);
  assert.ok(Math.abs(total - 1) < 1e-12);
});

test('topic-sensitive PageRank teleports only to the personalization set', () => {
  // The cycle graph plus D→A, teleport set {A}: all (1 − β) of the teleport lands on A, D has no in-links.
  //   rA = (1 − β) + β·(rC + rD),  rB = β·rA/2,  rC = β·(rA/2 + rB),  rD = 0
  // rC = rA·β(1 + β)/2 ⇒ rA = (1 − β)/(1 − β²(1 + β)/2) = 800/1769, rB = 340/1769, rC = 629/1769.
  const graph = graphOf([...cycle, ['D', 'A']]);
  const result = pageRank(graph, { epsilon: 1e-13, personalization: [graph.indexOf('A')!] });
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'A') - 800 / 1769) < 1e-12);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'B') - 340 / 1769) < 1e-12);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'C') - 629 / 1769) < 1e-12);
  assert.equal(rankOf(graph, result.ranks, 'D'), 0);
});

test('with a personalization set, dangling rank goes to that set only', () => {
  // A→B and B dangling, teleport set {B}: nothing ever flows to A after the first step.
  // rA = 0 (no in-links, not in the set); rB = (1 − β) + β·(rA + rB) ⇒ rB = 1.
  const graph = graphOf([['A', 'B']]);
  const result = pageRank(graph, { epsilon: 1e-14, personalization: new Int32Array([graph.indexOf('B')!]) });
  assert.equal(rankOf(graph, result.ranks, 'A'), 0);
  assert.ok(Math.abs(rankOf(graph, result.ranks, 'B') - 1) < 1e-13);
});

test('a smaller epsilon never gives fewer iterations', () => {
  const graph = graphOf([...cycle, ['D', 'A'], ['B', 'E'], ['E', 'D'], ['A', 'F']]);
  let previous = 0;
  const seen = new Set<number>();
  for (let exponent = 1; exponent <= 14; exponent++) {
    const { iterations, converged } = pageRank(graph, { epsilon: 10 ** -exponent });
    assert.equal(converged, true);
    assert.ok(iterations >= previous, `ε = 1e-${exponent}: ${iterations} < ${previous}`);
    previous = iterations;
    seen.add(iterations);
  }
  assert.ok(seen.size > 5, 'ε should matter');
});

test('hitting maxIterations is reported as not converged', () => {
  const graph = graphOf(cycle);
  const result = pageRank(graph, { epsilon: 1e-15, maxIterations: 5 });
  assert.equal(result.iterations, 5);
  assert.equal(result.converged, false);
  assert.ok(result.delta > 1e-15);
  const none = pageRank(graph, { maxIterations: 0 });
  assert.equal(none.iterations, 0);
  assert.equal(none.converged, false);
  assert.deepEqual([...none.ranks], [1 / 3, 1 / 3, 1 / 3]);
});

test('empty graph and bad options', () => {
  const empty = pageRank(new GraphBuilder().build());
  assert.deepEqual(empty, { ranks: new Float64Array(0), iterations: 0, converged: true, delta: 0 });
  const graph = graphOf(cycle);
  assert.throws(
    () => pageRank(graph, { damping: 1.5 }),
    (e: unknown) => e instanceof InputError && e.field === 'damping',
  );
  assert.throws(
    () => pageRank(graph, { epsilon: 0 }),
    (e: unknown) => e instanceof InputError && e.field === 'epsilon',
  );
  assert.throws(
    () => pageRank(graph, { personalization: [7] }),
    (e: unknown) => e instanceof InputError && e.field === 'personalization',
  );
  assert.throws(() => pageRank(graph, { personalization: [] }), InputError);
});

test('cache blocking does not change the result, bit for bit', () => {
  // A pseudo-random graph of 300 vertices, ranked in one block and in blocks of 7 sources.
  const builder = new GraphBuilder({ duplicateEdges: 'drop', selfLoops: 'drop' });
  let state = 42;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state >>> 8;
  };
  for (let v = 0; v < 300; v++) builder.addVertex(`v${v}`);
  for (let e = 0; e < 2000; e++) builder.addEdgeById(next() % 300, next() % 40 === 0 ? 0 : next() % 300);
  const graph = builder.build();
  for (const options of [{}, { personalization: [3, 5, 250] }]) {
    const whole = pageRank(graph, { ...options, epsilon: 1e-12 });
    const blocked = pageRank(graph, { ...options, epsilon: 1e-12, blockVertices: 7 });
    assert.equal(blocked.iterations, whole.iterations);
    assert.deepEqual(blocked.ranks, whole.ranks);
  }
});
