// Entry of the `trawl` command (package.json "bin" → bin/trawl.mjs → dist/cli/trawl.js). process.exit, not
// exitCode: an idle keep-alive socket of fetch must not hold a finished command open; stdout to a pipe or a
// file is written synchronously on Linux, so nothing printed is lost.
import { processIo } from './io.js';
import { main } from './main.js';

main(process.argv.slice(2), processIo()).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `trawl: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(3);
  },
);
