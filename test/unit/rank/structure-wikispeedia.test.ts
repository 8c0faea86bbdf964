// The structure figures of the Wikispeedia graph against networkx and scipy: the reference is
// test/fixtures/graph-structure/wikispeedia-networkx.json, made once by the script beside it (its header says
// how). Counts must be equal, real numbers within 1e-9 relative; nothing here is computed by hand.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GraphBuilder } from '../../../src/crawler/rank/graph.js';
import { type GraphStructure, graphStructure } from '../../../src/crawler/rank/structure.js';
import { sharedDataPath, skipWithoutSharedData } from '../../support/shared-data.js';

interface Reference {
  figures: Omit<GraphStructure, 'diameter'> & {
    diameter: { directed: number; undirected: number; averageShortestPath: number };
  };
  perVertex: { names: string[]; clustering: number[]; weakComponent: number[]; strongComponent: number[] };
}

const reference = JSON.parse(
  readFileSync(new URL('../../fixtures/graph-structure/wikispeedia-networkx.json', import.meta.url), 'utf8'),
) as Reference;

const dir = sharedDataPath('wikispeedia/');

function rows(file: string): string[][] {
  return readFileSync(`${dir}${file}`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split('\t').map((field) => decodeURIComponent(field)));
}

function assertClose(actual: number, expected: number, what: string): void {
  const scale = Math.max(Math.abs(expected), Number.MIN_VALUE);
  assert.ok(Math.abs(actual - expected) <= 1e-9 * scale, `${what}: ${actual}, networkx ${expected}`);
}

test('Wikispeedia: every structure figure matches networkx and scipy', {
  skip: skipWithoutSharedData(['wikispeedia/links.tsv', 'wikispeedia/articles.tsv']),
}, () => {
  const builder = new GraphBuilder({ selfLoops: 'drop' });
  for (const [article] of rows('articles.tsv')) builder.addVertex(article!);
  for (const [from, to] of rows('links.tsv')) builder.addEdge(from!, to!);
  const graph = builder.build();
  const { figures, perVertex } = graphStructure(graph);
  const expected = reference.figures;

  assert.equal(figures.vertices, expected.vertices);
  assert.equal(figures.edges, expected.edges);
  assert.equal(figures.isolated, expected.isolated);
  assertClose(figures.averageDegree, expected.averageDegree, 'averageDegree');
  assertClose(figures.density, expected.density, 'density');
  assertClose(figures.reciprocity, expected.reciprocity, 'reciprocity');
  assert.deepEqual(figures.components, expected.components);
  assertClose(figures.clustering.average, expected.clustering.average, 'average clustering');
  assertClose(figures.clustering.transitivity, expected.clustering.transitivity, 'transitivity');
  assert.equal(figures.diameter.exact, true);
  assert.equal(figures.diameter.directed, expected.diameter.directed);
  assert.equal(figures.diameter.undirected, expected.diameter.undirected);
  assert.equal(figures.diameter.averageShortestPathSources, expected.vertices);
  assertClose(
    figures.diameter.averageShortestPath!,
    expected.diameter.averageShortestPath,
    'averageShortestPath',
  );

  // Per vertex, by name: the fixture lists the vertices in the order the graph was built.
  assert.deepEqual(graph.names, reference.perVertex.names);
  for (let v = 0; v < graph.vertexCount; v++) {
    assertClose(
      perVertex.clustering[v]!,
      reference.perVertex.clustering[v]!,
      `clustering of ${graph.names[v]}`,
    );
  }
  assert.deepEqual([...perVertex.weakComponent], reference.perVertex.weakComponent);
  assert.deepEqual([...perVertex.strongComponent], reference.perVertex.strongComponent);
});

test('Wikispeedia: with a small budget the diameters are bounds around networkx figures', {
  skip: skipWithoutSharedData(['wikispeedia/links.tsv', 'wikispeedia/articles.tsv']),
}, () => {
  const builder = new GraphBuilder({ selfLoops: 'drop' });
  for (const [article] of rows('articles.tsv')) builder.addVertex(article!);
  for (const [from, to] of rows('links.tsv')) builder.addEdge(from!, to!);
  const { figures } = graphStructure(builder.build(), { workBudget: 5_000_000 });
  const { bounds } = figures.diameter;
  const expected = reference.figures.diameter;
  assert.equal(figures.diameter.exact, false);
  assert.ok(bounds.directed.lower <= expected.directed && expected.directed <= bounds.directed.upper);
  assert.ok(bounds.undirected.lower <= expected.undirected && expected.undirected <= bounds.undirected.upper);
});
