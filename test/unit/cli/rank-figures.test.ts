import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graphFigureLines } from '../../../src/cli/format.js';
import type { GraphFigures } from '../../../src/schemas/rankings.js';

const figures: GraphFigures = {
  vertices: 4604,
  edges: 119772,
  averageDegree: 26.014769765421374,
  density: 0.005651698841064821,
  reciprocity: 0.22100323948836123,
  isolated: 12,
  components: {
    weak: { count: 14, largest: 4589, sizes: [4589, 3] },
    strong: { count: 531, largest: 4051, sizes: [4051, 6] },
  },
  clustering: { average: 0.2742269574733851, transitivity: 0.10294055595572603 },
  diameter: {
    directed: 9,
    undirected: 5,
    averageShortestPath: 3.202522563331053,
    averageShortestPathSources: 4604,
    exact: true,
    bounds: { directed: { lower: 9, upper: 9 }, undirected: { lower: 5, upper: 5 } },
    searches: 4649,
  },
};

test('trawl rank words the structure figures a line per theme', () => {
  assert.deepEqual(graphFigureLines(figures), [
    'graph     4604 nodes and 119772 links; average degree 26.015; density 0.006; reciprocity 0.221; 12 isolated',
    'components 14 weak (largest 4589), 531 strong (largest 4051)',
    'clustering average 0.274, transitivity 0.103',
    'diameter  9 directed, 5 undirected; average shortest path 3.203',
  ]);
});

test('a diameter that did not close shows its bounds, and a sampled average says so', () => {
  const lines = graphFigureLines({
    ...figures,
    diameter: {
      ...figures.diameter,
      directed: 22,
      exact: false,
      averageShortestPathSources: 40,
      bounds: { directed: { lower: 22, upper: 34 }, undirected: { lower: 5, upper: 5 } },
    },
  });
  assert.equal(
    lines[3],
    'diameter  22–34 directed, 5 undirected; average shortest path 3.203 (estimated from 40 sources) (not exact: the searches ran out of budget or time)',
  );
});
