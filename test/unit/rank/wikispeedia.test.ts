import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { analyzeGraph } from '../../../src/crawler/rank/analysis.js';
import { GraphBuilder } from '../../../src/crawler/rank/graph.js';
import { sharedDataPath, skipWithoutSharedData } from '../../support/shared-data.js';

const dir = sharedDataPath('wikispeedia/');

// Reference values from networkx 2.8.8 (Debian python3-networkx), an independent implementation, made with
// /usr/bin/python3 on this script (self-loops removed as in our graph; dangling mass spread uniformly, the
// networkx default; tol is per vertex there, so N·1e-14 in L1):
//   import networkx as nx, urllib.parse as up
//   D='shared/data/wikispeedia/'
//   rows=lambda f:[l.rstrip('\n').split('\t') for l in open(D+f,encoding='utf-8') if l.strip() and not l.startswith('#')]
//   G=nx.DiGraph(); G.add_nodes_from(up.unquote(r[0]) for r in rows('articles.tsv'))
//   G.add_edges_from((up.unquote(a),up.unquote(b)) for a,b in rows('links.tsv') if a!=b)
//   pr=nx.pagerank(G,alpha=0.85,tol=1e-14,max_iter=10000)
//   print(G.number_of_nodes(),G.number_of_edges())   # 4604 119772
//   for v,r in sorted(pr.items(),key=lambda x:(-x[1],x[0]))[:10]: print(f"{v!r}: {r:.12f}")
//   for v,d in sorted(G.in_degree(),key=lambda x:(-x[1],x[0]))[:10]: print(repr(v),d)
const networkxTopPageRank: Array<[string, number]> = [
  ['United_States', 0.009572541046],
  ['France', 0.006449351011],
  ['Europe', 0.006356114123],
  ['United_Kingdom', 0.006251501096],
  ['English_language', 0.00487829558],
  ['Germany', 0.004839302265],
  ['World_War_II', 0.00473946666],
  ['England', 0.004475513026],
  ['Latin', 0.004418003528],
  ['India', 0.00405404946],
];
const networkxTopInDegree: Array<[string, number]> = [
  ['United_States', 1551],
  ['United_Kingdom', 972],
  ['France', 959],
  ['Europe', 933],
  ['England', 751],
  ['World_War_II', 751],
  ['Germany', 743],
  ['India', 611],
  ['English_language', 598],
  ['London', 587],
];

function rows(file: string): string[][] {
  return readFileSync(`${dir}${file}`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split('\t').map((field) => decodeURIComponent(field)));
}

test('Wikispeedia: top-10 by PageRank and in-degree agree with networkx', {
  skip: skipWithoutSharedData(['wikispeedia/links.tsv', 'wikispeedia/articles.tsv']),
}, () => {
  // Articles first, so the 4,604 vertices include those without any link.
  const builder = new GraphBuilder({ selfLoops: 'drop' });
  for (const [article] of rows('articles.tsv')) builder.addVertex(article!);
  const links = rows('links.tsv');
  for (const [from, to] of links) builder.addEdge(from!, to!);
  const graph = builder.build();
  assert.equal(graph.vertexCount, 4604);
  assert.equal(links.length, 119_882);
  // links.tsv holds 110 self-loops (e.g. Athens → Athens); docs/reference.md#graph-file wants none, so they are dropped.
  assert.equal(graph.droppedSelfLoops, 110);
  assert.equal(graph.droppedDuplicates, 0);
  assert.equal(graph.edgeCount, 119_772);

  const analysis = analyzeGraph(graph, { damping: 0.85, epsilon: 1e-10, topK: 10 });
  assert.equal(analysis.converged, true);
  assert.deepEqual(
    analysis.top.pageRank.map((r) => r.vertex),
    networkxTopPageRank.map(([vertex]) => vertex),
  );
  // ε = 1e-10 in L1 bounds the distance to the fixed point by β/(1−β)·ε ≈ 6e-10, so 1e-9 per vertex
  // is the honest tolerance (the brief asks for 1e-6); the reference is printed to 1e-12.
  for (const [vertex, rank] of networkxTopPageRank) {
    const ours = analysis.ranks[graph.indexOf(vertex)!]!;
    assert.ok(Math.abs(ours - rank) < 1e-9, `${vertex}: ${ours} vs networkx ${rank}`);
  }
  assert.deepEqual(
    analysis.top.inDegree.map((r) => [r.vertex, r.value]),
    networkxTopInDegree,
  );
});
