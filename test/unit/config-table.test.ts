// Holds the configuration table of docs/operations.md to loadConfig (src/config.ts): every variable
// loadConfig reads is in the table with its default, and the table names no variable it does not read.
// The variables are found by watching which names loadConfig asks its environment for, and each one's
// default by setting it and seeing which field of the configuration moves, so a variable added to
// config.ts without a row (or a default changed on one side only) fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { type Config, loadConfig } from '../../src/config.js';

/** Defaults the table states in words because they depend on the machine, each with what it must say. */
const DESCRIBED: Record<string, string> = {
  CPU_POOL_THREADS: 'cores − 1 (at least 1)',
};

/** Values tried, in order, to find the field a variable sets: one of them is valid and not its default. */
const PROBES = [
  '2',
  '3',
  '2000',
  '2000000',
  '2000000000',
  'true',
  'false',
  'debug',
  'postgres://db.test/x',
  'redis://cache.test',
];

interface Row {
  variable: string;
  default: string;
}

/** The rows of the table under `## Configuration`, one per variable (`A` / `B` rows give one each). */
function configurationTable(markdown: string): Row[] {
  const section = markdown.split(/^## Configuration$/m)[1]?.split(/^## /m)[0];
  assert.ok(section, 'docs/operations.md has a "## Configuration" section');
  const rows: Row[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split(' | ');
    if (!line.startsWith('| `') || cells.length < 3) continue;
    const variables = [...cells[0]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!);
    const defaults = variables.length > 1 ? cells[1]!.split(' / ') : [cells[1]!];
    assert.equal(defaults.length, variables.length, `${variables.join(', ')}: one default each`);
    for (const [index, variable] of variables.entries())
      rows.push({ variable, default: defaults[index]!.trim() });
  }
  return rows;
}

/** The names loadConfig reads from its environment. */
function variablesRead(): Set<string> {
  const read = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === 'string') read.add(name);
      return undefined;
    },
  });
  loadConfig(env);
  return read;
}

/** The field of the configuration that `variable` sets, found by setting it to a valid other value. */
function fieldOf(variable: string, defaults: Config): keyof Config {
  for (const value of PROBES) {
    let config: Config;
    try {
      config = loadConfig({ [variable]: value });
    } catch {
      continue;
    }
    const moved = (Object.keys(defaults) as (keyof Config)[]).filter(
      (key) => JSON.stringify(config[key]) !== JSON.stringify(defaults[key]),
    );
    if (moved.length > 0) return moved[0]!;
  }
  assert.fail(`${variable}: no value tried sets a field of the configuration`);
}

const UNITS: Record<string, number> = { KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

/**
 * Whether the table's default text states `value`. A default derived from another variable is said in words
 * with the value it takes by default in parentheses ("a twelfth of `X` (128 MiB)"): the parentheses are read.
 */
function states(text: string, value: unknown): boolean {
  const derived = /^[a-z][^(]*\(([^()]+)\)$/.exec(text);
  if (derived !== null) return states(derived[1]!, value);
  if (value === null) return text === 'unset';
  if (typeof value === 'number') {
    const match = /^(\d+)(?:\s(KiB|MiB|GiB))?(?:\s|$)/.exec(text);
    return match !== null && Number(match[1]) * (match[2] ? UNITS[match[2]]! : 1) === value;
  }
  return text.replace(/^`(.*)`$/, '$1') === String(value);
}

test('the configuration table of docs/operations.md is what loadConfig reads, with its defaults', () => {
  const rows = configurationTable(readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8'));
  const read = variablesRead();
  const listed = new Set(rows.map((row) => row.variable));
  assert.ok(read.size > 30, `loadConfig reads its variables through env (${read.size} seen)`);
  assert.deepEqual(
    [...read].filter((variable) => !listed.has(variable)),
    [],
    'variables loadConfig reads that the table lacks',
  );
  assert.deepEqual(
    [...listed].filter((variable) => !read.has(variable)),
    [],
    'variables the table names that loadConfig does not read',
  );
  assert.equal(listed.size, rows.length, 'each variable has one row');

  const defaults = loadConfig({});
  for (const row of rows) {
    const described = DESCRIBED[row.variable];
    if (described !== undefined) {
      assert.equal(row.default, described, `${row.variable}: its default in words`);
      continue;
    }
    const field = fieldOf(row.variable, defaults);
    assert.ok(
      states(row.default, defaults[field]),
      `${row.variable}: the table says ${JSON.stringify(row.default)}, loadConfig's default is ${JSON.stringify(defaults[field])}`,
    );
  }
});
