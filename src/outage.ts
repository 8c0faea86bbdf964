// What an outage of PostgreSQL or Redis looks like to the rest of the service: the errors that mean "the
// dependency is unreachable" (HTTP answers them 503 with Retry-After, never 500), a deadline for calls that
// would otherwise wait for it to come back, and a log that writes one line per dependency every few seconds
// while it is down instead of one per reconnect attempt of every client.
import { exponentialBackoffMs } from './crawler/backoff.js';
import { TrawlError } from './errors.js';

/** Seconds a client is told to wait (Retry-After) when a dependency is down. */
export const RETRY_AFTER_SECS = 5;

// node's socket errors, and PostgreSQL's: class 08 (connection exception), 57P01–57P03 (admin shutdown,
// crash shutdown, cannot connect now), 53300 (too many connections)
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
// what pg and ioredis say when a connection went away or could not be had in time
const UNREACHABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  "Stream isn't writeable",
  'Connection is closed',
  'connect ECONNREFUSED',
  'the database system is',
  'max retries per request limit',
];

/** True when `error` (or its cause) says PostgreSQL or Redis could not be reached or dropped the connection. */
export function isUnreachable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof DependencyUnavailableError) return true;
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.some((text) => message.includes(text)))
      return true;
    // AggregateError (a host with several addresses refused on each)
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((inner) => isUnreachable(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export class DependencyUnavailableError extends TrawlError {
  constructor(dependency: 'postgres' | 'redis', cause?: unknown) {
    super(
      'unavailable',
      `${dependency === 'postgres' ? 'the database' : 'the job queue'} is not answering; retry shortly`,
      { cause, detail: { retryAfterSecs: RETRY_AFTER_SECS } },
    );
    this.name = 'DependencyUnavailableError';
  }
}

/** `work`, or a DependencyUnavailableError once `ms` have passed without an answer (the work is not stopped). */
export async function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  dependency: 'postgres' | 'redis',
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new DependencyUnavailableError(dependency, new Error(`no answer in ${ms} ms`))),
      ms,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

interface WarnLogger {
  warn(object: object, message: string): void;
}

/**
 * Logs dependency errors: the first at once, then at most one line per dependency every `intervalMs`
 * (saying how many were left out) while it stays down. Errors that are not about reachability are logged
 * each time: they are news.
 */
export function outageLog(
  log: WarnLogger,
  intervalMs = 5000,
): (dependency: string, error: unknown, message: string) => void {
  const last = new Map<string, { at: number; suppressed: number }>();
  return (dependency, error, message) => {
    if (!isUnreachable(error)) {
      log.warn({ err: error, dependency }, message);
      return;
    }
    const now = Date.now();
    const seen = last.get(dependency);
    if (seen && now - seen.at < intervalMs) {
      seen.suppressed++;
      return;
    }
    last.set(dependency, { at: now, suppressed: 0 });
    log.warn(
      { dependency, error: (error as Error)?.message ?? String(error), suppressed: seen?.suppressed ?? 0 },
      `${dependency} unreachable: ${message}`,
    );
  };
}

/**
 * ioredis options every client of the service uses: a connect attempt gives up after 2 s, and reconnects back
 * off from half a second to 5 s (ioredis' default retries every 2 s forever, each attempt an error event).
 * `failFast` clients (producers, probes, the rate limiter) refuse commands while disconnected instead of
 * queueing them until Redis is back.
 */
export function redisClientOptions(options: { failFast: boolean }) {
  return {
    connectTimeout: 2000,
    retryStrategy: (attempt: number) => exponentialBackoffMs(attempt, { baseDelayMs: 500, maxDelayMs: 5000 }),
    ...(options.failFast
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1 }
      : { maxRetriesPerRequest: null }),
  };
}

/**
 * Ends an ioredis client without waiting for a Redis that is down: QUIT (bounded by 2 s) when connected,
 * otherwise the socket is dropped at once, since a QUIT would wait in the offline queue for a reconnect.
 */
export async function closeRedisClient(client: {
  status: string;
  quit(): Promise<unknown>;
  disconnect(): void;
}): Promise<void> {
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 2000);
  });
  await Promise.race([client.quit().catch(() => {}), gaveUp]).finally(() => clearTimeout(timer));
  client.disconnect();
}
