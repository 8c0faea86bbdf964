// dist/ as `npm start` builds and runs it (scripts/build.mjs): a build only when the sources changed, and the
// compiled entries find what they load beside themselves at run time under plain Node (no tsx): the CLI, the
// CPU pool's thread module, the document pool's reader process.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { makeDocx } from '../support/documents.js';
import { REPO_ROOT } from '../support/paths.js';

const ROOT = REPO_ROOT;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node …args` in the checkout, to its end (bounded: a hang fails the test, it does not hold the file). */
async function runNode(args: string[]): Promise<Run> {
  // plain Node: the test runner's tsx loader must not reach the compiled code
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/**
 * Runs an ES module's source, importing dist/ by absolute URL, under plain Node. From a file, not --eval: the
 * document pool forks its readers with this process's flags, and would hand them the --eval too.
 */
function runModule(source: string): Promise<Run> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'trawl-build-')), 'run.mjs');
  writeFileSync(file, source);
  return runNode([file]);
}
const distUrl = (file: string) => new URL(`dist/${file}`, `file://${ROOT}`).href;

test('the build runs once; unchanged sources start from the dist/ already built', async () => {
  const first = await runNode(['scripts/build.mjs']);
  assert.equal(first.code, 0, first.stderr);
  const second = await runNode(['scripts/build.mjs']);
  assert.equal(second.code, 0, second.stderr);
  assert.doesNotMatch(second.stderr, /building dist/);
});

test('the compiled CLI runs through bin/trawl.mjs', async () => {
  const help = await runNode(['bin/trawl.mjs', '--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage: trawl /m);
});

test("the compiled CPU pool's thread finds cpu-tasks.js beside it", async () => {
  await runNode(['scripts/build.mjs']);
  const run = await runModule(`
    import { CpuPool } from '${distUrl('services/pools/cpu-pool.js')}';
    const pool = new CpuPool({ threads: 1, timeoutMs: 120000, inlineMaxChars: 0 });
    const body = await pool.run('extract', { html: '<p>river harbour signal lantern</p>', options: {} }, 'html');
    process.stdout.write(JSON.parse(new TextDecoder().decode(body)).text);
    await pool.close();
  `);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /river harbour signal lantern/);
});

test("the compiled document pool's reader process starts from document-reader.js", async () => {
  await runNode(['scripts/build.mjs']);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'trawl-build-')), 'squash.docx');
  writeFileSync(file, makeDocx(['squash courts']));
  const run = await runModule(`
    import { readFileSync } from 'node:fs';
    import { DocumentPool } from '${distUrl('services/pools/document-pool.js')}';
    const pool = new DocumentPool({
      processes: 1, timeoutMs: 120000, heapMb: 256, memoryMb: 1024, maxUncompressedBytes: 1 << 20,
    });
    const read = await pool.read('DOCX', readFileSync(${JSON.stringify(file)}), { maxChars: 1000 });
    process.stdout.write(JSON.stringify(read));
    await pool.close();
  `);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { text: 'squash courts', truncated: false });
});
