// BullMQ on either backend: PostgreSQL (default, the same database as trawl's tables, in its own schema) or
// Redis when REDIS_URL is set. Producers and processors see one interface and never know which.
import {
  type BackendFactory,
  type ConnectionOptions,
  type Job,
  type PgPool,
  PostgresConnection,
  type PostgresConnectionOptions,
  PostgresQueueBackend,
  Queue,
  runMigrations,
  Worker,
} from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  closeRedisClient,
  DependencyUnavailableError,
  isUnreachable,
  redisClientOptions,
  withDeadline,
} from '../outage.js';

export const CRAWL_QUEUE = 'crawl';

export interface CrawlJobData {
  crawlId: string;
  /** Which of the crawl's runners this job is (0…workers-1); several may run at once on different workers. */
  runner: number;
}

export const CRAWL_TEXT_QUEUE = 'crawl-text';

export interface CrawlTextJobData {
  /** The crawl whose stored HTML pages get their main text extracted and their words counted. */
  crawlId: string;
}

export const RANK_QUEUE = 'rank';

export interface RankJobData {
  /** The queued ranking to compute (its parameters and any uploaded edges file are in PostgreSQL). */
  rankingId: string;
}

export const CORPUS_QUEUE = 'corpus';

export interface CorpusJobData {
  /** The queued corpus to build (its source is stored with it in PostgreSQL). */
  corpusId: string;
}

export const WEBHOOK_QUEUE = 'webhook';

export interface WebhookJobData {
  /** The crawl whose due webhook events are delivered, in order (the events themselves are in PostgreSQL). */
  crawlId: string;
}

export const PURGE_QUEUE = 'purge';

export interface PurgeJobData {
  /** What is purged: a crawl marked `purging`, or the vertices / terms left by a deleted ranking / corpus. */
  kind: 'crawl' | 'ranking' | 'corpus';
  id: string;
}

export const SCHEDULE_QUEUE = 'schedule';

export interface ScheduleJobData {
  /** The schedule that is due: its job scheduler (of the same id) made this job (docs/operations.md#schedules). */
  scheduleId: string;
}

export interface JobBackendOptions {
  /** The process's one pool (db/database.ts): the PostgreSQL backend runs its statements there too. */
  pool: pg.Pool;
  /** How the backend's one dedicated LISTEN connection joins (the pool's URL, application name, options). */
  clientConfig: pg.ClientConfig;
  redisUrl: string | null;
  /** Namespace: the PostgreSQL schema `<namespace>_bullmq`, or the Redis key prefix `<namespace>`. */
  namespace: string;
  /** Errors of the backend's connections, queues and workers (`source` says whose); see outage.ts' log. */
  onError(error: unknown, source: string): void;
}

/** The PostgreSQL backend's LISTEN connection, shared with the crawl event bus so a process holds one. */
export interface ListenConnection {
  /** The connection, opened on first use (and again after it was lost). */
  client(): Promise<PgListenClient>;
  /** `listener` runs after the connection was lost: LISTENs must be issued again on `client()`. */
  onLost(listener: () => void): void;
}

export type PgListenClient = Awaited<ReturnType<PostgresConnection['getListenClient']>>;

export interface JobBackend {
  readonly kind: 'postgres' | 'redis';
  queue(name: string): Queue;
  worker<T>(
    name: string,
    processor: (job: Job<T>, token?: string) => Promise<unknown>,
    options: { concurrency: number; lockDurationMs: number },
  ): Worker<T>;
  /** Answers when the backend's store answers (readiness). */
  ping(): Promise<void>;
  /** PostgreSQL backend: its LISTEN connection; null on Redis. */
  readonly listenConnection: ListenConnection | null;
  close(): Promise<void>;
}

export async function openJobBackend(options: JobBackendOptions): Promise<JobBackend> {
  return options.redisUrl
    ? redisBackend({ ...options, redisUrl: options.redisUrl })
    : postgresBackend(options);
}

/**
 * A connection of its own for BullMQ (its schema check, its LISTEN), with the `release` BullMQ calls on a
 * checked-out client: released, it is ended. Its statements run one at a time (every queue, worker and the
 * event bus LISTEN on it, and pg wants one statement at a time). An error event between statements (the
 * server ending the connection: a restart, pg_terminate_backend) is taken here, as pg emits it to no one
 * otherwise and that would crash the process; the next statement on the client fails and says so, and BullMQ
 * adds a listener of its own to its LISTEN client, which reconnects.
 */
export async function openDedicatedClient(
  clientConfig: pg.ClientConfig,
): Promise<pg.Client & { release: () => void }> {
  const client = new pg.Client(clientConfig);
  client.on('error', () => {});
  await client.connect();
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  let last: Promise<unknown> = Promise.resolve();
  client.query = ((...args: unknown[]) => {
    const next = last.then(() => query(...args));
    last = next.catch(() => {});
    return next;
  }) as typeof client.query;
  return Object.assign(client, { release: () => void client.end().catch(() => {}) });
}

/**
 * BullMQ's own factory gives every Queue and Worker a pool (of 10) and a LISTEN connection of its own: 17–28
 * connections per process. Here one PostgresConnection serves them all: statements on the process's pool,
 * one dedicated LISTEN connection beside it (a pooled one would be held for good and could starve the pool).
 */
class SharedPostgresConnection extends PostgresConnection {
  constructor(pool: pg.Pool, clientConfig: pg.ClientConfig, schema: string) {
    super({
      query: (text: string, params?: readonly unknown[]) => pool.query(text, params as unknown[]),
      // BullMQ checks a client out for its schema check at start and for LISTEN: both get one of their own
      connect: () => openDedicatedClient(clientConfig),
      end: async () => {}, // the pool is the database's, ended by Database.close()
      on(this: PgPool) {
        return this; // idle-client errors are logged by the pool's owner
      },
      removeAllListeners(this: PgPool) {
        return this;
      },
    } as unknown as PgPool);
    // BullMQ takes a ready-made pool to use its default schema; ours is `<namespace>_bullmq`, also on the
    // pool's search path (db/database.ts), and its schema check must look there.
    Object.defineProperty(this, 'schema', { value: schema });
    this.setMaxListeners(0); // each queue and worker listens to it
  }
}

/** A queue's or worker's backend on the shared connection: closing it leaves the connection to the others. */
class SharedConnectionBackend extends PostgresQueueBackend {
  override async close(): Promise<void> {
    await this.disconnectBlocking();
  }
  override async disconnect(): Promise<void> {
    await this.disconnectBlocking();
  }
}

async function postgresBackend(options: JobBackendOptions): Promise<JobBackend> {
  const schema = `${options.namespace}_bullmq`;
  const setup = await options.pool.connect();
  try {
    // Processes starting together on a new namespace: BullMQ's advisory lock serializes them, yet the
    // second one's CREATE SCHEMA IF NOT EXISTS can still collide (23505); its next try sees the schema.
    for (let attempt = 1; ; attempt++) {
      try {
        await runMigrations(setup, schema);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '23505' || attempt === 3) throw error;
      }
    }
  } finally {
    setup.release();
  }
  const connection = new SharedPostgresConnection(options.pool, options.clientConfig, schema);
  connection.on('error', (error) => options.onError(error, 'queue LISTEN connection'));
  // PostgreSQL refuses at once when it is down: only say so in terms a request can answer (503)
  const call = <T>(work: () => Promise<T>): Promise<T> =>
    work().catch((error: unknown) => {
      throw isUnreachable(error) ? new DependencyUnavailableError('postgres', error) : error;
    });
  // no listenClientName: the LISTEN connection keeps the process's application_name
  const factory: BackendFactory<PostgresQueueBackend, PostgresConnectionOptions> = (name, opts) =>
    new SharedConnectionBackend(connection, name, opts, true);
  const queues = new Map<string, Queue>();
  const closables: Array<{ close(): Promise<void> }> = [];
  return {
    kind: 'postgres',
    queue(name) {
      let queue = queues.get(name);
      if (!queue) {
        const created = new Queue(name, { connection: options.pool as unknown as PgPool }, factory);
        created.on('error', (error) => options.onError(error, `queue ${name}`));
        queue = guarded(created as unknown as Queue, call);
        queues.set(name, queue);
        closables.push(created);
      }
      return queue;
    },
    worker(name, processor, { concurrency, lockDurationMs }) {
      const worker = new Worker(
        name,
        processor,
        {
          connection: options.pool as unknown as PgPool,
          concurrency,
          lockDuration: lockDurationMs,
          stalledInterval: lockDurationMs,
          maxStalledCount: 100,
        },
        factory,
      ) as unknown as Worker;
      worker.on('error', (error) => options.onError(error, `${name} worker`));
      closables.push(worker);
      return worker as never;
    },
    async ping() {
      await options.pool.query('SELECT 1');
    },
    listenConnection: {
      client: () => connection.getListenClient(),
      onLost: (listener) => void connection.on('listenerinvalidated', listener),
    },
    async close() {
      await Promise.allSettled(closables.reverse().map((item) => item.close()));
      await connection.close();
    },
  };
}

function redisBackend(options: JobBackendOptions & { redisUrl: string }): JobBackend {
  const { redisUrl, namespace: prefix, onError } = options;
  const connect = (failFast: boolean) => {
    const client = new Redis(redisUrl, redisClientOptions({ failFast }));
    client.on('error', (error) => onError(error, 'redis connection'));
    return client;
  };
  // producers, counts and probes: while Redis is down they fail at once (or after a few seconds) instead of
  // waiting for it to come back; a request is answered 503 and the producer's caller decides
  const shared = connect(true);
  const queues = new Map<string, Queue>();
  const closables: Array<{ close(): Promise<void> }> = [];
  // A worker's close waits for Redis to come back (its QUITs, its loop's reconnects): while Redis is down the
  // connections are dropped instead and, after CLOSE_WHILE_DOWN_MS of outage, the close is given up on, so
  // a process can stop during an outage (its jobs' locks expire and another worker retakes them).
  let downSince: number | null = null;
  shared.on('ready', () => {
    downSince = null;
  });
  shared.on('close', () => {
    downSince ??= Date.now();
  });
  const unlessRedisDown = (closing: Promise<void>, drop: () => void) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (shared.status === 'ready') return;
        drop();
        downSince ??= Date.now();
        if (Date.now() - downSince >= CLOSE_WHILE_DOWN_MS) {
          clearInterval(timer);
          resolve();
        }
      };
      const timer = setInterval(check, 250);
      check();
      closing.then(resolve, reject).finally(() => clearInterval(timer));
    });
  const call = <T>(work: () => Promise<T>): Promise<T> => {
    // lost (not merely still connecting at start, which the deadline bounds): refuse at once
    if (['reconnecting', 'close', 'end'].includes(shared.status))
      return Promise.reject(new DependencyUnavailableError('redis'));
    return withDeadline(work(), PRODUCER_DEADLINE_MS, 'redis').catch((error: unknown) => {
      throw isUnreachable(error) ? new DependencyUnavailableError('redis', error) : error;
    });
  };
  return {
    kind: 'redis',
    queue(name) {
      let queue = queues.get(name);
      if (!queue) {
        const created = new Queue(name, { connection: shared as unknown as ConnectionOptions, prefix });
        created.on('error', (error) => onError(error, `queue ${name}`));
        queue = guarded(created as unknown as Queue, call);
        queues.set(name, queue);
        closables.push(created);
      }
      return queue;
    },
    worker(name, processor, { concurrency, lockDurationMs }) {
      const worker = new Worker(name, processor, {
        connection: connect(false) as unknown as ConnectionOptions,
        prefix,
        concurrency,
        lockDuration: lockDurationMs,
        stalledInterval: lockDurationMs,
        maxStalledCount: 100,
      });
      worker.on('error', (error) => onError(error, `${name} worker`));
      const connection = worker.opts.connection as unknown as Redis;
      // whoever closes it (the runtime, then this backend), the close survives an outage
      const close = worker.close.bind(worker);
      // BullMQ's own blocking connection: its disconnect() waits for a connection that is never made while
      // Redis is down, so its ioredis client is ended directly
      const blocking = (worker.getBackend() as unknown as { blockingConnection?: { _client?: Redis } })
        .blockingConnection;
      worker.close = (force?: boolean) =>
        unlessRedisDown(close(force), () => {
          void worker.disconnect().catch(() => {});
          blocking?._client?.disconnect();
        });
      closables.push({
        close: async () => {
          await worker.close();
          await unlessRedisDown(
            connection.quit().then(() => {}),
            () => connection.disconnect(),
          ).catch(() => {});
        },
      });
      return worker as never;
    },
    async ping() {
      await call(() => shared.ping());
    },
    listenConnection: null,
    async close() {
      // a queue's close waits for its connection too: while Redis is down it is given up on like a worker's
      await Promise.allSettled(closables.reverse().map((item) => unlessRedisDown(item.close(), () => {})));
      await closeRedisClient(shared);
    },
  };
}

/** How long a close waits on a Redis that is down before it gives up (see unlessRedisDown). */
const CLOSE_WHILE_DOWN_MS = 3000;
/** A producer call waits this long for Redis at most (a request is answered 503 after it). */
const PRODUCER_DEADLINE_MS = 3000;
// the Queue methods the services call to produce and count jobs, and to keep schedules' job schedulers
const GUARDED_METHODS = new Set<PropertyKey>([
  'add',
  'addBulk',
  'getJobCounts',
  'upsertJobScheduler',
  'removeJobScheduler',
  'getJobScheduler',
]);

/** The queue, with its producer and count calls run through `call` (the backend's outage policy). */
function guarded(queue: Queue, call: <T>(work: () => Promise<T>) => Promise<T>): Queue {
  return new Proxy(queue, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || !GUARDED_METHODS.has(property)) return value;
      return (...args: unknown[]) => call(() => value.apply(target, args));
    },
  });
}
