// Keeps the README honest: starts the real server (src/server.ts) and runs every curl line of the README's
// walkthrough against it, with the seed pointed at the test web and <id> filled in from the first answer.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { dropSchema, eventually, TEST_DATABASE_URL } from '../helper.js';
import { stopProcess } from '../support/processes.js';
import { BENCHMARK_FEATURES, startTestWeb } from '../support/testweb/index.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The commands of a README block marked `<!-- marker … -->` (continuation lines joined, comments dropped). */
export function walkthroughCommands(readme: string, marker = 'readme-walkthrough'): string[] {
  const start = readme.indexOf(`<!-- ${marker}`);
  assert.ok(start >= 0, `README has a ${marker} block`);
  const block = readme.slice(
    readme.indexOf('```bash', start) + 7,
    readme.indexOf('```', readme.indexOf('```bash', start) + 7),
  );
  const commands: string[] = [];
  let current = '';
  for (const line of block.split('\n')) {
    const text = line.replace(/\s+#.*$/, '').trim();
    if (!text || text.startsWith('#')) continue;
    current += current ? ` ${text}` : text;
    if (current.endsWith('\\')) current = current.slice(0, -1).trim();
    else {
      commands.push(current);
      current = '';
    }
  }
  return commands;
}

test('every curl line of the README walkthrough, then every line of its command-line walkthrough, works against a live server', {
  timeout: 300_000,
}, async (t) => {
  const web = await startTestWeb({ seed: 5, hosts: 1, pagesPerHost: 6, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const schema = `t_${randomBytes(5).toString('hex')}`;
  t.after(() => dropSchema(schema));
  // The server listens on an ephemeral port (PORT=0) and says which one in its "listening" log line.
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: TEST_DATABASE_URL,
      DB_SCHEMA: schema,
      ALLOW_PRIVATE_NETWORKS: 'true',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // A server still loading may not act on SIGTERM; one left running kept this test file from ending (it
  // timed out at the file level after a failure), so it is killed outright if it has not exited in 30 s.
  t.after(() => stopProcess(server, 30_000));
  const port = await new Promise<number>((resolve, reject) => {
    // generous: on a loaded machine tsx alone can take tens of seconds to load the server
    const timer = setTimeout(
      () => reject(new Error('server did not say where it listens in 120 s')),
      120_000,
    );
    server.once('exit', (code) => reject(new Error(`server exited (${code}) before listening`)));
    // every log line is read (a full pipe would stall the server); the first "listening" one gives the port
    createInterface({ input: server.stdout! }).on('line', (line) => {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  const base = `http://127.0.0.1:${port}`;
  await eventually(async () => (await fetch(`${base}/readyz`)).ok, {
    message: 'the server to be ready',
    timeoutMs: 60_000,
    intervalMs: 100,
  });

  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const commands = walkthroughCommands(readme);
  assert.ok(commands.length >= 5, 'the walkthrough has its curl lines');
  let id = '';
  for (const [index, command] of commands.entries()) {
    assert.match(command, /^curl /);
    const line = command
      .replaceAll('localhost:3000', `127.0.0.1:${port}`)
      .replaceAll('https://example.org/', web.seeds[0]!)
      .replaceAll('<id>', id);
    const { stdout } = await run('bash', ['-c', `${line} -w '\\n%{http_code}'`]);
    const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
    const body = stdout.slice(0, stdout.lastIndexOf('\n'));
    if (line.includes('DELETE')) {
      // the crawl has finished by now: cancelling it is a 409 problem, as the README says
      assert.equal(status, 409, `${line} → ${status} ${body}`);
      assert.equal(JSON.parse(body).status, 409);
      continue;
    }
    assert.ok(status >= 200 && status < 300, `${line} → ${status} ${body}`);
    if (index === 0) {
      const created = JSON.parse(body);
      assert.equal(status, 202);
      id = created.id;
      // let the crawl finish (politeness is the default 1 s per host) so the reads below see results
      const state = await eventually(
        async () => {
          const body = (await (await fetch(`${base}/v1/crawls/${id}`)).json()) as { status: string };
          return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : undefined;
        },
        { message: `crawl ${id} to end`, timeoutMs: 150_000, intervalMs: 100 },
      );
      assert.equal(state.status, 'completed', JSON.stringify(state));
    } else if (line.includes('format=edges')) {
      assert.match(body, /^\d+\n/);
    } else {
      assert.ok(JSON.parse(body));
    }
  }
  // The export block, on the walkthrough's crawl: each file written as the README says, in its format.
  const exportDir = mkdtempSync(join(tmpdir(), 'trawl-readme-'));
  t.after(() => rmSync(exportDir, { recursive: true, force: true }));
  const exports = walkthroughCommands(readme, 'readme-export').filter((command) =>
    command.startsWith('curl '),
  );
  assert.ok(exports.length >= 4, 'the export block has its curl lines');
  for (const command of exports) {
    const [request, file] = command.split(' > ').map((part) => part.trim());
    assert.ok(request && file, `${command} writes a file`);
    const path = join(exportDir, file);
    const line = `${request.replaceAll('localhost:3000', `127.0.0.1:${port}`).replaceAll('<id>', id)} -o '${path}' -w '%{http_code}'`;
    const { stdout } = await run('bash', ['-c', line]);
    assert.equal(stdout, '200', `${line} → ${stdout}`);
    const bytes = readFileSync(path);
    if (file.endsWith('.jsonl')) {
      const records = bytes.toString('utf8').trimEnd().split('\n');
      assert.ok(records.length > 0 && records.every((record) => JSON.parse(record)), file);
    } else if (file.endsWith('.csv')) {
      assert.match(bytes.toString('utf8'), /^id,url,/, file);
    } else if (file.endsWith('.warc.gz')) {
      assert.match(gunzipSync(bytes).subarray(0, 9).toString('latin1'), /^WARC\/1\.1/, file);
    } else {
      assert.fail(`${file}: the test knows no such export`);
    }
  }
  // The command-line walkthrough, on the same server: `npx trawl` is run from the sources (as `npm run cli`).
  const cliCommands = walkthroughCommands(readme, 'cli-walkthrough');
  assert.ok(cliCommands.length >= 4, 'the CLI walkthrough has its lines');
  let cliId = '';
  for (const [index, command] of cliCommands.entries()) {
    assert.match(command, /^npx trawl /);
    const line = command
      .replace(/^npx trawl /, `${process.execPath} --import tsx src/cli/trawl.ts `)
      .replaceAll('https://example.org/', web.seeds[0]!)
      .replaceAll('<id>', cliId);
    const result = await run('bash', ['-c', line], {
      cwd: ROOT,
      env: { ...process.env, TRAWL_API: base, TRAWL_KEY: '' },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    if (line.includes(' cancel ')) {
      // the crawl has ended: the API's 409, shown with exit code 2 as the README says
      assert.equal(result.code, 2, `${line} → ${result.code} ${result.stderr}`);
      assert.match(result.stderr, /HTTP 409/);
      continue;
    }
    assert.equal(result.code, 0, `${line} → ${result.code} ${result.stderr}`);
    const lines = result.stdout.trim().split('\n').filter(Boolean);
    assert.ok(lines.length > 0, `${line} printed something`);
    for (const printed of lines) JSON.parse(printed); // piped: JSON lines
    if (index === 0) {
      cliId = String(JSON.parse(lines[0]!).id);
      assert.equal(JSON.parse(lines.at(-1)!).status, 'completed');
    }
  }
});
