// Stopping a child process the tests and benchmarks started: SIGTERM first (it shuts down in order), SIGKILL
// when it has not exited within the grace (a server still loading may not act on SIGTERM, and one left
// running keeps a test file from ending).
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** Resolves once `child` has exited; a child already gone resolves at once. */
export async function stopProcess(child: ChildProcess, graceMs = 20_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(killer);
}
