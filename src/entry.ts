// What both entries (server.ts, worker.ts) do around their own work: read the configuration or stop with a
// message naming the variable, report a failed start, and close once on SIGINT/SIGTERM.
import { type Config, ConfigError, loadConfig } from './config.js';

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

/** Runs `close` once, on the first SIGINT or SIGTERM, then exits. */
export function closeOnSignals(close: (signal: string) => Promise<void>): void {
  let closing = false;
  const onSignal = (signal: string) => {
    if (closing) return;
    closing = true;
    void close(signal).finally(() => process.exit(0));
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
}

export function runEntry(name: string, main: () => Promise<void>): void {
  main().catch((error) => {
    process.stderr.write(
      `${name}: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
    );
    process.exit(1);
  });
}
