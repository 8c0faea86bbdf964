// npm test: compiles src/, test/ and scripts/ once into .build/tests/ (esbuild strips the types file by file, so each test
// file starts as plain JavaScript instead of going through a loader), then runs the suite with `node --test`:
//   1. every test file on the PostgreSQL queue backend (REDIS_URL unset for them);
//   2. when REDIS_URL is set, the files whose behaviour depends on the queue backend (`*.queue.test.ts`) again,
//      on Redis. The rest never reach a queue, or reach it only through the interface both backends share.
// Arguments: test files or folders (`npm test -- test/routes`) run only those; `--backend=postgres` or
// `--backend=redis` runs one phase. TEST_CONCURRENCY sets how many files run at once (each file has its own
// database schema, job namespace and ports). Plain JavaScript, like scripts/build.mjs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILD = path.join(ROOT, '.build');
const TREE = path.join(BUILD, 'tests');
const COMPILED_FOLDERS = ['src', 'test', 'scripts'];
// what the compiled code and the tests read beside themselves, relative to the tree's root
const LINKED = ['migrations', 'web', 'docs', 'openapi', 'bin', 'package.json', 'README.md'];
// Files that run long go first, so that the short ones fill in around them: the suite ends when its last
// file does.
const ORDER = ['test/integration/readme', 'test/integration', 'test/browser', 'test/routes', 'test/'];
const CONCURRENCY = Number.parseInt(process.env.TEST_CONCURRENCY ?? '4', 10);

/** Every file below `folder`, as absolute paths. */
function filesBelow(folder) {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

async function compile() {
  const started = Date.now();
  fs.rmSync(TREE, { recursive: true, force: true });
  const sources = COMPILED_FOLDERS.flatMap((folder) => filesBelow(path.join(ROOT, folder)));
  const typescript = sources.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: typescript,
    outbase: ROOT,
    outdir: TREE,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  // Every other file too (SQL, fixtures), and the sources themselves, for the tests that read them.
  for (const file of sources) {
    const copy = path.join(TREE, path.relative(ROOT, file));
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(file, copy);
  }
  for (const name of LINKED) {
    if (fs.existsSync(path.join(ROOT, name)))
      fs.symlinkSync(path.join('..', '..', name), path.join(TREE, name));
  }
  // the data sets beside the checkout (../shared), where the compiled tests look for them
  fs.rmSync(path.join(BUILD, 'shared'), { force: true });
  fs.symlinkSync(path.join('..', '..', 'shared'), path.join(BUILD, 'shared'));
  return Date.now() - started;
}

/** The compiled test files, longest-running folders first; `only` (test paths) narrows them. */
function testFiles(only) {
  const rank = (file) => ORDER.findIndex((prefix) => file.startsWith(prefix));
  return filesBelow(path.join(TREE, 'test'))
    .map((file) => path.relative(TREE, file))
    .filter((file) => file.endsWith('.test.js'))
    .filter(
      (file) =>
        only.length === 0 ||
        only.some((wanted) => {
          const source = wanted.replace(/\.ts$/, '.js').replace(/\/$/, '');
          return file === source || file.startsWith(`${source}/`);
        }),
    )
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function runPhase(name, files, env) {
  if (files.length === 0) return Promise.resolve(0);
  const started = Date.now();
  process.stdout.write(`# test: ${files.length} files on the ${name} queue backend\n`);
  const args = [
    '--enable-source-maps',
    '--test',
    `--test-concurrency=${CONCURRENCY}`,
    '--test-timeout=300000',
    ...files,
  ];
  const child = spawn(process.execPath, args, { cwd: TREE, env, stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      process.removeListener('SIGINT', forward);
      process.removeListener('SIGTERM', forward);
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`# test: the ${name} backend's files took ${seconds} s\n`);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const args = process.argv.slice(2);
const backend = args.find((arg) => arg.startsWith('--backend='))?.slice('--backend='.length);
const only = args.filter((arg) => !arg.startsWith('--'));
const compileMs = await compile();
process.stdout.write(`# test: compiled src/, test/ and scripts/ into .build/tests/ in ${compileMs} ms\n`);

const files = testFiles(only);
if (files.length === 0) {
  process.stderr.write(`no test file matches ${only.join(' ')}\n`);
  process.exit(1);
}
const { REDIS_URL, ...withoutRedis } = process.env;
if (backend === 'redis' && !REDIS_URL) {
  process.stderr.write('--backend=redis needs REDIS_URL\n');
  process.exit(1);
}
// both phases run even when the first fails, so one run reports every failure
const results = [];
if (backend !== 'redis') results.push(await runPhase('PostgreSQL', files, withoutRedis));
if (backend !== 'postgres' && REDIS_URL) {
  const queueFiles = files.filter((file) => file.endsWith('.queue.test.js'));
  results.push(await runPhase('Redis', queueFiles, { ...withoutRedis, REDIS_URL }));
}
process.exit(results.some((code) => code !== 0) ? 1 : 0);
