// Exponential backoff, the one schedule every retry in the service follows (a fetch's retries, webhook
// deliveries, Redis reconnects): the first retry waits baseDelayMs, each next one twice the last.

export interface BackoffOptions {
  /** The wait before the first retry (attempt 1). */
  baseDelayMs: number;
  /** No wait is longer. */
  maxDelayMs?: number;
  /** No wait is shorter, whatever the schedule says. */
  minDelayMs?: number;
}

/** The wait after failed attempt `attempt` (1 for the first): baseDelayMs · 2^(attempt−1), within the bounds. */
export function exponentialBackoffMs(attempt: number, options: BackoffOptions): number {
  const { baseDelayMs, maxDelayMs = Number.POSITIVE_INFINITY, minDelayMs = 0 } = options;
  return Math.max(minDelayMs, Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)));
}
