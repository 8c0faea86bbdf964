// Webhook events and their delivery attempts (migration 0008): written by the worker's event sink, read and
// settled by the `webhook` job, listed by GET /v1/crawls/:id/webhooks.
import type pg from 'pg';
import type { WebhookConfig } from '../crawler/crawl-request.js';
import { pgSafeJson } from '../crawler/text/pg-safe.js';
import { sql } from './sql.js';

export interface WebhookEventRow {
  id: number;
  event: string;
  data: Record<string, unknown>;
  attempts: number;
  /** Its next attempt may run now. */
  due: boolean;
  created_at: Date;
}

export interface WebhookDeliveryRow {
  id: number;
  event_id: number;
  event: string;
  attempt: number;
  status: number | null;
  outcome: 'delivered' | 'retrying' | 'failed';
  error: string | null;
  duration_ms: number;
  attempted_at: Date;
}

export class WebhooksRepository {
  constructor(private readonly pool: pg.Pool) {}

  /** The crawl's stored (normalized) webhook settings, or null. */
  /** The crawl's webhook as normalizeCrawlRequest stored it in crawls.request (null: none, or no such crawl). */
  async config(crawlId: string): Promise<WebhookConfig | null> {
    const { rows } = await this.pool.query<{ webhook: WebhookConfig | null }>(sql('crawl_webhook'), [
      crawlId,
    ]);
    return rows[0]?.webhook ?? null;
  }

  /** The new event's id; null when a lifecycle event of that name was recorded before. */
  async insertEvent(crawlId: string, event: string, data: object): Promise<number | null> {
    const { rows } = await this.pool.query<{ id: number }>(sql('webhook_event_insert'), [
      crawlId,
      event,
      // page URLs and crawl errors, which may quote what a page held
      JSON.stringify(pgSafeJson(data)),
    ]);
    return rows[0]?.id ?? null;
  }

  async pending(crawlId: string, limit: number): Promise<WebhookEventRow[]> {
    const { rows } = await this.pool.query<WebhookEventRow>(sql('webhook_events_head'), [crawlId, limit]);
    return rows;
  }

  async settle(
    eventIds: number[],
    state: 'pending' | 'delivered' | 'failed',
    retryInMs: number,
  ): Promise<void> {
    await this.pool.query(sql('webhook_event_settle'), [eventIds, state, retryInMs]);
  }

  async logDelivery(delivery: {
    eventId: number;
    crawlId: string;
    attempt: number;
    status: number | null;
    outcome: WebhookDeliveryRow['outcome'];
    error: string | null;
    durationMs: number;
  }): Promise<void> {
    await this.pool.query(sql('webhook_delivery_insert'), [
      delivery.eventId,
      delivery.crawlId,
      delivery.attempt,
      delivery.status,
      delivery.outcome,
      delivery.error,
      delivery.durationMs,
    ]);
  }

  async deliveries(crawlId: string, afterId: number, limit: number): Promise<WebhookDeliveryRow[]> {
    const { rows } = await this.pool.query<WebhookDeliveryRow>(sql('webhook_deliveries_list'), [
      crawlId,
      afterId,
      limit,
    ]);
    return rows;
  }

  /**
   * Runs `work` holding the crawl's delivery lock (a session advisory lock on a connection of its own), so
   * one crawl's events go out one at a time, in order; false when another job holds it.
   */
  async withDeliveryLock(crawlId: string, work: () => Promise<void>): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      const { rows } = await client.query<{ ok: boolean }>(sql('webhook_lock'), [crawlId]);
      if (!rows[0]?.ok) return false;
      try {
        await work();
      } finally {
        await client.query(sql('webhook_unlock'), [crawlId]);
      }
      return true;
    } finally {
      client.release();
    }
  }
}
