import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GraphBuilder } from '../../../src/crawler/rank/graph.js';
import { Deadline, graphStructure, shortestPaths, WorkBudget } from '../../../src/crawler/rank/structure.js';
import { TrawlError } from '../../../src/errors.js';

function graphOf(edges: Array<[string, string]>, options: { vertices?: string[]; unnamed?: number } = {}) {
  const builder = new GraphBuilder();
  for (const name of options.vertices ?? []) builder.addVertex(name);
  for (const [from, to] of edges) builder.addEdge(from, to);
  return builder.build({ vertexCount: builder.vertexCount + (options.unnamed ?? 0) });
}

test('an empty graph has zero figures, no components and an exact, empty diameter', () => {
  const { figures } = graphStructure(graphOf([]));
  assert.equal(figures.vertices, 0);
  assert.equal(figures.averageDegree, 0);
  assert.equal(figures.density, 0);
  assert.equal(figures.reciprocity, 0);
  assert.deepEqual(figures.components.weak, { count: 0, largest: 0, sizes: [] });
  assert.deepEqual(figures.clustering, { average: 0, transitivity: 0 });
  assert.equal(figures.diameter.exact, true);
  assert.equal(figures.diameter.averageShortestPath, null);
});

test('a directed 4-cycle: one strong component, diameter 3 one way and 2 both ways', () => {
  const { figures, perVertex } = graphStructure(
    graphOf([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'a'],
    ]),
  );
  assert.equal(figures.edges, 4);
  assert.equal(figures.averageDegree, 1);
  assert.equal(figures.density, 4 / 12);
  assert.equal(figures.reciprocity, 0);
  assert.equal(figures.isolated, 0);
  assert.deepEqual(figures.components.weak, { count: 1, largest: 4, sizes: [4] });
  assert.deepEqual(figures.components.strong, { count: 1, largest: 4, sizes: [4] });
  // a 4-cycle taken undirected has no triangle
  assert.deepEqual(figures.clustering, { average: 0, transitivity: 0 });
  assert.deepEqual([...perVertex.clustering], [0, 0, 0, 0]);
  assert.equal(figures.diameter.directed, 3);
  assert.equal(figures.diameter.undirected, 2);
  // from each vertex: 1 + 2 + 3 hops to the three others
  assert.equal(figures.diameter.averageShortestPath, 2);
  assert.equal(figures.diameter.averageShortestPathSources, 4);
  assert.equal(figures.diameter.exact, true);
});

test('a reciprocal triangle with a pendant and an isolated vertex', () => {
  const { figures, perVertex } = graphStructure(
    graphOf(
      [
        ['a', 'b'],
        ['b', 'a'],
        ['b', 'c'],
        ['c', 'b'],
        ['c', 'a'],
        ['a', 'c'],
        ['c', 'd'],
      ],
      { unnamed: 1 },
    ),
  );
  assert.equal(figures.vertices, 5);
  assert.equal(figures.isolated, 1);
  assert.equal(figures.reciprocity, 6 / 7);
  assert.deepEqual(figures.components.weak, { count: 2, largest: 4, sizes: [4, 1] });
  assert.deepEqual(figures.components.strong, { count: 3, largest: 3, sizes: [3, 1, 1] });
  assert.deepEqual([...perVertex.weakComponent], [0, 0, 0, 0, 1]);
  assert.deepEqual([...perVertex.strongComponent], [0, 0, 0, 1, 2]);
  // c has degree 3: one of its three neighbour pairs is linked
  assert.deepEqual([...perVertex.clustering], [1, 1, 1 / 3, 0, 0]);
  assert.equal(figures.clustering.average, (1 + 1 + 1 / 3) / 5);
  // one triangle; connected triples: a 1, b 1, c 3
  assert.equal(figures.clustering.transitivity, 3 / 5);
  assert.equal(figures.diameter.directed, 2);
  assert.equal(figures.diameter.undirected, 2);
  // six pairs inside the triangle at 1 hop, then a → d 2, b → d 2, c → d 1
  assert.equal(figures.diameter.averageShortestPath, 11 / 9);
  assert.equal(figures.diameter.exact, true);
});

test('a chain of 200,000 vertices: no recursion, both diameters closed by bounds alone', () => {
  const n = 200_000;
  const builder = new GraphBuilder();
  for (let v = 0; v < n; v++) builder.addVertex(`v${v}`);
  for (let v = 0; v + 1 < n; v++) builder.addEdgeById(v, v + 1);
  const { figures } = graphStructure(builder.build(), { workBudget: 8_000_000 });
  assert.equal(figures.components.strong.count, n);
  assert.equal(figures.components.weak.count, 1);
  assert.deepEqual(figures.diameter.bounds.directed, { lower: n - 1, upper: n - 1 });
  assert.deepEqual(figures.diameter.bounds.undirected, { lower: n - 1, upper: n - 1 });
  // every source's search would cost Σ n − i edge visits: the average is over a sample, so not exact
  assert.ok(figures.diameter.averageShortestPathSources < n);
  assert.equal(figures.diameter.exact, false);
});

test('without budget the diameters are bounds that hold the true values, and not exact', () => {
  const { figures } = graphStructure(
    graphOf([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'd'],
      ['d', 'a'],
    ]),
    { workBudget: 0 },
  );
  const { bounds } = figures.diameter;
  assert.ok(bounds.directed.lower <= 3 && 3 <= bounds.directed.upper);
  assert.ok(bounds.undirected.lower <= 2 && 2 <= bounds.undirected.upper);
  assert.equal(figures.diameter.averageShortestPath, null);
  assert.equal(figures.diameter.averageShortestPathSources, 0);
  assert.equal(figures.diameter.searches, 0);
  assert.equal(figures.diameter.exact, false);
  // components and clustering ignore the budget
  assert.equal(figures.components.strong.count, 1);
});

test('past its deadline the searches stop with bounds, and components throw', () => {
  const n = 200_000;
  const builder = new GraphBuilder();
  for (let v = 0; v < n; v++) builder.addVertex(`v${v}`);
  for (let v = 0; v + 1 < n; v++) builder.addEdgeById(v, v + 1);
  const graph = builder.build();
  assert.throws(
    () => graphStructure(graph, { deadlineAt: 0 }),
    (error: unknown) =>
      error instanceof TrawlError && error.code === 'unprocessable' && error.field === 'graph',
  );
  const paths = shortestPaths(graph, new WorkBudget(Number.POSITIVE_INFINITY), new Deadline(0));
  assert.equal(paths.sources, 0);
});
