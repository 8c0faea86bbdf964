// `npm run keys -- create --name ci [--admin] | list | revoke <id|prefix>`: manage API keys directly in the
// database (DATABASE_URL, or the embedded PostgreSQL `npm start` runs). The first admin key is made here.
// create prints the key alone on stdout (the rest goes to stderr): `export TRAWL_KEY=$(npm run -s keys -- create --name ci)`.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { type Config, ConfigError, loadConfig } from '../src/config.js';
import { type Database, openDatabase } from '../src/db/database.js';
import { embeddedUrl } from '../src/db/embedded.js';
import { KeysRepository } from '../src/db/keys-repo.js';
import { TrawlError } from '../src/errors.js';
import { type ApiKey, KeyService } from '../src/services/keys.js';

const USAGE = `usage: npm run keys -- create --name <name> [--admin]
       npm run keys -- list
       npm run keys -- revoke <id|prefix>`;

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

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, admin: { type: 'boolean', default: false } },
  });
  const [command, ...rest] = positionals;
  if (!command || !['create', 'list', 'revoke'].includes(command)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (command === 'create' && !values.name) {
    process.stderr.write(`keys create: --name is required\n${USAGE}\n`);
    return 2;
  }
  if (command === 'revoke' && rest.length !== 1) {
    process.stderr.write(`keys revoke: give one key id or prefix\n${USAGE}\n`);
    return 2;
  }
  const db = await open(loadConfig());
  try {
    const keys = new KeyService(new KeysRepository(db.pool));
    if (command === 'create') {
      const created = await keys.create({ name: values.name!, admin: values.admin });
      process.stderr.write(`created ${describe(created)}\nthe key (shown this once, store it now):\n`);
      process.stdout.write(`${created.key}\n`);
    } else if (command === 'list') {
      const all = await keys.list();
      process.stdout.write(
        all.length ? `${all.map(describe).join('\n')}\n` : 'no API keys: the service runs open\n',
      );
    } else {
      process.stdout.write(`revoked ${describe(await keys.revoke(rest[0]!))}\n`);
    }
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message =
      error instanceof TrawlError ||
      error instanceof ConfigError ||
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? (error as Error).message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    process.stderr.write(`keys: ${message}\n`);
    process.exit(1);
  },
);
