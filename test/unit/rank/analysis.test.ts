import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeGraph, jaccard, topK } from '../../../src/crawler/rank/analysis.js';
import { GraphBuilder } from '../../../src/crawler/rank/graph.js';
import { pageRank } from '../../../src/crawler/rank/pagerank.js';

test('topK sorts descending and breaks ties by vertex name ascending', () => {
  const names = ['e', 'c', 'a', 'd', 'b'];
  const values = [1, 3, 3, 2, 3];
  assert.deepEqual(topK(values, 3, names), [
    { vertex: 'a', value: 3 },
    { vertex: 'b', value: 3 },
    { vertex: 'c', value: 3 },
  ]);
  assert.deepEqual(
    topK(values, 10, names).map((r) => r.vertex),
    ['a', 'b', 'c', 'd', 'e'],
  );
  assert.deepEqual(topK(values, 0, names), []);
  assert.deepEqual(topK(new Int32Array(0), 3, []), []);
});

test('topK agrees with a full sort on many tied values', () => {
  const n = 2000;
  const names = Array.from({ length: n }, (_, i) => `v${(i * 7919) % n}`);
  const values = Array.from({ length: n }, (_, i) => (i * 31) % 17);
  const full = names
    .map((vertex, i) => ({ vertex, value: values[i]! }))
    .sort((a, b) => b.value - a.value || (a.vertex < b.vertex ? -1 : 1));
  for (const k of [1, 7, 50, 333]) assert.deepEqual(topK(values, k, names), full.slice(0, k));
});

test('jaccard is |A∩B| / |A∪B| over sets, 1 for two empty sets', () => {
  assert.equal(jaccard(['a', 'b', 'c'], ['b', 'c', 'd']), 0.5);
  assert.equal(jaccard(['a', 'a', 'b'], ['b', 'a']), 1);
  assert.equal(jaccard([], []), 1);
  assert.equal(jaccard(['a'], []), 0);
  assert.equal(jaccard(['a'], ['b']), 0);
});

test('analyzeGraph reports PageRank, degree top lists and their Jaccard overlap', () => {
  // A star: everyone links to hub; hub links to s0 only.
  const builder = new GraphBuilder();
  for (let i = 0; i < 6; i++) builder.addEdge(`s${i}`, 'hub');
  builder.addEdge('hub', 's0');
  builder.addEdge('s1', 's2');
  const graph = builder.build();
  const analysis = analyzeGraph(graph, { topK: 2, jaccardK: 2, epsilon: 1e-10 });
  const direct = pageRank(graph, { epsilon: 1e-10 });
  assert.equal(analysis.vertices, 7);
  assert.equal(analysis.edges, 8);
  assert.equal(analysis.iterations, direct.iterations);
  assert.equal(analysis.converged, true);
  assert.equal(analysis.damping, 0.85);
  assert.equal(analysis.epsilon, 1e-10);
  assert.deepEqual(analysis.ranks, direct.ranks);
  assert.deepEqual(
    analysis.top.pageRank.map((r) => r.vertex),
    ['hub', 's0'],
  );
  assert.deepEqual(analysis.top.inDegree, [
    { vertex: 'hub', value: 6 },
    { vertex: 's0', value: 1 },
  ]);
  assert.deepEqual(analysis.top.outDegree, [
    { vertex: 's1', value: 2 },
    { vertex: 'hub', value: 1 },
  ]);
  // top-2 sets: inDegree {hub, s0}, pageRank {hub, s0}, outDegree {s1, hub}.
  assert.deepEqual(analysis.jaccard, {
    'inDegree~pageRank': 1,
    'inDegree~outDegree': 1 / 3,
    'outDegree~pageRank': 1 / 3,
  });
});
