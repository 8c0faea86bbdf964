// Crawl events across processes: a worker's runners publish "pages were written" / "the crawl ended" on a
// per-crawl channel, and the API's live streams (GET /v1/crawls/:id/events) wake up on them. PostgreSQL
// LISTEN/NOTIFY by default, Redis pub/sub when REDIS_URL is set. Messages are wake-ups, not the record: a
// stream reads pages and counts from the database, so a lost message only delays it until its next poll.
import { Redis } from 'ioredis';
import type pg from 'pg';
import type { CrawlEventSink } from '../crawler/engine/ports.js';
import { closeRedisClient, redisClientOptions } from '../outage.js';
import type { ListenConnection } from './queues.js';

export type CrawlBusMessage =
  | { kind: 'pages'; count: number; maxPageId: number }
  | { kind: 'ended'; status: 'completed' | 'failed' | 'cancelled' };

export interface CrawlEventBus {
  publish(crawlId: string, message: CrawlBusMessage): Promise<void>;
  /** Calls `listener` for each message of the crawl until the returned function is called. */
  subscribe(crawlId: string, listener: (message: CrawlBusMessage) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** `trawl_crawl_<uuid without dashes>`: a valid, lower-case PostgreSQL identifier under 63 bytes. */
export function crawlChannel(crawlId: string): string {
  return `trawl_crawl_${crawlId.replaceAll('-', '').toLowerCase()}`;
}

type Listener = (message: CrawlBusMessage) => void;

function parseMessage(payload: string | undefined): CrawlBusMessage | null {
  try {
    return payload ? (JSON.parse(payload) as CrawlBusMessage) : null;
  } catch {
    return null;
  }
}

/** Listeners per channel, subscribing on the transport for the first and unsubscribing after the last. */
class Subscriptions {
  readonly byChannel = new Map<string, Set<Listener>>();
  constructor(
    private readonly listen: (channel: string) => Promise<void>,
    private readonly unlisten: (channel: string) => Promise<void>,
  ) {}

  async add(channel: string, listener: Listener): Promise<() => Promise<void>> {
    let listeners = this.byChannel.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.byChannel.set(channel, listeners);
      await this.listen(channel);
    }
    listeners.add(listener);
    return async () => {
      const current = this.byChannel.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.byChannel.delete(channel);
      await this.unlisten(channel).catch(() => {});
    };
  }

  deliver(channel: string, payload: string | undefined): void {
    const message = parseMessage(payload);
    if (!message) return;
    for (const listener of this.byChannel.get(channel) ?? []) listener(message);
  }
}

/**
 * LISTEN on the process's one dedicated connection, the job backend's (a pooled connection would lose its
 * LISTENs when handed back); NOTIFY through the pool. When that connection is lost the channels are listened
 * to again on its successor, retried every second until it answers.
 */
export function postgresEventBus(options: {
  listen: ListenConnection;
  pool: pg.Pool;
  onError(error: unknown): void;
}): CrawlEventBus {
  let closed = false;
  // the connections this bus has put its notification handler on (a new one after each loss)
  const handled = new WeakSet<object>();
  const client = async () => {
    const connection = await options.listen.client();
    if (!handled.has(connection)) {
      handled.add(connection);
      connection.on('notification', (note) => subscriptions.deliver(note.channel, note.payload));
    }
    return connection;
  };
  const relisten = async (): Promise<void> => {
    if (closed || subscriptions.byChannel.size === 0) return;
    try {
      const connection = await client();
      for (const channel of subscriptions.byChannel.keys()) await connection.query(`LISTEN "${channel}"`);
    } catch (error) {
      options.onError(error);
      setTimeout(() => void relisten(), 1000).unref();
    }
  };
  options.listen.onLost(() => void relisten());
  const subscriptions = new Subscriptions(
    async (channel) => {
      await (await client()).query(`LISTEN "${channel}"`);
    },
    async (channel) => {
      if (!closed) await (await client()).query(`UNLISTEN "${channel}"`);
    },
  );
  return {
    async publish(crawlId, message) {
      await options.pool.query('SELECT pg_notify($1, $2)', [crawlChannel(crawlId), JSON.stringify(message)]);
    },
    subscribe: (crawlId, listener) => subscriptions.add(crawlChannel(crawlId), listener),
    async close() {
      // the connection is the job backend's, closed with it
      closed = true;
    },
  };
}

/** Redis pub/sub: a subscriber connection of its own (a subscribed ioredis connection can do nothing else). */
export function redisEventBus(options: {
  url: string;
  prefix: string;
  onError(error: unknown): void;
}): CrawlEventBus {
  // a message that cannot be sent now is dropped (a stream's next poll makes up for it), never queued
  const publisher = new Redis(options.url, redisClientOptions({ failFast: true }));
  let subscriber: Redis | null = null;
  const channelOf = (crawlId: string) => `${options.prefix}:${crawlChannel(crawlId)}`;
  const subscriptions = new Subscriptions(
    async (channel) => {
      if (!subscriber) {
        subscriber = new Redis(options.url, redisClientOptions({ failFast: false }));
        subscriber.on('error', options.onError);
        subscriber.on('message', (channelName: string, payload: string) =>
          subscriptions.deliver(channelName, payload),
        );
      }
      await subscriber.subscribe(channel);
    },
    async (channel) => {
      await subscriber?.unsubscribe(channel);
    },
  );
  publisher.on('error', options.onError);
  return {
    async publish(crawlId, message) {
      await publisher.publish(channelOf(crawlId), JSON.stringify(message));
    },
    subscribe: (crawlId, listener) => subscriptions.add(channelOf(crawlId), listener),
    async close() {
      await closeRedisClient(publisher);
      if (subscriber) await closeRedisClient(subscriber);
    },
  };
}

/**
 * Publishes the engine's events, batched: written pages at most once per `intervalMs` per crawl (one message
 * with their count), the end of a crawl at once (after the pages before it).
 */
export class PublishingEventSink implements CrawlEventSink {
  private readonly pending = new Map<string, { count: number; maxPageId: number }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly bus: CrawlEventBus,
    private readonly options: { intervalMs: number; onError(error: unknown): void },
  ) {}

  pageRecorded(event: { crawlId: string; pageId: number }): void {
    const batch = this.pending.get(event.crawlId) ?? { count: 0, maxPageId: 0 };
    batch.count++;
    batch.maxPageId = Math.max(batch.maxPageId, event.pageId);
    this.pending.set(event.crawlId, batch);
    this.timer ??= setTimeout(() => this.flush(), this.options.intervalMs);
  }

  crawlEnded(event: { crawlId: string; status: 'completed' | 'failed' | 'cancelled' }): void {
    this.flushCrawl(event.crawlId);
    this.send(event.crawlId, { kind: 'ended', status: event.status });
  }

  /** Sends what is batched now (also on close). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const crawlId of [...this.pending.keys()]) this.flushCrawl(crawlId);
  }

  private flushCrawl(crawlId: string): void {
    const batch = this.pending.get(crawlId);
    if (!batch) return;
    this.pending.delete(crawlId);
    this.send(crawlId, { kind: 'pages', ...batch });
  }

  private send(crawlId: string, message: CrawlBusMessage): void {
    this.bus.publish(crawlId, message).catch(this.options.onError);
  }
}

/** One sink that hands each event to several; a sink that throws never reaches the engine. */
export function fanOutEventSink(sinks: CrawlEventSink[], onError: (error: unknown) => void): CrawlEventSink {
  const each = (call: (sink: CrawlEventSink) => void) => {
    for (const sink of sinks) {
      try {
        call(sink);
      } catch (error) {
        onError(error);
      }
    }
  };
  return {
    pageRecorded: (event) => each((sink) => sink.pageRecorded(event)),
    crawlEnded: (event) => each((sink) => sink.crawlEnded(event)),
    robotsFetched: (event) => each((sink) => sink.robotsFetched?.(event)),
  };
}
