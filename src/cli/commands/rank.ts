// `trawl rank <edges-file>`: uploads an edges file to POST /v1/rankings, polls the ranking job to its end and
// prints PageRank, degrees, Jaccard and the graph's structure figures (a failed job is shown like a refused
// request, with its line).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import type { Static } from 'typebox';
import type { GraphFigures, Ranking, RankingJob } from '../../schemas/rankings.js';
import { ApiProblem } from '../api-client.js';
import { decimal, integer } from '../arguments.js';
import { context } from '../context.js';
import { formatTable } from '../format.js';
import type { CliIo } from '../io.js';

interface RankOptions {
  damping?: number;
  epsilon?: number;
  maxIterations?: number;
  topK?: number;
}

type RankingBody = Static<typeof Ranking> | Static<typeof RankingJob>;

export function addRankCommand(program: Command, io: CliIo): void {
  program
    .command('rank')
    .description('PageRank, degrees, top-k and Jaccard of an edges file (first line: the vertex count)')
    .argument('<edges-file>', 'the edges file ("from to" per line)')
    .option('--damping <x>', 'probability of following a link', decimal('--damping'))
    .option('--epsilon <x>', 'stop when the L1 change is at most this', decimal('--epsilon'))
    .option('--max-iterations <n>', 'iteration cap', integer('--max-iterations'))
    .option('--top-k <n>', 'length of each top list', integer('--top-k'))
    .action(async (file: string, options: RankOptions, command: Command) => {
      const ctx = context(command, io);
      await stat(file); // a missing file is the user's mistake, said before anything is sent
      let ranking = await ctx.client.json<RankingBody>('POST', '/v1/rankings', {
        body: {
          data: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
          contentType: 'text/plain',
        },
        query: {
          damping: options.damping,
          epsilon: options.epsilon,
          maxIterations: options.maxIterations,
          topK: options.topK,
        },
      });
      while (ranking.status === 'queued' || ranking.status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 500));
        ranking = await ctx.client.json<RankingBody>('GET', `/v1/rankings/${ranking.id}`);
      }
      if (ctx.json) ctx.out(JSON.stringify(ranking));
      if (ranking.status !== 'completed') {
        const error = ranking.error;
        throw new ApiProblem(400, {
          detail: error?.detail,
          field: error?.line ? `line ${error.line}` : error?.field,
        });
      }
      if (ctx.json) return;
      ctx.out(
        `ranking ${ranking.id}: ${ranking.vertices} vertices` +
          `${ranking.unnamedVertices ? ` (${ranking.unnamedVertices} unnamed: declared, named by no edge)` : ''}` +
          `, ${ranking.edges} edges, ${ranking.iterations} iterations` +
          `${ranking.converged ? '' : ' (not converged)'}`,
      );
      ctx.out(
        formatTable(
          ['#', 'PAGERANK', 'IN', 'OUT', 'VERTEX'],
          (ranking.top?.pageRank ?? []).map((entry, at) => [
            String(at + 1),
            entry.rank >= 0.001 ? entry.rank.toFixed(4) : entry.rank.toExponential(3),
            String(ranking.top?.inDegree.find((other) => other.vertex === entry.vertex)?.degree ?? ''),
            String(ranking.top?.outDegree.find((other) => other.vertex === entry.vertex)?.degree ?? ''),
            entry.vertex,
          ]),
          io.stdout.columns,
        ),
      );
      const jaccard = Object.entries(ranking.jaccard)
        .map(([pair, value]) => `${pair} ${value.toFixed(3)}`)
        .join(' · ');
      if (jaccard) ctx.out(`jaccard   ${jaccard}`);
      if (ranking.graph) for (const line of graphFigureLines(ranking.graph)) ctx.out(line);
    });
}

const real = (value: number) =>
  value === 0 || Math.abs(value) >= 0.001 ? value.toFixed(3) : value.toExponential(2);

/**
 * The structure figures as a network scientist words them ("723 nodes and 13,181 links; average degree
 * 18.231; diameter 121; …"), a line per theme; a diameter that did not close is shown with its bounds.
 */
export function graphFigureLines(graph: GraphFigures): string[] {
  const { components, clustering, diameter } = graph;
  const span = (which: 'directed' | 'undirected') => {
    const { lower, upper } = diameter.bounds[which];
    return lower === upper ? `${lower}` : `${lower}–${upper}`;
  };
  const average =
    diameter.averageShortestPath === null
      ? 'no connected pair searched'
      : `${real(diameter.averageShortestPath)}` +
        (diameter.averageShortestPathSources === graph.vertices
          ? ''
          : ` (estimated from ${diameter.averageShortestPathSources} sources)`);
  return [
    `graph     ${graph.vertices} nodes and ${graph.edges} links; average degree ${real(graph.averageDegree)}; ` +
      `density ${real(graph.density)}; reciprocity ${real(graph.reciprocity)}; ${graph.isolated} isolated`,
    `components ${components.weak.count} weak (largest ${components.weak.largest}), ` +
      `${components.strong.count} strong (largest ${components.strong.largest})`,
    `clustering average ${real(clustering.average)}, transitivity ${real(clustering.transitivity)}`,
    `diameter  ${span('directed')} directed, ${span('undirected')} undirected; average shortest path ${average}` +
      (diameter.exact ? '' : ' (not exact: the searches ran out of budget or time)'),
  ];
}
