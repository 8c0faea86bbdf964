// The process surroundings of the CLI in one value: where it writes, what it reads, its environment and
// where Ctrl-C comes from. The `trawl` entry (trawl.ts) passes the real process; a test passes streams of its
// own and runs a command in-process, reading what it printed and the exit code `main` returns.

/** A stream the CLI writes to; `isTTY` and `columns` say whether a person reads it, and how wide it is. */
export type CliOutput = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** Where Ctrl-C comes from: the process itself, or a stand-in that no signal reaches. */
export interface InterruptSource {
  once(event: 'SIGINT', listener: () => void): unknown;
  removeListener(event: 'SIGINT', listener: () => void): unknown;
}

export interface CliIo {
  stdout: CliOutput;
  stderr: CliOutput;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** TRAWL_API, TRAWL_KEY, and for `trawl keys` the database settings (loadConfig) */
  env: Record<string, string | undefined>;
  interrupts: InterruptSource;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    interrupts: process,
  };
}
