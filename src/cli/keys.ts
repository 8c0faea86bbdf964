// `trawl keys create --name <name> [--admin] | list | revoke <id|prefix>`: manage API keys directly in the
// database (DATABASE_URL, or the embedded PostgreSQL `npm start` runs). The one CLI command that does not go
// through /v1: it is an operator's tool, and how the first admin key is made. `create` prints the key alone
// on stdout (the rest goes to stderr): `export TRAWL_KEY=$(npx trawl keys create --name ci)`.
import pg from 'pg';
import { type Config, loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/database.js';
import { embeddedUrl } from '../db/embedded.js';
import { KeysRepository } from '../db/keys-repo.js';
import { type ApiKey, KeyService } from '../services/keys.js';

async function open(config: Config): Promise<Database> {
  const log = (message: string) => process.stderr.write(`${message}\n`);
  if (!config.databaseUrl) {
    // the embedded server `npm start` runs (EMBEDDED_PG_PORT) is reused when it is up
    const url = embeddedUrl(config.embeddedPort);
    const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    const running = await probe.connect().then(
      () => true,
      () => false,
    );
    await probe.end().catch(() => {});
    if (running) return openDatabase({ ...config, databaseUrl: url }, log);
  }
  return openDatabase(config, log);
}

function describe(key: ApiKey): string {
  const flags = [key.admin ? 'admin' : '', key.revokedAt ? `revoked ${key.revokedAt}` : '']
    .filter(Boolean)
    .join(', ');
  return `${key.id}  ${key.prefix.padEnd(14)}  ${key.name}${flags ? `  (${flags})` : ''}  created ${key.createdAt}`;
}

export type KeysAction = { create: { name: string; admin: boolean } } | { list: true } | { revoke: string };

export async function runKeys(action: KeysAction): Promise<void> {
  const db = await open(loadConfig());
  try {
    const keys = new KeyService(new KeysRepository(db.pool));
    if ('create' in action) {
      const created = await keys.create(action.create);
      process.stderr.write(`created ${describe(created)}\nthe key (shown this once, store it now):\n`);
      process.stdout.write(`${created.key}\n`);
    } else if ('list' in action) {
      const all = await keys.list();
      process.stdout.write(
        all.length ? `${all.map(describe).join('\n')}\n` : 'no API keys: the service runs open\n',
      );
    } else {
      process.stdout.write(`revoked ${describe(await keys.revoke(action.revoke))}\n`);
    }
  } finally {
    await db.close();
  }
}
