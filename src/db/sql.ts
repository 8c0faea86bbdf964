// Every SQL statement lives in its own file under src/db/sql/ (bullmq's habit): reviewed as SQL, loaded once
// by name. The first line of each file is a `--` comment saying what it does.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { QueryConfig } from 'pg';

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

/**
 * src/db/sql/<name>.sql as a named (prepared) statement: each pooled connection parses and plans it once,
 * then only binds values. Meant for the statements a crawl runs for every page, where planning each one anew
 * is a large share of PostgreSQL's time. A statement used this way must have a plan that is
 * good whatever the table sizes (index probes by key), since the generic plan is kept until the table's
 * statistics change. Connections keep one schema (search_path is set when they open).
 */
export function prepared(name: string, values: unknown[]): QueryConfig {
  return { name, text: sql(name), values };
}
