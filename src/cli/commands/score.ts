// `trawl score <document…>`: scores URLs, files or stdin by a keyword query or TF-IDF similarity
// (POST /v1/score), best first.
import { type Command, InvalidArgumentError } from 'commander';
import type { ScoreResult } from '../../schemas/score.js';
import { isUrl, readFileOrStdin } from '../arguments.js';
import { context } from '../context.js';
import { formatTable } from '../format.js';
import type { CliIo } from '../io.js';

interface ScoreOptions {
  query?: string;
  similar?: string[];
  corpus?: string;
}

export function addScoreCommand(program: Command, io: CliIo): void {
  program
    .command('score')
    .description('score documents (URLs, files, - for stdin) by a keyword query or TF-IDF similarity')
    .argument('<documents...>', 'URLs or files (.html read as HTML, anything else as text)')
    .option('--query <query>', 'keyword query')
    .option('--similar <documents...>', 'the similarity set: URLs or files')
    .option('--corpus <id>', 'a stored corpus for the document frequencies (with --similar)')
    .action(async (documents: string[], options: ScoreOptions, command: Command) => {
      const ctx = context(command, io);
      if (Boolean(options.query) === Boolean(options.similar)) {
        throw new InvalidArgumentError('give exactly one of --query and --similar');
      }
      const body = {
        ...(options.query ? { query: options.query } : {}),
        ...(options.similar
          ? {
              similarTo: {
                documents: await Promise.all(options.similar.map((value) => documentArgument(value, io))),
              },
            }
          : {}),
        ...(options.corpus ? { corpus: options.corpus } : {}),
        documents: await Promise.all(documents.map((value) => documentArgument(value, io))),
      };
      const scored = await ctx.client.json<ScoreResult>('POST', '/v1/score', { json: body });
      if (ctx.json) return ctx.out(JSON.stringify(scored));
      ctx.out(
        formatTable(
          ['SCORE', 'DOCUMENT'],
          scored.results.map((result) => [
            result.score.toFixed(3),
            documents[result.index] ?? result.url ?? String(result.index),
          ]),
          io.stdout.columns,
        ),
      );
    });
}

/** A document argument: a URL is fetched by the API, a file is sent as HTML or text by its name. */
async function documentArgument(
  value: string,
  io: CliIo,
): Promise<{ url: string } | { html: string } | { text: string }> {
  if (isUrl(value)) return { url: value };
  const content = await readFileOrStdin(value, io.stdin);
  return /\.x?html?$/i.test(value) ? { html: content } : { text: content };
}
