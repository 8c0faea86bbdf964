// `trawl`: the command-line client of trawl's /v1 API (`npx trawl …`, or `npm run cli -- …` in a checkout).
// Human output on a terminal, JSON lines when piped or with --json. This file assembles the program from one
// file per command in commands/ and turns a failure into its message and exit code (exit-codes.ts).
import { Command, Option } from 'commander';
import { DEFAULT_API_URL } from './api-client.js';
import { addCancelCommand } from './commands/cancel.js';
import { addCrawlCommand } from './commands/crawl.js';
import { addExportCommand } from './commands/export.js';
import { addExtractCommand } from './commands/extract.js';
import { addKeysCommands } from './commands/keys.js';
import { addPagesCommand } from './commands/pages.js';
import { addRankCommand } from './commands/rank.js';
import { addScoreCommand } from './commands/score.js';
import { addStatusCommand } from './commands/status.js';
import { addWatchCommand } from './commands/watch.js';
import type { SetExitCode } from './context.js';
import { EXIT, explain } from './exit-codes.js';

export function buildProgram(setExitCode: SetExitCode): Command {
  const program = new Command('trawl')
    .description('Command-line client of the trawl crawl service (its /v1 API).')
    .addOption(
      new Option('--api <url>', 'base URL of the trawl API').env('TRAWL_API').default(DEFAULT_API_URL),
    )
    .addOption(new Option('--key <key>', 'API key, sent as Authorization: Bearer').env('TRAWL_KEY'))
    .option('--json', 'print JSON (the default when stdout is not a terminal)')
    .showHelpAfterError()
    .exitOverride();
  // the order of `trawl --help`
  addCrawlCommand(program, setExitCode);
  addWatchCommand(program, setExitCode);
  addStatusCommand(program);
  addPagesCommand(program);
  addCancelCommand(program);
  addExportCommand(program);
  addRankCommand(program);
  addScoreCommand(program);
  addExtractCommand(program);
  addKeysCommands(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    const { message, code } = explain(error);
    if (message) process.stderr.write(`${message}\n`);
    return code;
  }
}
