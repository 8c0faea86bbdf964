// `trawl extract <page>`: the main content of a URL, an HTML file or stdin (POST /v1/extract), as text or
// Markdown; the word count and method go to stderr.
import type { Command } from 'commander';
import type { ExtractResult } from '../../schemas/extract.js';
import { isUrl, readFileOrStdin } from '../arguments.js';
import { context } from '../context.js';
import type { CliIo } from '../io.js';

interface ExtractOptions {
  method?: string;
  baseUrl?: string;
  markdown?: boolean;
}

export function addExtractCommand(program: Command, io: CliIo): void {
  program
    .command('extract')
    .description('the main content of a page (URL or HTML file)')
    .argument('<page>', 'a URL, an HTML file, or - for stdin')
    .option('--method <method>', 'extraction method (see POST /v1/extract)')
    .option('--base-url <url>', 'with a file: the URL its links resolve against')
    .option('--markdown', 'print the main content as Markdown (headings, lists, tables, links)')
    .action(async (page: string, options: ExtractOptions, command: Command) => {
      const ctx = context(command, io);
      const source = isUrl(page)
        ? { url: page }
        : { html: await readFileOrStdin(page, io.stdin), baseUrl: options.baseUrl };
      const extracted = await ctx.client.json<ExtractResult>('POST', '/v1/extract', {
        json: { ...source, method: options.method, ...(options.markdown ? { format: 'markdown' } : {}) },
      });
      if (ctx.json) return ctx.out(JSON.stringify(extracted));
      if (options.markdown) ctx.out(`# ${extracted.title}\n\n${extracted.markdown ?? ''}`);
      else
        ctx.out(
          `${extracted.title}\n${'='.repeat(Math.min(extracted.title.length, 80))}\n\n${extracted.text}`,
        );
      ctx.note(`(${extracted.wordCount} words, ${extracted.method})`);
    });
}
