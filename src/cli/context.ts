// What every command's action starts from: the API client its global options (--api, --key) describe, and
// whether to print JSON lines or human text.
import type { Command } from 'commander';
import { ApiClient } from './api-client.js';

interface GlobalOptions {
  api: string;
  key?: string;
  json?: boolean;
}

export interface Context {
  client: ApiClient;
  /** JSON lines instead of human text: --json, or stdout is not a terminal */
  json: boolean;
  out(text: string): void;
}

/** How a command that waits on a crawl reports the exit code the program ends with. */
export type SetExitCode = (code: number) => void;

export function context(command: Command): Context {
  const options = command.optsWithGlobals<GlobalOptions>();
  return {
    client: new ApiClient(options.api, options.key),
    json: Boolean(options.json) || !process.stdout.isTTY,
    out: (text) => process.stdout.write(`${text}\n`),
  };
}
