// Live progress of a crawl as a sequence of server-sent events: `progress` snapshots (the crawl's status),
// optional `page` events for written pages, and one final `status` event. The stream wakes on the crawl's bus
// messages (another process may run the crawl) and polls as a fallback; everything it sends is read from
// PostgreSQL, so a resumed stream (Last-Event-ID) is rebuilt from the same record.
//
// Resuming pages: page ids are handed out at discovery, not at fetch, so ids are not written in order. Each
// event's id is a low-water mark W: every written page with id < W has been sent. W never passes the lowest
// page still in the frontier, and only moves to a mark seen on two ticks in a row, so a page inserted by a
// transaction that had not committed yet at the first look is not skipped. A resumed stream re-sends the
// pages ≥ W: at least once, never missed; clients dedupe on the page id.

import { setTimeout as sleep } from 'node:timers/promises';
import { isFinished } from '../../crawler/vocabulary.js';
import type { LiveRepository } from '../../db/live-repo.js';
import { INTERNAL_SCOPE, type TenantScope } from '../../db/tenant-scope.js';
import type { CrawlEventBus } from '../../jobs/crawl-events.js';
import { type CrawlStatusView, crawlProgressView, pageEventView } from '../presentation/views.js';
import type { CrawlReader } from './crawl-reader.js';

export interface LiveEvent {
  event: 'progress' | 'page' | 'status';
  /** The resume point (see above). */
  id: string;
  data: unknown;
}

export interface LiveProgressOptions {
  crawls: CrawlReader;
  repository: LiveRepository;
  bus: CrawlEventBus;
  /** Least time between two progress events. */
  progressIntervalMs: number;
  /** Without bus messages, look again after this long. */
  pollMs: number;
}

const PAGE_BATCH = 500;

/** Last-Event-ID as a page id mark; anything else starts from the beginning. */
export function resumeMark(lastEventId: string | undefined): number {
  return lastEventId && /^\d{1,15}$/.test(lastEventId.trim()) ? Number(lastEventId.trim()) : 0;
}

export class LiveProgressService {
  constructor(private readonly options: LiveProgressOptions) {}

  /** Throws not_found (before anything is streamed) unless `scope` may see the crawl. */
  async open(
    crawlId: string,
    scope: TenantScope,
    request: { pages: boolean; lastEventId?: string | undefined; signal: AbortSignal },
  ): Promise<AsyncGenerator<LiveEvent>> {
    const first = await this.options.crawls.status(crawlId, scope);
    return this.stream(crawlId, first, request);
  }

  private async *stream(
    crawlId: string,
    first: CrawlStatusView,
    request: { pages: boolean; lastEventId?: string | undefined; signal: AbortSignal },
  ): AsyncGenerator<LiveEvent> {
    const { crawls, repository, bus, progressIntervalMs, pollMs } = this.options;
    const { signal } = request;
    let dirty = false;
    let wake: (() => void) | null = null;
    const unsubscribe = await bus.subscribe(crawlId, () => {
      dirty = true;
      wake?.();
    });
    const onAbort = () => wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      let mark = resumeMark(request.lastEventId);
      let previousCandidate: number | null = null;
      const sentAboveMark = new Set<number>();
      let status = first;
      for (;;) {
        const tickStartMs = Date.now();
        dirty = false;
        const finished = isFinished(status.status);
        if (request.pages) {
          const { frontierLow, maxId } = await repository.frontierLow(crawlId);
          const candidate = finished || frontierLow === null ? (maxId ?? 0) + 1 : frontierLow;
          for (let from = mark; ; ) {
            const rows = await repository.pages(crawlId, from, PAGE_BATCH);
            for (const row of rows) {
              if (sentAboveMark.has(row.id)) continue;
              sentAboveMark.add(row.id);
              yield {
                event: 'page',
                id: String(mark),
                data: pageEventView(row),
              };
            }
            const last = rows[rows.length - 1];
            if (rows.length < PAGE_BATCH || !last) break;
            from = last.id + 1;
          }
          const settled = finished ? candidate : Math.min(candidate, previousCandidate ?? mark);
          previousCandidate = candidate;
          if (settled > mark) {
            mark = settled;
            for (const id of sentAboveMark) if (id < mark) sentAboveMark.delete(id);
          }
        }
        if (finished) {
          yield { event: 'status', id: String(mark), data: status };
          return;
        }
        yield { event: 'progress', id: String(mark), data: crawlProgressView(status) };
        if (signal.aborted) return;
        // at most one progress event per interval; sooner than the poll only when a bus message came
        await sleep(Math.max(0, progressIntervalMs - (Date.now() - tickStartMs)), undefined, {
          signal,
        }).catch(() => {});
        if (signal.aborted) return;
        if (!dirty) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.max(0, pollMs - progressIntervalMs));
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = null;
        }
        if (signal.aborted) return;
        status = await crawls.status(crawlId, INTERNAL_SCOPE); // the caller's scope was checked by open()
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      await unsubscribe();
    }
  }
}

/** One event in the text/event-stream format (data as one JSON line). */
export function formatServerSentEvent(event: LiveEvent): string {
  return `id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
