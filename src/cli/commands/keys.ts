// `trawl keys create | list | revoke | open`: manages API keys directly in the database. The work is in
// ../keys.ts, loaded only when one of these runs: it brings the database layer, which no other command needs.
import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import type { KeysAction } from '../keys.js';

export function addKeysCommands(program: Command, io: CliIo): void {
  const runKeys = async (action: KeysAction): Promise<void> =>
    (await import('../keys.js')).runKeys(action, io);
  const keys = program
    .command('keys')
    .description('manage API keys directly in the database (DATABASE_URL or the embedded one)');
  keys
    .command('create')
    .requiredOption('--name <name>', 'what the key is for')
    .option('--admin', 'may manage keys through the API')
    .action((options: { name: string; admin?: boolean }) =>
      runKeys({ create: { name: options.name, admin: Boolean(options.admin) } }),
    );
  keys.command('list').action(() => runKeys({ list: true }));
  keys
    .command('revoke')
    .argument('<id-or-prefix>', 'key id or its listed prefix')
    .action((key: string) => runKeys({ revoke: key }));
  keys
    .command('open')
    .description('return to open mode: revoke and release every key, so /v1 needs none (asks to confirm)')
    .option('--yes', 'confirm without asking (for scripts)')
    .action((options: { yes?: boolean }) => runKeys({ open: { confirmed: Boolean(options.yes) } }));
}
