// What both entries (server.ts, worker.ts) do around their own work: read the configuration or stop with a
// message naming the variable, report a failed start, and close once on SIGINT/SIGTERM.
import { type Config, ConfigError, loadConfig } from './config.js';
import { EmbeddedPostgresError } from './db/embedded.js';

/** A start that cannot go on for a reason the operator can fix; its message says which and how, in one line. */
export class StartError extends Error {
  override name = 'StartError';
}

export function configOrExit(name: string): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${name}: bad configuration: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/**
 * Runs `close` once, on the first SIGINT or SIGTERM, then exits. A close still running after `deadlineMs`
 * (a job that ignores the shutdown) is cut short: the process exits with code 1 all the same.
 */
export function closeOnSignals(close: (signal: string) => Promise<void>, deadlineMs = 30_000): void {
  let closing = false;
  const onSignal = (signal: string) => {
    if (closing) return;
    closing = true;
    setTimeout(() => {
      process.stderr.write(`shutdown took over ${deadlineMs} ms: exiting without waiting further\n`);
      process.exit(1);
    }, deadlineMs).unref();
    close(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${error instanceof Error ? error.stack : error}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
}

/** How long a shutdown may take in all: the runners' grace (twice: HTTP streams, then fetches), then 20 s. */
export function shutdownDeadlineMs(config: Config): number {
  return 2 * config.shutdownGraceMs + 20_000;
}

export function runEntry(name: string, main: () => Promise<void>): void {
  main().catch((error) => {
    // a known cause (a taken port, the embedded server's trouble) is told as such; anything else with its stack
    const told =
      error instanceof EmbeddedPostgresError || error instanceof StartError ? error.message : undefined;
    process.stderr.write(
      `${name}: failed to start: ${told ?? (error instanceof Error ? (error.stack ?? error.message) : error)}\n`,
    );
    process.exit(1);
  });
}
