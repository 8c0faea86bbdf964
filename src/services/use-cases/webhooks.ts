// Webhook delivery: one crawl's events go out one at a time, oldest first (lifecycle-ending events after every
// page batch), signed with HMAC-SHA256 over `<timestamp>.<body>` (the Stripe scheme: the timestamp is signed
// so a captured delivery cannot be replayed later). A failed attempt is retried by a delayed `webhook` job
// after baseDelayMs·2^(attempt−1); after maxAttempts the event is given up and the next one goes out.
// A process shutting down starts no further attempt and gives the one in flight shutdownGraceMs (as crawl
// runners give their fetches), so a receiver that does not answer cannot hold the process up to its timeout;
// a cut attempt is not counted and the crawl's events are queued again for another worker.
import { createHmac } from 'node:crypto';
import { exponentialBackoffMs } from '../../crawler/backoff.js';
import type { Fetcher } from '../../crawler/fetch/index.js';
import { INTERNAL_SCOPE, type TenantScope } from '../../db/tenant-scope.js';
import type { WebhookDeliveryRow, WebhooksRepository } from '../../db/webhooks-repo.js';
import { InputError } from '../../errors.js';
import { queueWebhookDelivery } from '../../jobs/producers.js';
import type { JobBackend } from '../../jobs/queues.js';
import { encodeCursor, isRowIdCursor, paginate } from '../presentation/pagination.js';
import { webhookCrawlView, webhookDeliveryView } from '../presentation/views.js';
import type { CrawlReader } from './crawl-reader.js';

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>" keyed with the secret>` */
export function webhookSignature(secret: string, timestampSecs: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestampSecs}.${body}`).digest('hex')}`;
}

/**
 * The `crawl` object of a webhook body: the crawl at the moment its event happens. Taken when the event is
 * recorded and stored with it, so a retried `started` event still says `running`.
 */
export async function webhookCrawlSnapshot(crawls: Pick<CrawlReader, 'status'>, crawlId: string) {
  return webhookCrawlView(await crawls.status(crawlId, INTERNAL_SCOPE));
}

export interface WebhookDelivererOptions {
  repository: WebhooksRepository;
  crawls: CrawlReader;
  jobs: JobBackend;
  /** The SSRF-guarded crawler client: a webhook URL may not reach a private network either. */
  fetcher: Fetcher;
  userAgent: string;
  maxAttempts: number;
  baseDelayMs: number;
  timeoutMs: number;
  /** Each attempt's outcome (metrics). */
  onAttempt?(outcome: WebhookDeliveryRow['outcome']): void;
  /** Aborted when the process starts shutting down. */
  shutdown: AbortSignal;
  /** How long an attempt in flight may still take once the process shuts down (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
}

/** A pause before the events of a shutdown-cut run are taken up again, so a worker still closing does not spin. */
const RESUME_AFTER_SHUTDOWN_MS = 1000;

export class WebhookDeliverer {
  /** performance.now() at which attempts still in flight are cut; set when shutdown begins. */
  #cutAtMs = Number.POSITIVE_INFINITY;

  constructor(private readonly options: WebhookDelivererOptions) {
    const armCut = () => {
      this.#cutAtMs = performance.now() + options.shutdownGraceMs;
    };
    if (options.shutdown.aborted) armCut();
    else options.shutdown.addEventListener('abort', armCut, { once: true });
  }

  /** Delay before attempt `attempt + 1`. */
  retryDelayMs(attempt: number): number {
    return exponentialBackoffMs(attempt, { baseDelayMs: this.options.baseDelayMs });
  }

  /**
   * Delivers the crawl's due events in order. Another job already doing so holds the lock and also picks up
   * this job's event; the re-check after unlocking closes the gap where an event arrives as it finishes.
   */
  async deliverDue(crawlId: string): Promise<void> {
    const { repository } = this.options;
    for (;;) {
      const locked = await repository.withDeliveryLock(crawlId, () => this.drain(crawlId));
      // a run stopped by shutdown has queued its crawl's events again
      if (!locked || this.options.shutdown.aborted) return;
      const [head] = await repository.pending(crawlId, 1);
      if (!head?.due) return;
    }
  }

  private async drain(crawlId: string): Promise<void> {
    const { repository } = this.options;
    const config = await repository.config(crawlId);
    for (;;) {
      const [head] = await repository.pending(crawlId, 1);
      if (!head?.due) return;
      if (!config) {
        await repository.settle([head.id], 'failed', 0);
        continue;
      }
      const attempt = head.attempts + 1;
      if (this.options.shutdown.aborted) return this.#resumeLater(crawlId, head.id, attempt);
      // The crawl as it was when the event happened (stored with it); events recorded before snapshots were
      // stored get the crawl as it is now.
      const data =
        'crawl' in head.data
          ? head.data
          : { crawl: await webhookCrawlSnapshot(this.options.crawls, crawlId), ...head.data };
      const body = JSON.stringify({
        id: head.id,
        event: head.event,
        crawlId,
        occurredAt: head.created_at.toISOString(),
        sentAt: new Date().toISOString(),
        attempt,
        ...data,
      });
      const timestampSecs = Math.floor(Date.now() / 1000);
      const headers: Record<string, string> = {
        ...config.headers,
        'content-type': 'application/json',
        accept: '*/*',
        'x-trawl-event': head.event,
        'x-trawl-delivery': String(head.id),
        'x-trawl-timestamp': String(timestampSecs),
        ...(config.secret
          ? { 'x-trawl-signature': webhookSignature(config.secret, timestampSecs, body) }
          : {}),
      };
      const cut = this.#shutdownCut();
      const result = await this.options.fetcher
        .fetch(config.url, {
          method: 'POST',
          body,
          headers,
          userAgent: this.options.userAgent,
          timeoutMs: this.options.timeoutMs,
          maxBytes: 64 * 1024,
          // a redirected POST is a misconfigured receiver, not something to follow
          maxRedirects: 0,
          signal: cut.signal,
        })
        .finally(cut.dispose);
      if (cut.signal.aborted) return this.#resumeLater(crawlId, head.id, attempt);
      const ok =
        result.error === null && result.status !== null && result.status >= 200 && result.status < 300;
      const outcome = ok ? 'delivered' : attempt >= this.options.maxAttempts ? 'failed' : 'retrying';
      const delayMs = this.retryDelayMs(attempt);
      await repository.logDelivery({
        eventId: head.id,
        crawlId,
        attempt,
        status: result.status,
        outcome,
        error: ok ? null : (result.error?.message ?? `HTTP ${result.status}`),
        durationMs: result.loadMs,
      });
      await repository.settle([head.id], outcome === 'retrying' ? 'pending' : outcome, delayMs);
      this.options.onAttempt?.(outcome);
      if (outcome === 'retrying') {
        // later events wait behind this one (order); the delayed job comes back for all of them
        await queueWebhookDelivery(this.options.jobs, crawlId, `${head.id}.${attempt + 1}`, delayMs);
        return;
      }
    }
  }

  /** Aborted shutdownGraceMs after shutdown begins (at once past that); dispose() once the attempt is over. */
  #shutdownCut(): { signal: AbortSignal; dispose(): void } {
    const { shutdown } = this.options;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      const inMs = Math.max(0, this.#cutAtMs - performance.now());
      timer = setTimeout(() => controller.abort(new Error('the process is shutting down')), inMs);
    };
    if (shutdown.aborted) arm();
    else shutdown.addEventListener('abort', arm, { once: true });
    return {
      signal: controller.signal,
      dispose: () => {
        clearTimeout(timer);
        shutdown.removeEventListener('abort', arm);
      },
    };
  }

  /** The crawl's due events, this one first, wait for a worker that is not shutting down. */
  async #resumeLater(crawlId: string, eventId: number, attempt: number): Promise<void> {
    await queueWebhookDelivery(
      this.options.jobs,
      crawlId,
      `${eventId}.${attempt}.resumed-${Date.now()}`,
      RESUME_AFTER_SHUTDOWN_MS,
    );
  }

  /**
   * GET /v1/crawls/:id/webhooks: delivery attempts, oldest first, paginated by the shared `cursor`; `after` (a
   * delivery id, the log's first cursor) is kept as its alias.
   */
  async deliveries(
    crawlId: string,
    scope: TenantScope,
    query: { limit: number; cursor?: string | undefined; after?: number | undefined },
  ) {
    if (query.cursor !== undefined && query.after !== undefined) {
      throw new InputError('give cursor or after (its older alias), not both', 'after');
    }
    await this.options.crawls.requireVisible(crawlId, scope);
    return paginate({
      limit: query.limit,
      cursor: query.after !== undefined ? encodeCursor({ after: query.after }) : query.cursor,
      accept: isRowIdCursor,
      read: (after, rows) => this.options.repository.deliveries(crawlId, after?.after ?? 0, rows),
      view: webhookDeliveryView,
      positionOf: (row) => ({ after: row.id }),
      link: { path: `/v1/crawls/${crawlId}/webhooks`, query: { limit: query.limit } },
    });
  }
}
