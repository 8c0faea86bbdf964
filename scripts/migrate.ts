// `npm run migrate`: applies migrations/ to DATABASE_URL (the service also does this at every start).
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';

const config = loadConfig();
if (!config.databaseUrl) {
  process.stderr.write('migrate: DATABASE_URL is required\n');
  process.exit(2);
}
const pool = new pg.Pool({ connectionString: config.databaseUrl });
try {
  const applied = await migrate(pool, config.dbSchema);
  process.stdout.write(applied.length ? `applied ${applied.join(', ')}\n` : 'schema is up to date\n');
} finally {
  await pool.end();
}
