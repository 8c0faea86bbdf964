// `trawl export <id> -o <file>`: downloads a crawl's pages as JSONL, CSV or WARC (GET /v1/crawls/:id/export),
// streamed to the file (or stdout) with a byte count on a terminal.
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Command, Option } from 'commander';
import { EXPORT_INCLUDES } from '../../schemas/export.js';
import { crawlPath } from '../api-client.js';
import { decimal, integer } from '../arguments.js';
import { context } from '../context.js';
import type { CliIo } from '../io.js';
import { byteProgressView, formatBytes } from '../progress-view.js';

interface ExportOptions {
  format: string;
  output: string;
  type?: string;
  status?: number;
  host?: string;
  minScore?: number;
  include?: string;
}

export function addExportCommand(program: Command, io: CliIo): void {
  program
    .command('export')
    .description("download a crawl's pages as JSONL, CSV or WARC")
    .argument('<id>', 'crawl id')
    .addOption(
      new Option('--format <format>', 'export format').choices(['jsonl', 'csv', 'warc']).default('jsonl'),
    )
    .requiredOption('-o, --output <file>', 'file to write (- for stdout)')
    .option('--type <type>', 'page type')
    .option('--status <code>', 'HTTP status', integer('--status'))
    .option('--host <host>', 'host or host:port')
    .option('--min-score <x>', 'pages scored at least this', decimal('--min-score'))
    .option('--include <parts>', `JSONL: comma list of ${EXPORT_INCLUDES.join(', ')}`)
    .action(async (id: string, options: ExportOptions, command: Command) => {
      const ctx = context(command, io);
      const response = await ctx.client.request('GET', crawlPath(id, '/export'), {
        accept: '*/*',
        query: {
          format: options.format,
          type: options.type,
          status: options.status,
          host: options.host,
          minScore: options.minScore,
          include: options.include,
        },
      });
      const toStdout = options.output === '-';
      const progress = byteProgressView(!toStdout && Boolean(io.stderr.isTTY), io.stderr);
      let bytes = 0;
      // counts the bytes on their way to the file, for the progress line
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          progress.update(bytes);
          done(null, chunk);
        },
      });
      const sink: NodeJS.WritableStream = toStdout ? io.stdout : createWriteStream(options.output);
      await pipeline(Readable.fromWeb(response.body as never), counted, sink);
      progress.stop();
      if (!toStdout) {
        const written = (await stat(options.output)).size;
        if (ctx.json)
          ctx.out(JSON.stringify({ file: options.output, format: options.format, bytes: written }));
        else ctx.out(`wrote ${options.output} (${formatBytes(written)}, ${options.format})`);
      }
    });
}
