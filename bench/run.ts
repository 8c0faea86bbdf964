// `npm run bench -- <name> [args]` runs bench/<name>.ts's exported run(args); with no name it lists the
// benchmarks (the files in bench/ that export run) and runs each in turn. Exits non-zero when one fails, so a
// script or CI step can rely on the exit code.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Bench = { run(args: string[]): Promise<void> };

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const SELF = basename(fileURLToPath(import.meta.url));

async function load(name: string): Promise<Bench | null> {
  const module = (await import(pathToFileURL(`${BENCH_DIR}/${name}.ts`).href)) as Partial<Bench>;
  return typeof module.run === 'function' ? (module as Bench) : null;
}

/** Names of the .ts files beside this one that export run(args), sorted. */
async function available(): Promise<string[]> {
  const files = (await readdir(BENCH_DIR, { withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && entry.name !== SELF)
    .map((entry) => entry.name.slice(0, -3))
    .sort();
  const names: string[] = [];
  for (const name of files) if (await load(name)) names.push(name);
  return names;
}

async function runOne(name: string, args: string[]): Promise<boolean> {
  const bench = await load(name);
  if (!bench) throw new Error(`bench/${name}.ts does not export run(args)`);
  const startedMs = performance.now();
  process.stdout.write(`\n=== bench ${name}${args.length ? ` ${args.join(' ')}` : ''}\n`);
  try {
    await bench.run(args);
    process.stdout.write(`=== ${name} done in ${((performance.now() - startedMs) / 1000).toFixed(1)} s\n`);
    return true;
  } catch (error) {
    process.stderr.write(
      `=== ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`,
    );
    return false;
  }
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--help' || name === '-h' || name === '--list') {
    process.stdout.write(
      `usage: npm run bench -- [<name> [args]]\nbenchmarks: ${(await available()).join(', ')}\n`,
    );
    return 0;
  }
  if (name !== undefined) {
    // Only the named file is loaded: the others' imports (and their failures) do not matter to this run.
    if (!/^[\w-]+$/.test(name) || name === SELF.slice(0, -3) || !existsSync(`${BENCH_DIR}/${name}.ts`)) {
      process.stderr.write(`no benchmark "${name}"; available: ${(await available()).join(', ')}\n`);
      return 2;
    }
    return (await runOne(name, args)) ? 0 : 1;
  }
  const names = await available();
  process.stdout.write(`benchmarks: ${names.join(', ')}\n`);
  const failed: string[] = [];
  for (const each of names) if (!(await runOne(each, []))) failed.push(each);
  if (failed.length > 0) process.stderr.write(`failed: ${failed.join(', ')}\n`);
  return failed.length > 0 ? 1 : 0;
}

// Exit explicitly: a benchmark that leaves a pool or timer open must not keep the process (and CI) waiting.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
    process.exit(1);
  },
);
