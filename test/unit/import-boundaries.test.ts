// Layers point one way (CONTRIBUTING.md, Rules): every import of every file under src/ is read, static and
// dynamic, and checked against the rules below. The domain knows no HTTP, queue or SQL; services know no
// routes; the queue plumbing knows no use cases; the database reaches up to nothing.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, posix, relative, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Packages that carry HTTP, a queue or SQL, which the domain must not import (nor their sub-paths). */
const INFRASTRUCTURE_PACKAGES = ['fastify', 'bullmq', 'pg', 'ioredis'];

/** An import of `from` (a path under src/, with `/`): a file under src/, or a package by its name. */
type Target = { file: string } | { pkg: string };

/** The layer a path under src/ belongs to: its first folder, or the file itself at the top. */
const layerOf = (file: string) => file.split('/')[0] ?? file;

const isInfrastructure = (pkg: string) =>
  INFRASTRUCTURE_PACKAGES.some(
    (name) => pkg === name || pkg.startsWith(`${name}/`) || pkg.startsWith(`@${name}/`),
  );

/** Why `from` may not import `target`, or null when it may. */
function boundaryViolation(from: string, target: Target): string | null {
  const layer = layerOf(from);
  if ('pkg' in target) {
    if (layer === 'crawler' && isInfrastructure(target.pkg))
      return 'src/crawler/ knows no HTTP, queue or SQL packages';
    return null;
  }
  const to = layerOf(target.file);
  if (layer === 'crawler' && to !== 'crawler' && target.file !== 'errors.ts')
    return 'src/crawler/ imports only itself and src/errors.ts';
  if (layer === 'services' && (to === 'routes' || to === 'plugins'))
    return 'services import no routes or plugins';
  if (layer === 'jobs' && (to === 'services' || to === 'workers'))
    return 'src/jobs/ is queue plumbing: it imports no services or workers';
  if (layer === 'db' && ['services', 'routes', 'plugins', 'jobs', 'workers'].includes(to))
    return 'src/db/ imports no services, routes, plugins, jobs or workers';
  return null;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every module a file imports or re-exports, `import()` included, as TypeScript's own scanner reads them. */
function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
}

function targetOf(fromAbsolute: string, specifier: string): Target {
  if (!specifier.startsWith('.')) return { pkg: specifier };
  const absolute = join(dirname(fromAbsolute), specifier).replace(/\.js$/, '.ts');
  return { file: relative(SRC, absolute).split(sep).join(posix.sep) };
}

test('layers point one way: no file under src/ imports across a boundary', async () => {
  const violations: string[] = [];
  const files = await sourceFiles(SRC);
  assert.ok(files.length > 100, `found only ${files.length} files under ${SRC}`);
  for (const file of files) {
    const from = relative(SRC, file).split(sep).join(posix.sep);
    for (const specifier of importsOf(await readFile(file, 'utf8'))) {
      const why = boundaryViolation(from, targetOf(file, specifier));
      if (why) violations.push(`src/${from} imports ${specifier}: ${why}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('the rules catch each kind of crossing, and let the allowed ones by', () => {
  const crossings: Array<[string, Target]> = [
    ['crawler/engine/crawl-runner.ts', { file: 'db/crawl-store.ts' }],
    ['crawler/fetch/fetcher.ts', { file: 'config.ts' }],
    ['crawler/parse/html.ts', { pkg: 'fastify' }],
    ['crawler/parse/html.ts', { pkg: '@fastify/cors' }],
    ['crawler/parse/html.ts', { pkg: 'pg' }],
    ['crawler/parse/html.ts', { pkg: 'bullmq' }],
    ['crawler/parse/html.ts', { pkg: 'ioredis' }],
    ['services/use-cases/crawls.ts', { file: 'routes/index.ts' }],
    ['services/use-cases/crawls.ts', { file: 'plugins/problems.ts' }],
    ['jobs/producers.ts', { file: 'services/use-cases/crawls.ts' }],
    ['jobs/producers.ts', { file: 'workers/crawl.ts' }],
    ['db/crawls-repo.ts', { file: 'services/presentation/views.ts' }],
    ['db/crawls-repo.ts', { file: 'jobs/queues.ts' }],
    ['db/crawls-repo.ts', { file: 'workers/crawl.ts' }],
    ['db/crawls-repo.ts', { file: 'routes/index.ts' }],
    ['db/crawls-repo.ts', { file: 'plugins/problems.ts' }],
  ];
  for (const [from, target] of crossings)
    assert.ok(boundaryViolation(from, target), `${from} -> ${JSON.stringify(target)}`);
  const allowed: Array<[string, Target]> = [
    ['crawler/engine/crawl-runner.ts', { file: 'errors.ts' }],
    ['crawler/engine/crawl-runner.ts', { file: 'crawler/frontier/scope.ts' }],
    ['crawler/fetch/fetcher.ts', { pkg: 'undici' }],
    ['services/use-cases/crawls.ts', { file: 'db/crawls-repo.ts' }],
    ['workers/crawl.ts', { file: 'services/use-cases/crawl-stats.ts' }],
    ['db/crawls-repo.ts', { file: 'crawler/crawl-request.ts' }],
    ['jobs/producers.ts', { file: 'db/sql.ts' }],
  ];
  for (const [from, target] of allowed) assert.equal(boundaryViolation(from, target), null, from);
});
