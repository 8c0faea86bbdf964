// `trawl keys create --name <name> [--admin] | list | revoke <id|prefix> | open [--yes]`: manage API keys
// directly in the database (DATABASE_URL, or the embedded PostgreSQL `npm start` runs). The one CLI command
// that does not go through /v1: it is an operator's tool, how the first admin key is made, and the one way
// back to open mode. `create` prints the key alone on stdout (the rest goes to stderr):
// `export TRAWL_KEY=$(npx trawl keys create --name ci)`.
import { createInterface } from 'node:readline';
import pg from 'pg';
import { type Config, loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/database.js';
import { embeddedUrl } from '../db/embedded.js';
import { KeysRepository } from '../db/keys-repo.js';
import { OPEN_TENANT } from '../db/tenant-scope.js';
import { TrawlError } from '../errors.js';
import { type ApiKey, KeyService } from '../services/use-cases/keys.js';
import type { CliIo } from './io.js';

async function open(config: Config, io: CliIo): Promise<Database> {
  const log = (message: string) => io.stderr.write(`${message}\n`);
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

export type KeysAction =
  | { create: { name: string; admin: boolean } }
  | { list: true }
  | { revoke: string }
  | { open: { confirmed: boolean } };

/** The word a person types to confirm `keys open`: the mode they ask for, not a reflexive "y". */
const OPEN_CONFIRMATION = 'open';

/**
 * Whether the operator confirms returning to open mode: `--yes`, or "open" typed at the terminal. A script
 * (stdin not a terminal) without `--yes` is refused rather than left waiting for an answer.
 */
async function confirmOpen(confirmed: boolean, activeKeys: number, io: CliIo): Promise<boolean> {
  if (confirmed) return true;
  if (!io.stdin.isTTY) return false;
  const prompt = createInterface({ input: io.stdin, output: io.stderr });
  const answer = await new Promise<string | null>((resolve) => {
    prompt.once('SIGINT', () => resolve(null));
    prompt.once('close', () => resolve(null));
    prompt.question(
      `This revokes ${activeKeys} active API key(s) and runs trawl OPEN: anyone who can reach it may use /v1 ` +
        `without a key. Type "${OPEN_CONFIRMATION}" to confirm: `,
      resolve,
    );
  });
  prompt.close();
  return answer?.trim() === OPEN_CONFIRMATION;
}

async function openService(keys: KeyService, config: Config, confirmed: boolean, io: CliIo): Promise<void> {
  const active = (await keys.list()).filter((key) => !key.revokedAt).length;
  if (!(await confirmOpen(confirmed, active, io))) {
    throw new TrawlError(
      'forbidden',
      `keys open: not confirmed, nothing changed (type "${OPEN_CONFIRMATION}" at the prompt, or pass --yes)`,
    );
  }
  const released = await keys.openService();
  io.stdout.write(
    `revoked and released ${released.length} key(s): the service runs open from its next request, ` +
      `and what is made without a key belongs to the tenant "${OPEN_TENANT}". ` +
      'Creating a key closes it again (trawl keys create --name admin --admin).\n',
  );
  if (released.length > 0) io.stderr.write(`${released.map(describe).join('\n')}\n`);
  if (config.requireApiKey) {
    io.stderr.write('REQUIRE_API_KEY=true is set: /v1 refuses requests without a key until it is unset\n');
  }
}

export async function runKeys(action: KeysAction, io: CliIo): Promise<void> {
  const config = loadConfig(io.env);
  const db = await open(config, io);
  try {
    const keys = new KeyService(new KeysRepository(db.pool));
    if ('create' in action) {
      const created = await keys.create(action.create);
      io.stderr.write(`created ${describe(created)}\nthe key (shown this once, store it now):\n`);
      io.stdout.write(`${created.key}\n`);
    } else if ('list' in action) {
      const all = await keys.list();
      if (all.length) io.stdout.write(`${all.map(describe).join('\n')}\n`);
      if (!(await keys.closedByKeys())) {
        io.stderr.write(
          all.length
            ? 'no key holds the service closed (trawl keys open released them): it runs open\n'
            : 'no API keys: the service runs open\n',
        );
      }
    } else if ('open' in action) {
      await openService(keys, config, action.open.confirmed, io);
    } else {
      io.stdout.write(`revoked ${describe(await keys.revoke(action.revoke))}\n`);
    }
  } finally {
    await db.close();
  }
}
