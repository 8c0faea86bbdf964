// Where the repository is, and how a test starts one of trawl's entries as a process. A test runs either from
// its TypeScript source (`node --import tsx --test test/….test.ts`) or from the compiled tree that `npm test`
// builds (scripts/test.mjs: .build/tests/, two folders below the repository), so neither may assume the other.
import { fileURLToPath } from 'node:url';

/** Whether this test runs from the compiled tree (plain JavaScript) rather than its TypeScript sources. */
export const COMPILED = import.meta.url.endsWith('.js');

/** The repository's root folder (with a trailing slash): docs/, openapi/, package.json, node_modules/. */
export const REPO_ROOT = fileURLToPath(new URL(COMPILED ? '../../../../' : '../../', import.meta.url));

/** The root of the tree the tests run from: the repository itself, or the compiled tree. */
export const TREE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The arguments of `node` that run an entry of src/ (`'src/server'`, `'src/worker'`, `'src/cli/trawl'`), as an
 * absolute path: the compiled file beside this test, or the source through tsx.
 */
export function entryArgs(entry: string): string[] {
  return COMPILED ? [`${TREE_ROOT}${entry}.js`] : ['--import', 'tsx', `${TREE_ROOT}${entry}.ts`];
}
