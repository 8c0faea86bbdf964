#!/usr/bin/env node
// `npx trawl …` / `trawl …`: runs the compiled CLI (dist/cli/trawl.js), building dist/ first when the sources
// changed since it was built (scripts/build.mjs, the same build-once step `npm start` uses).
process.argv.splice(2, 0, '--run', 'dist/cli/trawl.js');
await import('../scripts/build.mjs');
