// The server process as a user starts it, on the embedded PostgreSQL (DATABASE_URL unset): a taken
// EMBEDDED_PG_PORT, or a taken PORT, stops it with a message that says so; SIGTERM, and a terminal's Ctrl-C (SIGINT to the
// whole process group), stop it in order within seconds and leave no PostgreSQL behind.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { dropSchema, TEST_DATABASE_URL } from '../helper.js';
import { eventually } from '../support/eventually.js';
import { entryArgs, REPO_ROOT } from '../support/paths.js';

function listenOnFreePort(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen({ port: 0, host: '127.0.0.1' }, () => resolve(server));
  });
}

async function freePort(): Promise<number> {
  const server = await listenOnFreePort();
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
}

/** `npm start`'s entry from source, on the embedded PostgreSQL under `dataDir`. */
function startServer(dataDir: string, embeddedPort: number): Started {
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(embeddedPort),
    PORT: '0',
  };
  delete env.DATABASE_URL;
  delete env.DB_SCHEMA;
  return spawnServer(env);
}

function spawnServer(settings: Record<string, string | undefined>): Started {
  const env: Record<string, string | undefined> = {
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_MS: '2000',
    ...settings,
  };
  delete env.REDIS_URL;
  // a process group of its own, as a terminal gives a foreground job: SIGINT to the group is a Ctrl-C
  const child = spawn(process.execPath, entryArgs('src/server'), {
    cwd: REPO_ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return { child, stdout: () => stdout, stderr: () => stderr };
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  await eventually(condition, { message: what, timeoutMs, intervalMs: 100 });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('a taken EMBEDDED_PG_PORT stops trawl with a message naming it', { timeout: 120_000 }, async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trawl-port-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const squatter = await listenOnFreePort();
  t.after(() => squatter.close());
  const { port } = squatter.address() as { port: number };
  const server = startServer(dataDir, port);
  t.after(() => server.child.exitCode === null && server.child.kill('SIGKILL'));
  const [code] = await once(server.child, 'exit');
  assert.equal(code, 1);
  const message = server.stderr();
  assert.match(message, new RegExp(`port 127\\.0\\.0\\.1:${port} is already in use`));
  assert.match(message, /EMBEDDED_PG_PORT/);
  assert.doesNotMatch(message, /undefined|\n\s+at /, 'a message, not a stack');
});

test('a taken PORT stops trawl with one line naming it, before its worker starts', {
  timeout: 120_000,
}, async (t) => {
  const schema = `t_port_${process.pid}`;
  t.after(() => dropSchema(schema));
  const squatter = createServer();
  await new Promise<void>((listening) => squatter.listen({ port: 0, host: '0.0.0.0' }, listening));
  t.after(() => squatter.close());
  const { port } = squatter.address() as { port: number };
  const server = spawnServer({
    ...process.env,
    DATABASE_URL: TEST_DATABASE_URL,
    DB_SCHEMA: schema,
    PORT: String(port),
    HOST: '0.0.0.0',
  });
  t.after(() => server.child.exitCode === null && server.child.kill('SIGKILL'));
  const [code] = await once(server.child, 'exit');
  assert.equal(code, 1, server.stdout() + server.stderr());
  assert.equal(
    server.stderr(),
    `trawl: failed to start: port ${port} on 0.0.0.0 is in use; set PORT to another port (or HOST to another address)\n`,
  );
  assert.doesNotMatch(server.stdout(), /worker started/);
  assert.doesNotMatch(server.stdout() + server.stderr(), /\n\s+at /, 'a message, not a stack');
});

test('as root, a DATA_DIR the user postgres cannot reach stops trawl at once with one line saying so', {
  timeout: 120_000,
  skip: process.getuid?.() === 0 ? false : 'the embedded server runs as postgres only under root',
}, async (t) => {
  const closed = mkdtempSync(join(tmpdir(), 'trawl-closed-')); // 0700, as /root is
  t.after(() => rmSync(closed, { recursive: true, force: true }));
  const dataDir = join(closed, 'data');
  const server = startServer(dataDir, await freePort());
  t.after(() => server.child.exitCode === null && server.child.kill('SIGKILL'));
  const [code] = await once(server.child, 'exit');
  assert.equal(code, 1, server.stdout() + server.stderr());
  const lines = server.stderr().trim().split('\n');
  assert.equal(lines.length, 1, server.stderr());
  assert.match(
    lines[0]!,
    /^trawl: failed to start: embedded PostgreSQL: .*the user postgres, which cannot enter /,
  );
  assert.ok(lines[0]!.includes(`enter ${closed} (mode 700`), lines[0]);
  assert.match(lines[0]!, /Set DATA_DIR to a folder it can reach .* or DATABASE_URL/);
  assert.ok(!existsSync(join(dataDir, 'pg', 'PG_VERSION')), 'no initdb was tried');
});

test('SIGTERM, then Ctrl-C, stop the server in order and leave no PostgreSQL', {
  timeout: 240_000,
}, async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trawl-stop-'));
  // as root the embedded server runs as the user `postgres`, which must reach its data directory
  chmodSync(dataDir, 0o755);
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const embeddedPort = await freePort();
  for (const [signal, target] of [
    ['SIGTERM', 'process'],
    ['SIGINT', 'group'],
  ] as const) {
    // the first start also creates the cluster (initdb)
    const server = startServer(dataDir, embeddedPort);
    t.after(() => server.child.exitCode === null && server.child.kill('SIGKILL'));
    await waitFor(() => server.stdout().includes('Server listening'), 120_000, 'the server to listen');
    const postmaster = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    assert.ok(alive(postmaster), 'the embedded PostgreSQL runs');

    const exited = once(server.child, 'exit');
    const signalledAt = Date.now();
    process.kill(target === 'group' ? -server.child.pid! : server.child.pid!, signal);
    const [code] = await exited;
    t.diagnostic(`${signal} to the ${target}: exited with ${code} in ${Date.now() - signalledAt} ms`);
    assert.equal(code, 0, server.stderr());
    await waitFor(() => !alive(postmaster), 60_000, 'the embedded PostgreSQL to stop');
    // closed in order: no connection of trawl's was still open when PostgreSQL stopped
    assert.doesNotMatch(server.stdout() + server.stderr(), /terminating connection|Unhandled 'error'/);
    assert.match(server.stdout(), /"msg":"shutting down"/);
  }
});
