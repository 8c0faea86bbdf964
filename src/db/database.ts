// Opens the system of record: DATABASE_URL, or an embedded PostgreSQL when it is unset. The pool's
// connections use the configured schema, and migrations run before anything else touches it.
import pg from 'pg';
import type { Config } from '../config.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded.js';
import { migrate } from './migrate.js';

// int8 (bigserial ids, counts) as numbers: ids stay far below 2^53, and JSON clients expect numbers
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export interface Database {
  /**
   * The process's one pool: trawl's statements and BullMQ's (PostgreSQL backend) share it, so a process holds
   * at most `dbPoolSize` of these connections (plus the one LISTEN connection, see jobs/queues.ts).
   */
  pool: pg.Pool;
  /** How a dedicated connection (LISTEN) joins as this process: the pool's URL, name and options. */
  clientConfig: pg.ClientConfig;
  /** The URL the pool connects to (the embedded server's when DATABASE_URL is unset). */
  url: string;
  schema: string;
  close(): Promise<void>;
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbSchema'> & {
    embeddedPort?: number;
    dbPoolSize?: number;
    /** `application_name` of every connection, e.g. `trawl-worker:<pid>`: pg_stat_activity tells processes apart. */
    applicationName?: string;
  },
  log: (message: string) => void,
): Promise<Database> {
  let embedded: EmbeddedDatabase | null = null;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.embeddedPort ?? 54329,
      log,
    });
    url = embedded.url;
  }
  const clientConfig: pg.ClientConfig = {
    connectionString: url,
    application_name: config.applicationName ?? `trawl:${process.pid}`,
    // a dead server or a dropped connection is noticed in seconds, not after the OS's two hours
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // The search path also names BullMQ's schema (after trawl's, which new tables go to): BullMQ's SQL is
    // unqualified and runs on this pool. The two share no table or function name.
    // synchronous_commit off: a crash may lose the last few hundred ms of commits, which leases already
    // make good (an unfinished page is fetched again); every page write stops waiting for a disk flush.
    options: `-c search_path="${config.dbSchema}","${config.dbSchema}_bullmq" -c synchronous_commit=off`,
  };
  const pool = new pg.Pool({ ...clientConfig, max: config.dbPoolSize ?? 8 });
  pool.on('error', (error) => log(`idle database connection failed: ${error.message}`));
  // pg-pool hears a connection's errors only while it is idle: one checked out (a transaction, the webhook
  // delivery lock) and between statements when the server ends it would emit to no one, an uncaught exception
  // that ends the process. Its next statement fails instead, and the pool drops it when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    await migrate(pool, config.dbSchema);
  } catch (error) {
    await pool.end();
    await embedded?.stop();
    throw error;
  }
  return {
    pool,
    clientConfig,
    url,
    schema: config.dbSchema,
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}
