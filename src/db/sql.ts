// Every SQL statement lives in its own file under src/db/sql/ (bullmq's habit): reviewed as SQL, loaded once
// by name. The first line of each file is a `--` comment saying what it does.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SQL_DIR = fileURLToPath(new URL('./sql/', import.meta.url));

const statements = new Map<string, string>();
for (const file of readdirSync(SQL_DIR)) {
  if (file.endsWith('.sql')) statements.set(file.slice(0, -4), readFileSync(SQL_DIR + file, 'utf8'));
}

/** The text of src/db/sql/<name>.sql; throws at first use of a name that has no file. */
export function sql(name: string): string {
  const text = statements.get(name);
  if (text === undefined) throw new Error(`no SQL statement named ${name} in ${SQL_DIR}`);
  return text;
}
