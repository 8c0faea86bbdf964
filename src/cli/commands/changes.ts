// `trawl changes <id>`: what a recrawl found against the earlier crawl: its counts by change class, then its
// new, changed and gone pages (or those of one --class), a table on a terminal, one JSON line per page
// otherwise; the earlier pages it never reached are counted apart (GET /v1/crawls/:id/changes/missing).
import { type Command, InvalidArgumentError, Option } from 'commander';
import { CHANGE_CLASSES, type ChangeClass } from '../../crawler/vocabulary.js';
import type { CrawlStatus, MissingPageList } from '../../schemas/crawls.js';
import { crawlPath, pathOf } from '../api-client.js';
import { integer } from '../arguments.js';
import { context } from '../context.js';
import { type ChangedPage, formatChangeCounts, formatChangedPages } from '../format.js';
import type { CliIo } from '../io.js';

interface ChangesOptions {
  class?: ChangeClass;
  limit: number;
  all?: boolean;
}

/** What changed, without --class: unchanged pages are not changes. */
const CHANGED_CLASSES: readonly ChangeClass[] = ['new', 'changed', 'gone'];

export function addChangesCommand(program: Command, io: CliIo): void {
  program
    .command('changes')
    .description('what a recrawl found: counts by change class, then its new, changed and gone pages')
    .argument('<id>', 'recrawl id')
    .addOption(new Option('--class <class>', 'the pages of one change class').choices(CHANGE_CLASSES))
    .option('--limit <n>', 'pages to list of each class (following the cursor)', integer('--limit'), 50)
    .option('--all', 'every page of each class (follows the cursor to the end)')
    .action(async (id: string, options: ChangesOptions, command: Command) => {
      const ctx = context(command, io);
      const status = await ctx.client.json<Pick<CrawlStatus, 'recrawlOf' | 'changes'>>('GET', crawlPath(id));
      if (!status.recrawlOf || !status.changes) {
        throw new InvalidArgumentError(`crawl ${id} is not a recrawl (trawl recrawl ${id} starts one)`);
      }
      const wanted = options.all ? Number.POSITIVE_INFINITY : options.limit;
      const rows: ChangedPage[] = [];
      let more = false;
      for (const change of options.class ? [options.class] : CHANGED_CLASSES) {
        let path: string | null = crawlPath(id, '/pages');
        let query: Record<string, string | number> | undefined = { change, limit: Math.min(wanted, 500) };
        let listed = 0;
        while (path && listed < wanted) {
          const list: { items: ChangedPage[]; next: string | null } = await ctx.client.json('GET', path, {
            query,
          });
          for (const page of list.items.slice(0, wanted - listed)) {
            if (ctx.json) ctx.out(JSON.stringify(page));
            rows.push(page);
            listed++;
          }
          path = list.next ? pathOf(list.next) : null;
          query = undefined; // `next` carries the filter and the cursor
        }
        if (path) more = true;
      }
      if (ctx.json) return;
      const missing = await ctx.client.json<MissingPageList>('GET', crawlPath(id, '/changes/missing'), {
        query: { limit: 1 },
      });
      ctx.out(formatChangeCounts(status.recrawlOf, status.changes));
      if (rows.length) ctx.out(`\n${formatChangedPages(rows, io.stdout.columns)}`);
      if (more) ctx.note('… more: --limit N or --all');
      if (missing.items.length) {
        ctx.note(
          `earlier pages this recrawl never reached are not counted gone: GET /v1/crawls/${id}/changes/missing`,
        );
      }
    });
}
