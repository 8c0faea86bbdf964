// What each crawler child reports to bench/crawl.ts, and the /proc readings behind the server-side CPU
// figures (PostgreSQL backends, redis-server): Linux only, and a reading that /proc refuses counts as absent.
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import { type Config, loadConfig } from '../../src/config.js';

export interface CrawlerReport {
  /** Wall time from the crawl's start to the crawler saying it is done (process start-up excluded). */
  crawlMs: number;
  /** User + system CPU of the crawler's process over the crawl window. */
  cpuSecs: number;
  /** The process's high-water resident set (getrusage ru_maxrss), start-up included. */
  peakRssMiB: number;
  /** CPU of server processes the crawler drives (PostgreSQL, Redis), by name. */
  serverCpuSecs: Record<string, number>;
  /** What the crawler itself says it did (pages stored, status), for cross-checking the test web's log. */
  notes: string;
  /**
   * trawl: the text job that follows the crawl (every stored page's main text and word counts), measured
   * apart from the crawl window: its wall time, this process's CPU and PostgreSQL's over it.
   */
  textJob?: { ms: number; cpuSecs: number; serverCpuSecs: number };
  /** With --profile (trawl): statements sent to PostgreSQL by name, with their summed round-trip times. */
  statements?: Record<string, { count: number; ms: number }>;
}

export interface CrawlChildOptions {
  seeds: string[];
  /** Origins of the test web (scheme://ip:port). */
  origins: string[];
  concurrency: number;
  maxPages: number;
  /** trawl only */
  redisUrl?: string | null;
  databaseUrl?: string;
  workers?: number;
  /** trawl only: count statements per name (costs a little; off for the figures of record). */
  profile?: boolean;
  /** trawl only: where to write a .cpuprofile of the crawl window (start-up and shutdown left out). */
  cpuProfilePath?: string;
}

const CLOCK_TICKS_PER_SEC = 100; // USER_HZ, 100 on every Linux ABI Node runs on

/** utime + stime of a process in seconds, or null when it is gone (or not ours to read). */
export function processCpuSecs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / CLOCK_TICKS_PER_SEC : null;
  } catch {
    return null;
  }
}

/** Pids whose /proc/<pid>/comm is `name`. */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // exited between readdir and read
    }
  }
  return pids;
}

/**
 * CPU used by a changing set of processes since start(): each pid's growth over its first reading (a pid
 * first seen later counts from zero, since it was born inside the window). Sampled, so a process that exits
 * between two samples loses its last interval.
 */
export class CpuMeter {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();

  constructor(private readonly pidsNow: () => number[] | Promise<number[]>) {}

  async sample(bornInside = true): Promise<void> {
    for (const pid of await this.pidsNow()) {
      const secs = processCpuSecs(pid);
      if (secs === null) continue;
      if (!this.first.has(pid)) this.first.set(pid, bornInside ? 0 : secs);
      this.last.set(pid, secs);
    }
  }

  start(): Promise<void> {
    return this.sample(false);
  }

  get secs(): number {
    let total = 0;
    for (const [pid, last] of this.last) total += last - (this.first.get(pid) ?? last);
    return total;
  }
}

export function ownUsage(): { cpuSecs: number; peakRssMiB: number } {
  const usage = process.resourceUsage();
  return {
    cpuSecs: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    peakRssMiB: usage.maxRSS / 1024,
  };
}

/**
 * Drops a bench's schema and the one the job queue made beside it on the PostgreSQL backend (`<schema>_bullmq`),
 * so that no run leaves tables behind. Failures are ignored: it runs while a bench is already ending.
 */
export async function dropBenchSchemas(
  db: { query: (text: string) => Promise<unknown> },
  schema: string,
): Promise<void> {
  for (const name of [schema, `${schema}_bullmq`]) {
    await db.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).catch(() => {});
  }
}

/** The on-disk size of a bench schema's tables, with their indexes and TOAST, in MiB. */
export async function benchSchemaMiB(db: pg.Client, schema: string): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
    [schema],
  );
  return Number(rows[0]!.bytes) / 2 ** 20;
}

/** trawl's configuration in a benchmark: a schema of its own, loopback targets allowed, quiet logs. */
export function benchTrawlConfig(databaseUrl: string, redisUrl: string, schema: string): Config {
  return loadConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    DB_SCHEMA: schema,
    ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
    LEASE_SECS: '60',
    WORKER_CONCURRENCY: '8',
  });
}
