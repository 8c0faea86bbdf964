// The data sets under ../shared/data (beside the repository): where they are, and what a test does without
// them. On a developer's machine a missing data set skips the tests that read it, with a message saying
// which; under CI (CI=true) it fails them instead, so a CI run can never pass by silently testing less.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Absolute path of `relative` inside shared/data (a folder path ends in `/`). */
export function sharedDataPath(relative: string): string {
  return fileURLToPath(new URL(`../../../shared/data/${relative}`, import.meta.url));
}

/**
 * The `skip` option of a test that reads shared data: false when every file is there, else the reason.
 * `missing` (optional) explains what is absent; by default the listed paths are checked for existence.
 * Under CI=true nothing is skipped: the test runs and fails on the missing data with the reason.
 */
export function skipWithoutSharedData(relativePaths: string[], missing?: string | null): string | false {
  const reason =
    missing !== undefined
      ? missing
      : relativePaths.every((relative) => existsSync(sharedDataPath(relative)))
        ? null
        : `shared/data/${relativePaths.join(', shared/data/')} not present`;
  if (reason === null) return false;
  if (process.env.CI === 'true') {
    throw new Error(`CI=true and ${reason}: CI must run the tests that read ../shared/data`);
  }
  return reason;
}
