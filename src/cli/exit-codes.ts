// The exit codes of `trawl` (docs/guide.md "Command line") and the one place an error becomes a message and a
// code: 0 done, 1 the crawl waited on failed or was cancelled, 2 usage or a request the API refused (4xx, its
// detail and field shown), 3 the API unreachable or failing (5xx), 130 interrupted.
import { CommanderError, InvalidArgumentError } from 'commander';
import { ApiProblem, ApiUnavailable } from './api-client.js';

export const EXIT = { ok: 0, crawlFailed: 1, usage: 2, unavailable: 3, interrupted: 130 } as const;

/** The request fields the flags set, so a refused field is shown with the flag that set it. */
const FIELD_FLAGS: Record<string, string> = {
  seeds: '<seed…>',
  maxPages: '--max-pages',
  maxDepth: '--max-depth',
  maxResults: '--max-results',
  strategy: '--strategy',
  'relevance.query': '--query',
  'relevance.similarTo.urls': '--similar',
  'relevance.threshold': '--threshold',
  topics: '--topics',
  'politeness.delayMs': '--delay-ms',
  concurrency: '--concurrency',
  'recrawl.of': '<id>',
  every: '--every',
  cron: '--cron',
  timezone: '--timezone',
  name: '--name',
};

/** What the user sees when a command fails, and the exit code it ends with. */
export function explain(error: unknown): { message: string; code: number } {
  // before CommanderError, which it extends: thrown by an action, its message is not printed yet
  if (error instanceof InvalidArgumentError) return { message: `trawl: ${error.message}`, code: EXIT.usage };
  if (error instanceof CommanderError) {
    // commander has printed the usage error (or the help) itself
    return { message: '', code: error.exitCode === 0 ? EXIT.ok : EXIT.usage };
  }
  if (error instanceof ApiProblem) {
    const field = error.problem.field;
    if (!field) return { message: `trawl: ${error.message} [HTTP ${error.status}]`, code: EXIT.usage };
    // a schedule's crawl request is its `crawl` field, set by the same flags as a crawl's
    const flag = FIELD_FLAGS[field] ?? FIELD_FLAGS[field.replace(/^crawl\./, '')];
    // the API's detail usually opens with the field already: say it once, with the flag that set it
    const detail = error.message.startsWith(`${field}: `)
      ? error.message.slice(field.length + 2)
      : error.message;
    return {
      message: `trawl: ${field}${flag ? ` (${flag})` : ''}: ${detail} [HTTP ${error.status}]`,
      code: EXIT.usage,
    };
  }
  if (error instanceof ApiUnavailable) return { message: `trawl: ${error.message}`, code: EXIT.unavailable };
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') {
    return { message: `trawl: ${(error as Error).message}`, code: EXIT.usage };
  }
  if (error instanceof Error && error.name === 'TrawlError') {
    return { message: `trawl: ${error.message}`, code: EXIT.usage };
  }
  return {
    message: `trawl: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    code: EXIT.unavailable,
  };
}
