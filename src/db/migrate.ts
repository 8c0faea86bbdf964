// Applies migrations/NNNN_name.sql in order, each once, in a transaction, under an advisory lock so two
// processes starting together do not race. BullMQ's PostgreSQL backend migrates its own schema the same way.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));
// arbitrary but fixed: pg_advisory_xact_lock key for "trawl migrations"
const MIGRATION_LOCK_KEY = 0x7472_6177;

export async function migrate(pool: pg.Pool, schema: string): Promise<string[]> {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort();
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(`SET LOCAL search_path TO "${schema}"`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map(
        (row) => row.name,
      ),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      await client.query(readFileSync(MIGRATIONS_DIR + file, 'utf8'));
      await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return applied;
}
