import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { analyzeGraph } from '../../../src/crawler/rank/analysis.js';
import { parseEdgesStream } from '../../../src/crawler/rank/edges-file.js';
import { pageRank } from '../../../src/crawler/rank/pagerank.js';
import { sharedDataPath, skipWithoutSharedData } from '../../support/shared-data.js';

// An edges file's first line is N, the number of vertices (docs/reference.md#graph-file): vertices that no
// edge names are still vertices, isolated, so dangling pages. The expected values are networkx's PageRank of
// the declared graph, made by test/fixtures/rank/networkx_isolated.py (its header says how).
const fixtures = new URL('../../fixtures/rank/', import.meta.url);
const edgesFile = readFileSync(new URL('isolated.edges', fixtures));
const expected = JSON.parse(readFileSync(new URL('isolated.networkx.json', fixtures), 'utf8')) as {
  declaredVertices: number;
  namedVertices: number;
  edges: number;
  cases: Array<{
    damping: number;
    personalization: string[] | null;
    ranks: Record<string, number>;
    unnamedRank: number;
  }>;
  wikispeedia?: {
    declaredVertices: number;
    namedVertices: number;
    edges: number;
    isolatedRank: number;
    top: Array<[string, number]>;
  };
};

// ε = 1e-13 in L1 puts our vector within β/(1−β)·ε of the fixed point; networkx's within N·1e-15.
const TOLERANCE = 1e-9;

/** The bytes in chunks of `size`, so lines (and UTF-8 sequences) are cut across chunks. */
function chunked(bytes: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

test('an edges file ranks all N declared vertices, as networkx ranks the declared graph', async () => {
  for (const size of [edgesFile.length, 7, 1]) {
    const { graph, declaredVertices } = await parseEdgesStream(chunked(edgesFile, size));
    assert.equal(declaredVertices, expected.declaredVertices);
    assert.equal(graph.vertexCount, expected.declaredVertices);
    assert.equal(graph.namedVertexCount, expected.namedVertices);
    assert.equal(graph.names.length, expected.namedVertices);
    assert.equal(graph.edgeCount, expected.edges);
    for (let v = graph.namedVertexCount; v < graph.vertexCount; v++) {
      assert.equal(graph.outDegree[v], 0);
      assert.equal(graph.inDegree[v], 0);
    }
    for (const { damping, personalization, ranks, unnamedRank } of expected.cases) {
      const result = pageRank(graph, {
        damping,
        epsilon: 1e-13,
        personalization: personalization?.map((name) => graph.indexOf(name)!),
      });
      assert.equal(result.converged, true);
      const label = `chunks of ${size}, β ${damping}, personalization ${personalization}`;
      for (const [name, rank] of Object.entries(ranks)) {
        const id = graph.indexOf(name);
        assert.ok(id !== undefined, `${name} is a vertex`);
        assert.ok(
          Math.abs(result.ranks[id]! - rank) < TOLERANCE,
          `${label}: ${name} ${result.ranks[id]} vs ${rank}`,
        );
      }
      for (let v = graph.namedVertexCount; v < graph.vertexCount; v++) {
        assert.ok(Math.abs(result.ranks[v]! - unnamedRank) < TOLERANCE, `${label}: unnamed ${v}`);
      }
    }
  }
});

test('unnamed vertices are in no top list and no Jaccard set', async () => {
  const { graph } = await parseEdgesStream([edgesFile]);
  // k larger than N: every list holds all the named vertices and nothing else
  const analysis = analyzeGraph(graph, { topK: 1000, jaccardK: 1000 });
  assert.equal(analysis.vertices, expected.declaredVertices);
  assert.equal(analysis.unnamedVertices, expected.declaredVertices - expected.namedVertices);
  const named = new Set(graph.names);
  for (const list of Object.values(analysis.top)) {
    assert.equal(list.length, expected.namedVertices);
    for (const { vertex } of list) assert.ok(named.has(vertex), vertex);
  }
  // the same named set three times over
  assert.deepEqual(analysis.jaccard, {
    'inDegree~pageRank': 1,
    'inDegree~outDegree': 1,
    'outDegree~pageRank': 1,
  });
  // the unnamed vertices hold rank all the same: what the named ones hold falls short of 1 by it
  const namedSum = analysis.ranks.subarray(0, graph.namedVertexCount).reduce((a, b) => a + b, 0);
  const unnamedSum = analysis.ranks.subarray(graph.namedVertexCount).reduce((a, b) => a + b, 0);
  assert.ok(unnamedSum > 0);
  assert.ok(Math.abs(namedSum + unnamedSum - 1) < 1e-12);
});

test('Wikispeedia uploaded as an edges file ranks its 4,604 declared articles as networkx does', {
  skip: skipWithoutSharedData(
    ['wikispeedia/links.tsv'],
    expected.wikispeedia ? undefined : 'the fixture was made without shared/data/wikispeedia',
  ),
}, async () => {
  const reference = expected.wikispeedia!;
  const links = readFileSync(sharedDataPath('wikispeedia/links.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) =>
      line
        .split('\t')
        .map((field) => decodeURIComponent(field))
        .join(' '),
    );
  // the reference's format: the article count, then the links; 12 articles have no link at all
  const file = Buffer.from(`${reference.declaredVertices}\n${links.join('\n')}\n`);
  const { graph } = await parseEdgesStream(chunked(file, 65_536), { selfLoops: 'drop' });
  assert.equal(graph.vertexCount, reference.declaredVertices);
  assert.equal(graph.namedVertexCount, reference.namedVertices);
  assert.equal(graph.edgeCount, reference.edges);

  const analysis = analyzeGraph(graph, { damping: 0.85, epsilon: 1e-13, topK: 10 });
  assert.equal(analysis.unnamedVertices, 12);
  assert.deepEqual(
    analysis.top.pageRank.map((r) => r.vertex),
    reference.top.map(([vertex]) => vertex),
  );
  for (const [vertex, rank] of reference.top) {
    const ours = analysis.ranks[graph.indexOf(vertex)!]!;
    assert.ok(Math.abs(ours - rank) < TOLERANCE, `${vertex}: ${ours} vs networkx ${rank}`);
  }
  for (let v = graph.namedVertexCount; v < graph.vertexCount; v++) {
    assert.ok(Math.abs(analysis.ranks[v]! - reference.isolatedRank) < TOLERANCE);
  }

  // Ranked on the 4,592 named vertices alone (the count read as an upper bound), the ranks move by more
  // than the tolerance: the declared N matters.
  const { graph: namedOnly } = await parseEdgesStream(
    [Buffer.from(`${reference.namedVertices}\n`), file.subarray(file.indexOf(10) + 1)],
    {
      selfLoops: 'drop',
    },
  );
  assert.equal(namedOnly.vertexCount, namedOnly.namedVertexCount);
  const shifted = pageRank(namedOnly, { damping: 0.85, epsilon: 1e-13 }).ranks;
  const [top] = reference.top[0]!;
  assert.ok(Math.abs(shifted[namedOnly.indexOf(top)!]! - reference.top[0]![1]) > 1e-7);
});
