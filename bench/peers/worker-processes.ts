// Worker processes for the benchmarks that need the real `npm run worker` entry (src/worker.ts) apart from
// the API: started with tsx, ready once they log "worker started", stopped as an operator would (SIGTERM).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stopProcess } from '../../test/support/processes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Busy and total jiffies of the whole machine (/proc/stat's first line). */
export function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

export function startWorkers(
  count: number,
  env: Record<string, string>,
): { children: ChildProcess[]; ready: Promise<void> } {
  const children: ChildProcess[] = [];
  const readies: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    // a worker is ready once it logged that its queues are open (LOG_LEVEL=info for this line only)
    readies.push(
      new Promise<void>((resolve, reject) => {
        forwardFaults(child, (line) => {
          if (line.includes('"msg":"worker started"')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
      }),
    );
  }
  return { children, ready: Promise.all(readies).then(() => {}) };
}

export async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map((child) => stopProcess(child)));
}

/** A bench worker's environment: the bench's database schema and queue, loopback targets allowed, two runner
 * jobs, leases long enough for a loaded machine, and info logs (its "worker started" line says it is ready). */
export function benchWorkerEnv(target: {
  databaseUrl: string;
  redisUrl: string;
  schema: string;
}): Record<string, string> {
  return {
    DATABASE_URL: target.databaseUrl,
    REDIS_URL: target.redisUrl,
    DB_SCHEMA: target.schema,
    ALLOW_PRIVATE_NETWORKS: 'true',
    WORKER_CONCURRENCY: '2',
    LEASE_SECS: '60',
    LOG_LEVEL: 'info',
  };
}

/**
 * The API as it is deployed, alone in its process (`npm start`'s entry, src/server.ts, no worker), on a free
 * port: a bench that measures its latency must not share its event loop with the test web or the clients.
 * Resolves with its base URL once it listens.
 */
export async function startApiProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      RUN_WORKER: 'false',
      LOG_LEVEL: 'info',
      RATE_LIMIT_READ_PER_MIN: '1000000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the API exited (${code}) before it listened`)));
    forwardFaults(child, (line) => {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

/**
 * Reads a bench process's log lines (pino JSON on stdout): each goes to `onLine`, and warnings, errors and
 * fatals (pino levels 40–60) go on to this process's stderr, so a fault a bench's worker meets is seen rather
 * than only making its figures worse.
 */
function forwardFaults(child: ChildProcess, onLine: (line: string) => void): void {
  createInterface({ input: child.stdout! }).on('line', (line) => {
    onLine(line);
    if (/"level":(4|5|6)0[,}]/.test(line)) process.stderr.write(`[${child.pid}] ${line}\n`);
  });
}
