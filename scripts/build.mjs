// Builds dist/ from src/: `npm start` and `npm run worker` only when the sources changed since dist/ was
// built (a fingerprint of their names, sizes and mtimes, kept in dist/), `npm run build` (--force) always.
// Plain JavaScript, so an install without devDependencies can still check a shipped dist/. The build goes
// to a directory of its own and replaces dist/ by renaming, under a lock file: two processes started from
// one checkout never build at once, and none runs from a half-written dist/.
// `--run dist/server.js` then runs that entry in this same process, which npm's shell `exec`s: SIGTERM and
// SIGINT from npm reach it directly (no shell left in between to die and orphan the server), and a signal
// during the build stops the build.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.sources');
const LOCK = path.join(ROOT, 'dist.lock');
const INPUTS = ['src', 'web', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const LOCK_WAIT_MS = 10 * 60_000;

function fingerprint() {
  const hash = createHash('sha256');
  const add = (file) => {
    const stat = fs.statSync(file);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(file).sort()) add(path.join(file, name));
    } else {
      hash.update(`${path.relative(ROOT, file)}\t${stat.size}\t${stat.mtimeMs}\n`);
    }
  };
  for (const input of INPUTS) {
    const file = path.join(ROOT, input);
    if (fs.existsSync(file)) add(file);
  }
  return hash.digest('hex');
}

function upToDate(sources) {
  try {
    return fs.readFileSync(STAMP, 'utf8') === sources;
  } catch {
    return false;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Takes dist.lock (waiting for another build to end); a lock whose process is gone is taken over. */
async function lock() {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(fs.readFileSync(LOCK, 'utf8'), 10);
    if (!Number.isInteger(holder) || !alive(holder)) {
      fs.rmSync(LOCK, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${LOCK} is still held by process ${holder}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function build(sources) {
  const esbuildPackage = path.join(ROOT, 'node_modules', 'esbuild');
  if (!fs.existsSync(esbuildPackage)) {
    throw new Error('dist/ is missing or older than src/, and esbuild is not installed: run npm install');
  }
  // leftovers of builds that were killed
  for (const name of fs.readdirSync(ROOT)) {
    if (/^dist\.(tmp|old)-\d+$/.test(name))
      fs.rmSync(path.join(ROOT, name), { recursive: true, force: true });
  }
  const next = path.join(ROOT, `dist.tmp-${process.pid}`);
  const old = path.join(ROOT, `dist.old-${process.pid}`);
  const started = Date.now();
  process.stderr.write('building dist/ from src/ …\n');
  // a signal now ends the build: its half-written output and the lock go
  const stop = (signal) => {
    fs.rmSync(next, { recursive: true, force: true });
    fs.rmSync(LOCK, { force: true });
    process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const sources = fs.readdirSync(SRC, { recursive: true });
    await compileSources(
      sources.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')),
      next,
    );
    fs.cpSync(path.join(SRC, 'db', 'sql'), path.join(next, 'db', 'sql'), { recursive: true });
    // CommonJS files are kept as they are (the CPU pool's thread entry is one, on purpose)
    for (const file of sources.filter((name) => name.endsWith('.cjs')))
      fs.copyFileSync(path.join(SRC, file), path.join(next, file));
    await bundleDashboard(path.join(next, 'dashboard'));
  } catch (error) {
    fs.rmSync(next, { recursive: true, force: true });
    throw error;
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
  fs.writeFileSync(path.join(next, '.sources'), sources);
  if (fs.existsSync(DIST)) fs.renameSync(DIST, old);
  fs.renameSync(next, DIST);
  fs.rmSync(old, { recursive: true, force: true });
  process.stderr.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/**
 * The .ts files of src/ (`sources`, relative to it) into `out`, one .js (and its source map) each, in the same
 * folders: the pools find their worker files beside themselves (`new URL('./cpu-tasks.js', import.meta.url)`),
 * so nothing is bundled. esbuild only strips the types, file by file, so a first start need not wait for a
 * type check: `npm run lint` (tsc --noEmit) is where the types are checked.
 */
async function compileSources(sources, out) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: sources.map((file) => path.join(SRC, file)),
    outbase: SRC,
    outdir: out,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    tsconfig: path.join(ROOT, 'tsconfig.build.json'),
    logLevel: 'warning',
  });
}

const runIndex = process.argv.indexOf('--run');
// only this script's own flags: what follows `--run <entry>` belongs to the entry (the CLI's arguments)
/**
 * The dashboard's scripts and stylesheet (web/dashboard/) into `out`, as plugins/dashboard.ts serves them: app.js,
 * and chunks it imports (the link graph's view, with sigma, is one, fetched only when that view opens).
 */
async function bundleDashboard(out) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: { app: path.join(ROOT, 'web', 'dashboard', 'main.ts') },
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    outdir: out,
    chunkNames: '[name]-[hash]',
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(ROOT, 'web', 'dashboard', 'styles.css'), path.join(out, 'app.css'));
}

const force = process.argv.slice(2, runIndex > 0 ? runIndex : undefined).includes('--force');
const entry = runIndex > 0 ? process.argv[runIndex + 1] : undefined;
try {
  if (force || !upToDate(fingerprint())) {
    await lock();
    try {
      // another start may have built it while this one waited for the lock
      const sources = fingerprint();
      if (force || !upToDate(sources)) await build(sources);
    } finally {
      fs.rmSync(LOCK, { force: true });
    }
  }
} catch (error) {
  process.stderr.write(`build: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
}
if (entry) {
  // the entry sees its own arguments, as if run as `node <entry> …` (the CLI reads them; the servers ignore them)
  process.argv = [process.argv[0], path.resolve(ROOT, entry), ...process.argv.slice(runIndex + 2)];
  await import(pathToFileURL(path.resolve(ROOT, entry)).href);
}
