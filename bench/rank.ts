// Ranking input at the speed of ranking: a synthetic power-law link graph (1M vertices, ~7.7M edges, fixed
// seed) written as an edges file, then parsed and ranked in a fresh child process, the way a `rank` job
// meets an upload: parse time, PageRank time (ε = 1e-6), their total and the child's peak RSS. Then
// graphology-metrics' pagerank on an equal graph, with the ratio.
// Args: --vertices N, --peer-vertices N (graphology's graph size), --rounds N (children, default 2),
// --no-peer (skip graphology, the slow part), --numbered-names (vertices named 0 … N − 1, as many real edges
// files name them, instead of p0 … p(N − 1): the parser's numbered-name path instead of its hash table).

import { fork } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DirectedGraph } from 'graphology';
import {
  edgesFileChunks,
  type Graph,
  GraphBuilder,
  pageRank,
  parseEdgesStream,
} from '../src/crawler/rank/index.js';
import { Rng } from '../test/support/testweb/random.js';
import { numberArg } from './args.js';

// The package is CommonJS whose typings declare `export default`: require gives the function itself.
const require = createRequire(import.meta.url);
const graphologyPageRank: typeof import('graphology-metrics/centrality/pagerank.js')['default'] = require('graphology-metrics/centrality/pagerank.js');

export const SEED = 0x7a11;
const MEAN_OUT_DEGREE = 8;
const EPSILON = 1e-6;
const DAMPING = 0.85;

/** What a child reports: one parse and one PageRank of the edges file, timed, and its peak RSS. */
interface ParseAndRank {
  vertices: number;
  unnamedVertices: number;
  edges: number;
  iterations: number;
  parseMs: number;
  parseCpuMs: number;
  rankMs: number;
  rankCpuMs: number;
  maxRssMiB: number;
}

export async function run(args: string[]): Promise<void> {
  const vertices = numberArg(args, '--vertices', 1_000_000);
  const peerVertices = Math.min(vertices, numberArg(args, '--peer-vertices', 500_000));
  const rounds = numberArg(args, '--rounds', 2);
  const prefix = args.includes('--numbered-names') ? '' : 'p';
  const rows: Array<[string, string, string, string]> = [];

  const path = join(tmpdir(), `trawl-bench-rank-${process.pid}.edges`);
  try {
    const written = await writeSyntheticEdgesFile(path, vertices, prefix);
    console.log(
      `synthetic graph: ${written.vertices} vertices, ${written.edges} edges (seed ${SEED}, Pareto out-degree, ` +
        `power-law targets, names ${prefix}0 … ${prefix}${written.vertices - 1}), generated in ${fmt(written.generateMs)} ms; load average ${loadavg()[0]!.toFixed(1)}`,
    );
    rows.push(['write edges file', `${fmt(written.writeMs)} ms`, `${fmt(written.bytes / 2 ** 20)} MiB`, '']);

    // Each round in a fresh process, so that its peak RSS is the parse and the rank alone.
    for (let round = 1; round <= rounds; round++) {
      const child = await parseAndRankInChild(path);
      if (child.edges !== written.edges || child.vertices !== written.vertices) {
        throw new Error(`the child parsed ${child.vertices} V / ${child.edges} E`);
      }
      const label = `round ${round}: ${child.vertices} V (${child.unnamedVertices} unnamed) / ${child.edges} E`;
      rows.push([
        `${label}, parse (parseEdgesStream)`,
        `${fmt(child.parseMs)} ms (cpu ${fmt(child.parseCpuMs)})`,
        '',
        '',
      ]);
      rows.push([
        `${label}, pageRank`,
        `${fmt(child.rankMs)} ms (cpu ${fmt(child.rankCpuMs)})`,
        `${child.iterations} it`,
        '',
      ]);
      rows.push([
        `${label}, parse + rank`,
        `${fmt(child.parseMs + child.rankMs)} ms (cpu ${fmt(child.parseCpuMs + child.rankCpuMs)})`,
        `parse/rank ${(child.parseMs / child.rankMs).toFixed(1)}×`,
        `peak RSS ${fmt(child.maxRssMiB)} MiB`,
      ]);
    }

    if (!args.includes('--no-peer'))
      rows.push(...(await againstGraphology(path, written.vertices, peerVertices, prefix)));
  } finally {
    await rm(path, { force: true });
  }
  rows.push([
    'peak RSS of this process (generator, graphology)',
    `${fmt(process.resourceUsage().maxRSS / 1024)} MiB`,
    '',
    '',
  ]);
  printTable(rows);
}

async function againstGraphology(
  path: string,
  fileVertices: number,
  peerVertices: number,
  prefix: string,
): Promise<Array<[string, string, string, string]>> {
  const rows: Array<[string, string, string, string]> = [];
  // graphology on an equal graph: the same generator at peerVertices (all 1M by default would need
  // ~4 GB of heap for its 8M edge objects, over Node's default limit, so the default is 500k / ~3.9M edges).
  const peerGraph =
    peerVertices === fileVertices
      ? (await parseEdgesStream(createReadStream(path))).graph
      : syntheticGraph(peerVertices, SEED, prefix);
  // Ours first: with graphology's millions of edge objects alive, every allocation pays for marking them.
  const ours = best3(() => pageRank(peerGraph, { damping: DAMPING, epsilon: EPSILON }));
  const peerBuild = timed(() => toGraphology(peerGraph));
  const g = peerBuild.value;
  // graphology stops when Σ|x_{t+1} − x_t| < N · tolerance: tolerance = ε / N gives our L1 test.
  const theirs = timed(() =>
    graphologyPageRank(g, {
      alpha: DAMPING,
      tolerance: EPSILON / peerGraph.vertexCount,
      maxIterations: 1000,
      getEdgeWeight: null,
    }),
  );
  let maxDiff = 0;
  for (let v = 0; v < peerGraph.vertexCount; v++) {
    maxDiff = Math.max(maxDiff, Math.abs((theirs.value[peerGraph.names[v]!] ?? 0) - ours.value.ranks[v]!));
  }
  rows.push([
    `graphology build, ${peerGraph.vertexCount} V / ${peerGraph.edgeCount} E`,
    `${fmt(peerBuild.wallMs)} ms (cpu ${fmt(peerBuild.cpuMs)})`,
    '',
    '',
  ]);
  rows.push([
    `graphology-metrics pagerank, ${peerGraph.vertexCount} V / ${peerGraph.edgeCount} E`,
    `${fmt(theirs.wallMs)} ms (cpu ${fmt(theirs.cpuMs)})`,
    '',
    `max |Δrank| vs ours ${maxDiff.toExponential(2)}`,
  ]);
  rows.push([
    `trawl pageRank, same ${peerGraph.vertexCount} V graph`,
    `${fmt(ours.wallMs)} ms (cpu ${fmt(ours.cpuMs)})`,
    `${ours.value.iterations} it`,
    `ratio ${(theirs.wallMs / ours.wallMs).toFixed(1)}× (cpu ${(theirs.cpuMs / ours.cpuMs).toFixed(1)}×)`,
  ]);
  return rows;
}

function parseAndRankInChild(path: string): Promise<ParseAndRank> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', path], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let report: ParseAndRank | undefined;
    child.once('message', (message) => {
      report = message as ParseAndRank;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      report ? resolve(report) : reject(new Error(`the parse-and-rank child exited with ${code}`)),
    );
  });
}

/** The child: parse the edges file as a `rank` job parses an upload, rank it, report. */
async function parseAndRank(path: string): Promise<ParseAndRank> {
  const parsed = await timedAsync(() => parseEdgesStream(createReadStream(path)));
  const { graph } = parsed.value;
  const ranked = timed(() => pageRank(graph, { damping: DAMPING, epsilon: EPSILON }));
  return {
    vertices: graph.vertexCount,
    unnamedVertices: graph.vertexCount - graph.namedVertexCount,
    edges: graph.edgeCount,
    iterations: ranked.value.iterations,
    parseMs: parsed.wallMs,
    parseCpuMs: parsed.cpuMs,
    rankMs: ranked.wallMs,
    rankCpuMs: ranked.cpuMs,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  };
}

/**
 * A web-like graph: out-degrees Pareto-distributed (shape 1.5, capped at 5,000, mean ≈ 8), targets drawn
 * with probability ∝ popularity-rank^−0.9 (in-degree power law with exponent ≈ 2.1), popularity ranks
 * shuffled over the ids so popular pages are scattered as in a crawl. Self-loops and repeats are dropped.
 */
export function syntheticGraph(vertexCount: number, seed: number, namePrefix = 'p'): Graph {
  const rng = new Rng(seed);
  const random = () => rng.next();
  const builder = new GraphBuilder({ selfLoops: 'drop', duplicateEdges: 'drop' });
  for (let v = 0; v < vertexCount; v++) builder.addVertex(`${namePrefix}${v}`);
  const byPopularity = new Int32Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) byPopularity[v] = v;
  for (let i = vertexCount - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const swap = byPopularity[i]!;
    byPopularity[i] = byPopularity[j]!;
    byPopularity[j] = swap;
  }
  const exponent = 0.9;
  const span = vertexCount ** (1 - exponent) - 1;
  const minimumDegree = (MEAN_OUT_DEGREE + 0.5) / 3;
  for (let u = 0; u < vertexCount; u++) {
    const degree = Math.min(5000, Math.floor(minimumDegree * (1 - random()) ** (-1 / 1.5)));
    for (let k = 0; k < degree; k++) {
      const rank = Math.floor((1 + random() * span) ** (1 / (1 - exponent))) - 1;
      builder.addEdgeById(u, byPopularity[Math.min(rank, vertexCount - 1)]!);
    }
  }
  return builder.build();
}

export interface Timed<T> {
  value: T;
  wallMs: number;
  /** This process's user + system CPU time: less distorted than wall time when the cores are shared. */
  cpuMs: number;
}

export function timed<T>(work: () => T): Timed<T> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = work();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { value, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

async function timedAsync<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { value, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

// Generated in a function of its own so the generator's graph is garbage before the parsed one is built.
async function writeSyntheticEdgesFile(
  path: string,
  vertexCount: number,
  namePrefix: string,
): Promise<{ vertices: number; edges: number; bytes: number; generateMs: number; writeMs: number }> {
  let started = performance.now();
  const graph = syntheticGraph(vertexCount, SEED, namePrefix);
  const generateMs = performance.now() - started;
  started = performance.now();
  const out = createWriteStream(path);
  for (const chunk of edgesFileChunks(graph)) if (!out.write(chunk)) await onceDrain(out);
  out.end();
  await finished(out);
  return {
    vertices: graph.vertexCount,
    edges: graph.edgeCount,
    bytes: out.bytesWritten,
    generateMs,
    writeMs: performance.now() - started,
  };
}

function best3<T>(work: () => T): Timed<T> {
  let best = timed(work);
  for (let round = 1; round < 3; round++) {
    const next = timed(work);
    if (next.wallMs < best.wallMs) best = next;
  }
  return best;
}

export function toGraphology(graph: Graph): DirectedGraph {
  const g = new DirectedGraph({ allowSelfLoops: false });
  for (let v = 0; v < graph.vertexCount; v++) g.addNode(graph.names[v]!);
  for (let u = 0; u < graph.vertexCount; u++) {
    const from = graph.names[u]!;
    const end = graph.outOffsets[u + 1]!;
    for (let j = graph.outOffsets[u]!; j < end; j++) g.addEdge(from, graph.names[graph.outTargets[j]!]!);
  }
  return g;
}

function onceDrain(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.once('drain', () => resolve()));
}

export function fmt(value: number): string {
  return value.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function printTable(rows: Array<[string, string, string, string]>): void {
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows) {
    console.log(
      row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  '),
    );
  }
}

if (process.argv[2] === '--child' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  parseAndRank(process.argv[3] ?? '').then(
    (report) => process.send?.(report, () => process.exit(0)),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
      process.exit(1);
    },
  );
}
