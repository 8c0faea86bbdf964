// `trawl rank <edges-file>`: uploads an edges file to POST /v1/rankings, polls the ranking job to its end and
// prints PageRank, degrees, Jaccard and the graph's structure figures (a failed job is shown like a refused
// request, with its line).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import type { Static } from 'typebox';
import type { Ranking, RankingJob } from '../../schemas/rankings.js';
import { ApiProblem } from '../api-client.js';
import { decimal, integer } from '../arguments.js';
import { context } from '../context.js';
import { formatTable, graphFigureLines } from '../format.js';
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
