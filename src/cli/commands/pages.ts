// `trawl pages <id>`: a crawl's pages, filtered like GET /v1/crawls/:id/pages, following its cursor up to
// --limit (or to the end with --all): a table on a terminal, one JSON line per page otherwise.
import { type Command, Option } from 'commander';
import type { Static } from 'typebox';
import { PAGE_TYPES } from '../../crawler/vocabulary.js';
import type { PageSummary } from '../../schemas/crawls.js';
import { crawlPath, pathOf } from '../api-client.js';
import { decimal, integer } from '../arguments.js';
import { context } from '../context.js';
import { clip, formatScore, formatTable } from '../format.js';
import type { CliIo } from '../io.js';

interface PagesOptions {
  type?: string;
  status?: number;
  host?: string;
  minScore?: number;
  results?: boolean;
  sort?: string;
  limit: number;
  all?: boolean;
}

type PageRow = Static<typeof PageSummary>;

export function addPagesCommand(program: Command, io: CliIo): void {
  program
    .command('pages')
    .description("a crawl's pages, in discovery order (or best score first)")
    .argument('<id>', 'crawl id')
    .addOption(new Option('--type <type>', 'page type').choices(PAGE_TYPES))
    .option('--status <code>', 'HTTP status', integer('--status'))
    .option('--host <host>', 'host or host:port')
    .option('--min-score <x>', 'pages scored at least this', decimal('--min-score'))
    .option('--results', "the crawl's results only")
    .addOption(new Option('--sort <order>', 'id (discovery order) or -score').choices(['id', '-score']))
    .option('--limit <n>', 'pages to list (following the cursor)', integer('--limit'), 50)
    .option('--all', 'every page (follows the cursor to the end)')
    .action(async (id: string, options: PagesOptions, command: Command) => {
      const ctx = context(command, io);
      const wanted = options.all ? Number.POSITIVE_INFINITY : options.limit;
      const rows: PageRow[] = [];
      let path: string | null = crawlPath(id, '/pages');
      let query: Record<string, string | number | boolean | undefined> | undefined = {
        type: options.type,
        status: options.status,
        host: options.host,
        minScore: options.minScore,
        result: options.results,
        sort: options.sort,
        limit: Math.min(wanted, 500),
      };
      while (path && rows.length < wanted) {
        const list: { items: PageRow[]; next: string | null } = await ctx.client.json('GET', path, { query });
        for (const page of list.items.slice(0, wanted - rows.length)) {
          if (ctx.json) ctx.out(JSON.stringify(page));
          rows.push(page);
        }
        path = list.next ? pathOf(list.next) : null;
        query = undefined; // `next` carries the filters and the cursor
      }
      if (!ctx.json) {
        ctx.out(
          formatTable(
            ['ID', 'TYPE', 'HTTP', 'SCORE', 'TITLE', 'URL'],
            rows.map((page) => [
              String(page.id),
              page.type,
              page.status === null ? '' : String(page.status),
              formatScore(page.score),
              clip(page.title ?? '', 32),
              page.url,
            ]),
            io.stdout.columns,
          ),
        );
        if (path) ctx.note('… more: --limit N or --all');
      }
    });
}
