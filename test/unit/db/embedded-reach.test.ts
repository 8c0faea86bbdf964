// As root the embedded PostgreSQL runs as the user `postgres`: firstUnreachable names the folder that keeps it
// from a program or its data (a 0700 parent, as /root is), asked as that user. Needs root and that user.
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { firstUnreachable, postgresUserIfAny } from '../../../src/db/embedded.js';

const user = process.getuid?.() === 0 ? postgresUserIfAny() : null;

test('firstUnreachable names the 0700 folder above a program the user postgres must run', {
  skip: user ? false : 'needs root and the system user postgres',
}, (t) => {
  const closed = mkdtempSync(join(tmpdir(), 'trawl-reach-')); // mkdtemp makes it 0700, owned by root
  t.after(() => rmSync(closed, { recursive: true, force: true }));
  const bin = join(closed, 'project', 'native', 'bin');
  mkdirSync(bin, { recursive: true, mode: 0o755 });
  const program = join(bin, 'postgres');
  copyFileSync('/bin/true', program);
  chmodSync(program, 0o755);
  chmodSync(closed, 0o700);
  assert.equal(firstUnreachable(program, user!), closed);
  assert.equal(firstUnreachable(join(closed, 'project'), user!), closed);

  chmodSync(closed, 0o755);
  assert.equal(firstUnreachable(program, user!), null);
  // a folder further down, closed too, is the one named
  chmodSync(join(closed, 'project'), 0o700);
  assert.equal(firstUnreachable(program, user!), join(closed, 'project'));
  chmodSync(join(closed, 'project'), 0o755);
  // a program it may not run is named itself
  chmodSync(program, 0o700);
  assert.equal(firstUnreachable(program, user!), program);
});
