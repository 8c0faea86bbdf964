// Idempotency keys of job-creating POSTs (plugins/idempotency.ts): claim a (scope, key), record its answer,
// or let it go; see migrations/0011_idempotency_keys.sql.
import type pg from 'pg';
import { sql } from './sql.js';

/** Hours a key and its answer are kept (Stripe's 24 h). */
export const IDEMPOTENCY_KEY_HOURS = 24;

export interface IdempotencyRecord {
  request_hash: string;
  state: 'in_progress' | 'done';
  status_code: number | null;
  /** content-type and location of the answer */
  headers: Record<string, string> | null;
  response_body: string | null;
}

export class IdempotencyRepository {
  private lastExpiredAt = 0;

  constructor(private readonly pool: pg.Pool) {}

  /** True when this request now holds (scope, key); false when another request (or answer) does. */
  async claim(scope: string, key: string, requestHash: string): Promise<boolean> {
    this.expireNowAndThen();
    const { rowCount } = await this.pool.query(sql('idempotency_claim'), [
      scope,
      key,
      requestHash,
      IDEMPOTENCY_KEY_HOURS,
    ]);
    return (rowCount ?? 0) > 0;
  }

  async get(scope: string, key: string): Promise<IdempotencyRecord | null> {
    const { rows } = await this.pool.query<IdempotencyRecord>(sql('idempotency_get'), [
      scope,
      key,
      IDEMPOTENCY_KEY_HOURS,
    ]);
    return rows[0] ?? null;
  }

  async complete(
    scope: string,
    key: string,
    answer: {
      statusCode: number;
      headers: Record<string, string>;
      body: string;
      /** The request's fingerprint when it was known only once its body was read (a streamed upload). */
      requestHash?: string | undefined;
    },
  ): Promise<void> {
    await this.pool.query(sql('idempotency_complete'), [
      scope,
      key,
      answer.statusCode,
      JSON.stringify(answer.headers),
      answer.body,
      answer.requestHash ?? null,
    ]);
  }

  async release(scope: string, key: string): Promise<void> {
    await this.pool.query(sql('idempotency_release'), [scope, key]);
  }

  // expired keys are deleted lazily: at most once an hour per process, beside a claim, never awaited
  private expireNowAndThen(): void {
    if (Date.now() - this.lastExpiredAt < 3_600_000) return;
    this.lastExpiredAt = Date.now();
    this.pool.query(sql('idempotency_expire'), [IDEMPOTENCY_KEY_HOURS]).catch(() => {});
  }
}
