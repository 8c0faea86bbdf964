// `trawl`: the command-line client of trawl's /v1 API (`npx trawl …`, or `npm run cli -- …` in a checkout).
// Human output on a terminal, JSON lines when piped or with --json. This file assembles the program from one
// file per command in commands/ and turns a failure into its message and exit code (exit-codes.ts). All it
// prints or reads goes through the io it is given (io.ts), commander's help and usage errors too.
import { Command, Option } from 'commander';
import { DEFAULT_API_URL } from './api-client.js';
import { addCancelCommand } from './commands/cancel.js';
import { addChangesCommand } from './commands/changes.js';
import { addCrawlCommand } from './commands/crawl.js';
import { addExportCommand } from './commands/export.js';
import { addExtractCommand } from './commands/extract.js';
import { addKeysCommands } from './commands/keys.js';
import { addPagesCommand } from './commands/pages.js';
import { addRankCommand } from './commands/rank.js';
import { addRecrawlCommand } from './commands/recrawl.js';
import { addRescheduleCommand } from './commands/reschedule.js';
import { addScheduleCommand } from './commands/schedule.js';
import { addSchedulesCommand } from './commands/schedules.js';
import { addScoreCommand } from './commands/score.js';
import { addStatusCommand } from './commands/status.js';
import { addUnscheduleCommand } from './commands/unschedule.js';
import { addWatchCommand } from './commands/watch.js';
import type { SetExitCode } from './context.js';
import { EXIT, explain } from './exit-codes.js';
import type { CliIo, CliOutput } from './io.js';

export function buildProgram(io: CliIo, setExitCode: SetExitCode): Command {
  const program = new Command('trawl')
    .description('Command-line client of the trawl crawl service (its /v1 API).')
    .addOption(
      new Option('--api <url>', 'base URL of the trawl API').env('TRAWL_API').default(DEFAULT_API_URL),
    )
    .addOption(new Option('--key <key>', 'API key, sent as Authorization: Bearer').env('TRAWL_KEY'))
    .option('--json', 'print JSON (the default when stdout is not a terminal)')
    .showHelpAfterError()
    .exitOverride()
    // before the commands are added: each copies its parent's output settings
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // commander's own choice, on the io's streams: a terminal's width, else its default (its types say
      // number, but undefined is what it returns itself when the stream is not a terminal)
      getOutHelpWidth: () => helpWidth(io.stdout),
      getErrHelpWidth: () => helpWidth(io.stderr),
      // the help is plain text: nothing in it is styled
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .hook('preAction', () => optionsFromEnv(program, io.env));
  // the order of `trawl --help`
  addCrawlCommand(program, io, setExitCode);
  addWatchCommand(program, io, setExitCode);
  addStatusCommand(program, io);
  addPagesCommand(program, io);
  addRecrawlCommand(program, io, setExitCode);
  addChangesCommand(program, io);
  addSchedulesCommand(program, io);
  addScheduleCommand(program, io);
  addRescheduleCommand(program, io);
  addUnscheduleCommand(program, io);
  addCancelCommand(program, io);
  addExportCommand(program, io);
  addRankCommand(program, io);
  addScoreCommand(program, io);
  addExtractCommand(program, io);
  addKeysCommands(program, io);
  return program;
}

function helpWidth(stream: CliOutput): number {
  return (stream.isTTY ? stream.columns : undefined) as number;
}

/**
 * The global options' variables (--api from TRAWL_API, --key from TRAWL_KEY) read from `env`. Commander reads
 * them from process.env, which is `env` itself for the real command; a flag given still wins over both.
 */
function optionsFromEnv(program: Command, env: CliIo['env']): void {
  for (const option of program.options) {
    if (!option.envVar) continue;
    const name = option.attributeName();
    const source = program.getOptionValueSource(name);
    if (source !== undefined && source !== 'default' && source !== 'env') continue;
    const value = env[option.envVar];
    if (value !== undefined) program.setOptionValueWithSource(name, value, 'env');
    else if (source === 'env') program.setOptionValueWithSource(name, option.defaultValue, 'default');
  }
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    const { message, code } = explain(error);
    if (message) io.stderr.write(`${message}\n`);
    return code;
  }
}
