// Opens the system of record: DATABASE_URL, or an embedded PostgreSQL when it is unset. The pool's
// connections use the configured schema, and migrations run before anything else touches it.
import pg from 'pg';
import type { Config } from '../config.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './embedded.js';
import { migrate } from './migrate.js';

// int8 (bigserial ids, counts) as numbers: ids stay far below 2^53, and JSON clients expect numbers
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export interface Database {
  pool: pg.Pool;
  /** The URL the pool connects to (the embedded server's when DATABASE_URL is unset). */
  url: string;
  schema: string;
  close(): Promise<void>;
}

export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbSchema'> & {
    embeddedPort?: number;
    dbPoolSize?: number;
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
  const pool = new pg.Pool({
    connectionString: url,
    max: config.dbPoolSize ?? 8,
    // synchronous_commit off: a crash may lose the last few hundred ms of commits, which leases already
    // make good (an unfinished page is fetched again); every page write stops waiting for a disk flush.
    options: `-c search_path="${config.dbSchema}" -c synchronous_commit=off`,
  });
  pool.on('error', (error) => log(`idle database connection failed: ${error.message}`));
  try {
    await migrate(pool, config.dbSchema);
  } catch (error) {
    await pool.end();
    await embedded?.stop();
    throw error;
  }
  return {
    pool,
    url,
    schema: config.dbSchema,
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}
