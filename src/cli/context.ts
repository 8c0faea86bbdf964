// What every command's action starts from: the API client its global options (--api, --key) describe,
// whether to print JSON lines or human text, and the io it prints through.
import type { Command } from 'commander';
import { ApiClient } from './api-client.js';
import type { CliIo } from './io.js';

interface GlobalOptions {
  api: string;
  key?: string;
  json?: boolean;
}

export interface Context {
  client: ApiClient;
  /** JSON lines instead of human text: --json, or stdout is not a terminal */
  json: boolean;
  /** a line to stdout */
  out(text: string): void;
  /** a line to stderr: what a person reads beside the output */
  note(text: string): void;
  io: CliIo;
}

/** How a command that waits on a crawl reports the exit code the program ends with. */
export type SetExitCode = (code: number) => void;

export function context(command: Command, io: CliIo): Context {
  const options = command.optsWithGlobals<GlobalOptions>();
  return {
    client: new ApiClient(options.api, options.key),
    json: Boolean(options.json) || !io.stdout.isTTY,
    out: (text) => io.stdout.write(`${text}\n`),
    note: (text) => io.stderr.write(`${text}\n`),
    io,
  };
}
