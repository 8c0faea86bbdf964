// BullMQ on either backend: PostgreSQL (default, the same database as trawl's tables, in its own schema) or
// Redis when REDIS_URL is set. Producers and processors see one interface and never know which.
import {
  type ConnectionOptions,
  createPostgresBackend,
  type Job,
  Queue,
  runMigrations,
  Worker,
} from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';

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

export interface JobBackendOptions {
  databaseUrl: string;
  redisUrl: string | null;
  /** Namespace: the PostgreSQL schema `<namespace>_bullmq`, or the Redis key prefix `<namespace>`. */
  namespace: string;
}

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
  close(): Promise<void>;
}

export async function openJobBackend(options: JobBackendOptions): Promise<JobBackend> {
  return options.redisUrl ? redisBackend(options.redisUrl, options.namespace) : postgresBackend(options);
}

async function postgresBackend(options: JobBackendOptions): Promise<JobBackend> {
  const schema = `${options.namespace}_bullmq`;
  const setup = new pg.Client({ connectionString: options.databaseUrl });
  await setup.connect();
  try {
    await runMigrations(setup, schema);
  } finally {
    await setup.end();
  }
  const connection = { connectionString: options.databaseUrl, schema, max: 10 };
  const queues = new Map<string, Queue>();
  const closables: Array<{ close(): Promise<void> }> = [];
  return {
    kind: 'postgres',
    queue(name) {
      let queue = queues.get(name);
      if (!queue) {
        queue = new Queue(name, { connection }, createPostgresBackend) as unknown as Queue;
        queues.set(name, queue);
        closables.push(queue);
      }
      return queue;
    },
    worker(name, processor, { concurrency, lockDurationMs }) {
      const worker = new Worker(
        name,
        processor,
        {
          connection,
          concurrency,
          lockDuration: lockDurationMs,
          stalledInterval: lockDurationMs,
          maxStalledCount: 100,
        },
        createPostgresBackend,
      ) as unknown as Worker;
      closables.push(worker);
      return worker as never;
    },
    async ping() {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        await client.query('SELECT 1');
      } finally {
        await client.end();
      }
    },
    async close() {
      await Promise.allSettled(closables.reverse().map((item) => item.close()));
    },
  };
}

function redisBackend(redisUrl: string, prefix: string): JobBackend {
  const connect = () => new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
  const shared = connect();
  const queues = new Map<string, Queue>();
  const closables: Array<{ close(): Promise<void> }> = [];
  return {
    kind: 'redis',
    queue(name) {
      let queue = queues.get(name);
      if (!queue) {
        queue = new Queue(name, { connection: shared as unknown as ConnectionOptions, prefix });
        queues.set(name, queue);
        closables.push(queue);
      }
      return queue;
    },
    worker(name, processor, { concurrency, lockDurationMs }) {
      const worker = new Worker(name, processor, {
        connection: connect() as unknown as ConnectionOptions,
        prefix,
        concurrency,
        lockDuration: lockDurationMs,
        stalledInterval: lockDurationMs,
        maxStalledCount: 100,
      });
      closables.push({
        close: async () => {
          await worker.close();
          await (worker.opts.connection as unknown as Redis).quit().catch(() => {});
        },
      });
      return worker as never;
    },
    async ping() {
      await shared.ping();
    },
    async close() {
      await Promise.allSettled(closables.reverse().map((item) => item.close()));
      await shared.quit().catch(() => {});
    },
  };
}

/**
 * Queues the runner jobs of a crawl (one per `workers`). `tag` makes the job ids new when a crawl is
 * resumed, so BullMQ does not take them for the finished jobs of the first run.
 */
export async function addCrawlRunners(
  jobs: JobBackend,
  crawlId: string,
  workers: number,
  tag = '',
): Promise<void> {
  await jobs.queue(CRAWL_QUEUE).addBulk(
    Array.from({ length: workers }, (_, runner) => ({
      name: 'crawl',
      data: { crawlId, runner } satisfies CrawlJobData,
      opts: { jobId: `${crawlId}.${runner}${tag}`, removeOnComplete: 1000, removeOnFail: 5000, attempts: 3 },
    })),
  );
}
