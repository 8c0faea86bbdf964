// Configuration from the environment, validated once at start by both entries (server.ts, worker.ts).
// A bad value stops the process with a message naming the variable, instead of failing later.
import { availableParallelism } from 'node:os';
import { parseAllowedTarget } from './crawler/fetch/address-guard.js';

export interface Config {
  port: number;
  host: string;
  /** Unset → an embedded PostgreSQL is started under dataDir. */
  databaseUrl: string | null;
  /** The loopback port of that embedded PostgreSQL. */
  embeddedPort: number;
  /** Set → BullMQ runs on Redis; unset → on PostgreSQL (the same database). */
  redisUrl: string | null;
  workerConcurrency: number;
  runWorker: boolean;
  /** ALLOW_PRIVATE_NETWORKS=true: the SSRF guard is lifted altogether. */
  allowPrivateNetworks: boolean;
  /**
   * ALLOW_PRIVATE_NETWORKS as a comma list of networks and addresses, each with an optional port (127.0.0.2,
   * 10.1.0.0/16, 127.0.0.1:8080, [::1]:8080): only those private targets are reachable, every other one stays
   * refused (tests serve a page on one loopback address and check that a request to another is refused).
   * Empty otherwise.
   */
  allowedPrivateRanges: string[];
  /** Where a worker looks for Chromium to render pages (a crawl's `render`); missing: it cannot render. */
  chromiumPath: string;
  /** Pages one worker process renders at once (each a Chromium page); more wait their turn. */
  renderConcurrency: number;
  /** The worker's Chromium is restarted after this many pages. */
  renderRecyclePages: number;
  /**
   * Bytes the worker's Chromium may hold, PSS summed over its processes (0: no limit). Over it, a page waits
   * for others to end, or the browser is replaced. Chromium itself holds a share, and a page's renderer tens
   * to hundreds of MiB more, so 1 GiB leaves RENDER_CONCURRENCY 2 its room and stops a browser that keeps
   * growing.
   */
  renderMemoryBudgetBytes: number;
  userAgent: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  dataDir: string;
  /** Seconds a claimed frontier URL stays leased to a worker before another may take it (crash recovery). */
  leaseSecs: number;
  /**
   * Resident memory a worker process is sized to stay under (bench/memory.ts measures its peak against it):
   * the default of the body budget below derives from it, and the text job and exports read bodies by bounded
   * prefixes whatever fetch.maxBytes kept.
   */
  workerMemoryBudgetBytes: number;
  /**
   * Bytes of crawled page bodies one worker process holds in memory at once, across all its crawls; a body
   * that does not fit waits its turn. A body byte costs up to about four at peak when the body compresses
   * poorly (the body, its gzip copy, the database driver's send buffer around it), beside the process's own
   * few hundred MiB: so its default is a twelfth of workerMemoryBudgetBytes (128 MiB of 1.5 GiB).
   */
  fetchMemoryBudgetBytes: number;
  /**
   * Schema that holds trawl's tables; BullMQ's tables go in `<schema>_bullmq` (PostgreSQL backend) or under
   * the key prefix `<schema>` (Redis). Tests use one per run so they never see each other's rows or jobs.
   */
  dbSchema: string;
  /**
   * Connections of this process's pool (API and in-process worker share it). Few are better than many: fewer
   * backends contend for the same rows and cores, so a crawl gets more pages/s for less PostgreSQL CPU;
   * statements wait in the pool instead (docs/benchmarks.md#crawl).
   */
  dbPoolSize: number;
  /** Milliseconds a worker's lock on a job lasts without renewal; after that a dead worker's job is retaken. */
  jobLockMs: number;
  /** Every /v1 request needs an API key even while no key exists (otherwise the service runs open until one does). */
  requireApiKey: boolean;
  /** /metrics needs an API key (any valid one); otherwise it stays open like /healthz. */
  metricsRequireKey: boolean;
  /** Per key (per client IP when open) and minute: crawls started (POST /v1/crawls), and every other /v1 request. */
  rateLimitCreatePerMin: number;
  rateLimitReadPerMin: number;
  /** Crawls one API key may have queued or running at once (0: no cap). */
  maxRunningCrawlsPerKey: number;
  /** Days after its end a crawl is purged, and the most a request's retention.days may ask; null: kept. */
  crawlRetentionDays: number | null;
  /** The shortest `every` a schedule may run at, in seconds (docs/guide.md#schedules). */
  scheduleMinEverySecs: number;
  /** Graph size limits of a ranking: an edges-file upload's bytes (413 past it), vertices and edges (400). */
  rankMaxUploadBytes: number;
  rankMaxVertices: number;
  rankMaxEdges: number;
  /** An edges-file upload of more bytes than this is ranked by a `rank` job (202) instead of in the request. */
  rankJobUploadBytes: number;
  /** POST /v1/crawls/:id/rank on a crawl with more links than this is ranked by a `rank` job (202). */
  rankJobCrawlLinks: number;
  /** A `rank` job's PageRank runs at most this long on its CPU thread; past it the ranking fails. */
  rankJobTimeoutMs: number;
  /** Worker processes (`npm run worker`) serve their own /metrics on this port (0, the default: none). */
  metricsPort: number;
  /** Webhook deliveries: tries per event, the first retry delay (doubling after each), each try's timeout. */
  webhookMaxAttempts: number;
  webhookRetryBaseMs: number;
  webhookTimeoutMs: number;
  /**
   * On SIGTERM/SIGINT a crawl runner stops claiming and its in-flight fetches get this long to finish; those
   * still running then are aborted (their URLs may be fetched again), and the runner goes back to the queue.
   */
  shutdownGraceMs: number;
  /**
   * Worker threads that parse, extract and score for /v1/score and /v1/extract off the event loop (0: on it).
   * Default: one per core but one, which stays with the event loop.
   */
  cpuPoolThreads: number;
  /**
   * Documents' text (PDF, DOCX, PPTX, ODT) is read in reader processes of their own: this many per process (the
   * name is older than the processes), each read stopped past its deadline (from when a reader starts it), each
   * reader's heap capped, and each zip document's inflated size capped (docs/reference.md#documents).
   */
  documentPoolThreads: number;
  documentTimeoutMs: number;
  documentHeapMb: number;
  documentMemoryMb: number;
  documentMaxUncompressedBytes: number;
  /** Crawl exports (GET /v1/crawls/:id/export) streaming at once in this process; more answer 503. */
  exportConcurrency: number;
  /**
   * An export record's html, markdown and text come from the first this many bytes of the page's body (and
   * characters of its text); past them the record is cut and says `truncated: true`. An export holds a few
   * times this at once (docs/reference.md#export-memory).
   */
  exportBodyMaxBytes: number;
  /** Such a task's deadline: running past it → 422 (the input costs too much), still queued → 503. */
  cpuTaskTimeoutMs: number;
  /**
   * A CPU pool thread's heap: past it the thread is replaced and its task is a 422 (or, in the text job, the
   * page's fault), never the process out of memory. Extracting and making Markdown of the most any task reads
   * of a stored body holds many times its size; the default, half the worker's budget, leaves it room.
   */
  cpuPoolHeapMb: number;
}

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim()))
    throw new ConfigError(name, `expected a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `expected ${min}…${max}, got ${value}`);
  return value;
}

/** A whole number in min…max, or null when the variable is unset (the setting is off). */
function optionalInteger(env: Env, name: string, min: number, max: number): number | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  return integer(env, name, min, min, max);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got ${JSON.stringify(env[name])}`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `expected a ${protocols.join(' or ')} URL, got ${parsed.protocol}`);
  }
  return raw;
}

/**
 * ALLOW_PRIVATE_NETWORKS: true or false, or a comma list of the private targets that may be reached: networks
 * and addresses, each on every port or, with `:port`, on that one (parseAllowedTarget has the forms).
 */
function privateNetworks(env: Env): { allowPrivateNetworks: boolean; allowedPrivateRanges: string[] } {
  const raw = env.ALLOW_PRIVATE_NETWORKS?.trim() ?? '';
  if (/^[a-z]*$/i.test(raw) || raw === '0' || raw === '1') {
    return { allowPrivateNetworks: boolean(env, 'ALLOW_PRIVATE_NETWORKS', false), allowedPrivateRanges: [] };
  }
  const entries = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  for (const entry of entries) {
    if (!parseAllowedTarget(entry)) {
      throw new ConfigError(
        'ALLOW_PRIVATE_NETWORKS',
        `expected true, false or a list of addresses and networks, each with an optional port (127.0.0.2, 10.1.0.0/16, 127.0.0.1:8080, [::1]:8080), got ${JSON.stringify(entry)}`,
      );
    }
  }
  return { allowPrivateNetworks: false, allowedPrivateRanges: entries };
}

/** The share of WORKER_MEMORY_BUDGET_BYTES the body budget takes by default: see fetchMemoryBudgetBytes. */
const BODY_BUDGET_SHARE = 12;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Config {
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(
      'LOG_LEVEL',
      `expected one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`,
    );
  }
  const userAgent = env.USER_AGENT?.trim() || 'trawl/0.1 (+https://github.com/trawl/trawl)';
  if (!/^[A-Za-z0-9_-]+/.test(userAgent)) {
    throw new ConfigError('USER_AGENT', 'must start with a product token (letters, digits, "_" or "-")');
  }
  const dbSchema = env.DB_SCHEMA?.trim() || 'trawl';
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(dbSchema))
    throw new ConfigError('DB_SCHEMA', 'expected a lower-case SQL identifier');
  const workerMemoryBudgetBytes = integer(
    env,
    'WORKER_MEMORY_BUDGET_BYTES',
    1536 * 1024 * 1024,
    256 * 1024 * 1024,
    2 ** 40,
  );
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    embeddedPort: integer(env, 'EMBEDDED_PG_PORT', 54329, 1, 65535),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY', 4, 1, 256),
    runWorker: boolean(env, 'RUN_WORKER', true),
    ...privateNetworks(env),
    chromiumPath: env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium',
    renderConcurrency: integer(env, 'RENDER_CONCURRENCY', 2, 1, 64),
    renderRecyclePages: integer(env, 'RENDER_RECYCLE_PAGES', 200, 1, 1_000_000),
    renderMemoryBudgetBytes: integer(env, 'RENDER_MEMORY_BUDGET_BYTES', 1024 * 1024 * 1024, 0, 2 ** 40),
    userAgent,
    logLevel,
    dataDir: env.DATA_DIR?.trim() || './data',
    leaseSecs: integer(env, 'LEASE_SECS', 10, 2, 3600),
    workerMemoryBudgetBytes,
    fetchMemoryBudgetBytes: integer(
      env,
      'FETCH_MEMORY_BUDGET_BYTES',
      Math.floor(workerMemoryBudgetBytes / BODY_BUDGET_SHARE),
      1024 * 1024,
      2 ** 40,
    ),
    dbSchema,
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 8, 2, 200),
    jobLockMs: integer(env, 'JOB_LOCK_MS', 30_000, 1000, 600_000),
    requireApiKey: boolean(env, 'REQUIRE_API_KEY', false),
    metricsRequireKey: boolean(env, 'METRICS_REQUIRE_KEY', false),
    rateLimitCreatePerMin: integer(env, 'RATE_LIMIT_CREATE_PER_MIN', 60, 1, 1_000_000),
    rateLimitReadPerMin: integer(env, 'RATE_LIMIT_READ_PER_MIN', 1200, 1, 1_000_000),
    maxRunningCrawlsPerKey: integer(env, 'MAX_RUNNING_CRAWLS_PER_KEY', 10, 0, 100_000),
    crawlRetentionDays: optionalInteger(env, 'CRAWL_RETENTION_DAYS', 1, 36_500),
    scheduleMinEverySecs: integer(env, 'SCHEDULE_MIN_EVERY_SECS', 60, 1, 86_400),
    rankMaxUploadBytes: integer(env, 'RANK_MAX_UPLOAD_BYTES', 256 * 1024 * 1024, 1, 2 ** 40),
    rankMaxVertices: integer(env, 'RANK_MAX_VERTICES', 2_000_000, 1, 2 ** 31 - 2),
    rankMaxEdges: integer(env, 'RANK_MAX_EDGES', 16_000_000, 0, 2 ** 31 - 2),
    rankJobUploadBytes: integer(env, 'RANK_JOB_UPLOAD_BYTES', 1024 * 1024, 0, 2 ** 40),
    rankJobCrawlLinks: integer(env, 'RANK_JOB_CRAWL_LINKS', 50_000, 0, 2 ** 31 - 2),
    rankJobTimeoutMs: integer(env, 'RANK_JOB_TIMEOUT_MS', 600_000, 1_000, 86_400_000),
    metricsPort: integer(env, 'METRICS_PORT', 0, 0, 65535),
    // 6 tries 20 s apart doubling: retries after 20, 40, 80, 160 and 320 s, about 10 minutes in all
    webhookMaxAttempts: integer(env, 'WEBHOOK_MAX_ATTEMPTS', 6, 1, 50),
    webhookRetryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', 20_000, 1, 3_600_000),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 300_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 5000, 0, 600_000),
    cpuPoolThreads: integer(env, 'CPU_POOL_THREADS', Math.max(1, availableParallelism() - 1), 0, 256),
    exportConcurrency: integer(env, 'EXPORT_CONCURRENCY', 4, 1, 1000),
    exportBodyMaxBytes: integer(env, 'EXPORT_BODY_MAX_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    cpuTaskTimeoutMs: integer(env, 'CPU_TASK_TIMEOUT_MS', 30_000, 100, 600_000),
    cpuPoolHeapMb: integer(
      env,
      'CPU_POOL_HEAP_MB',
      Math.floor(workerMemoryBudgetBytes / 2 / (1024 * 1024)),
      // below this a thread cannot load its modules, and a pool of threads that never start never answers
      96,
      65_536,
    ),
    documentPoolThreads: integer(env, 'DOCUMENT_POOL_THREADS', 1, 1, 64),
    documentTimeoutMs: integer(env, 'DOCUMENT_TIMEOUT_MS', 30_000, 1, 600_000),
    // a reader's heap: past it V8 ends the reader process, and the read is the document's error; the caps keep
    // an honest read well under it (50 MiB inflated with its decoded copies)
    documentHeapMb: integer(env, 'DOCUMENT_HEAP_MB', 512, 16, 16_384),
    // a reader's resident memory while it reads: the heap and what V8's limit does not count (Buffers, typed
    // arrays); past it the reader is killed and the read is the document's error
    documentMemoryMb: integer(env, 'DOCUMENT_MEMORY_MB', 1024, 64, 65_536),
    documentMaxUncompressedBytes: integer(
      env,
      'DOCUMENT_MAX_UNCOMPRESSED_BYTES',
      50 * 1024 * 1024,
      1024,
      2 ** 40,
    ),
  };
}
