// Runs a `trawl` command in the test's own process, through `main(argv, io)` (src/cli/io.ts): what it prints
// to stdout and stderr is captured as text, stdin is given (or empty) and, like stdout and stderr, not a
// terminal (unless `terminalColumns` makes stdout one), its environment is the test's with `env` over it,
// and no Ctrl-C reaches it. The command sees what a script would show it, without the start-up of a process;
// what only a process shows (its exit status, a signal, a real terminal) is tested by spawning the entry
// (`entryArgs('src/cli/trawl')`, paths.ts).
import { EventEmitter } from 'node:events';
import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export interface TrawlRun {
  /** the exit code `main` returns, which the entry passes to process.exit */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A stream that keeps what is written to it; not a terminal, so commands print JSON lines, unless it is given
 * a width: then it stands for a terminal that wide, and commands print what a person reads.
 */
class CapturedOutput extends Writable {
  readonly isTTY: boolean;
  private readonly chunks: Buffer[] = [];

  constructor(readonly columns?: number) {
    super();
    this.isTTY = columns !== undefined;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    done();
  }

  /** decoded once at the end: a streamed download may split a character across two chunks */
  get text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

export async function trawlInProcess(
  args: string[],
  env: Record<string, string>,
  options: { stdin?: string; terminalColumns?: number } = {},
): Promise<TrawlRun> {
  const stdout = new CapturedOutput(options.terminalColumns);
  const stderr = new CapturedOutput();
  const stdin = Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]);
  const code = await main(args, {
    stdout,
    stderr,
    stdin,
    env: { ...process.env, ...env },
    interrupts: new EventEmitter(),
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}
