// Follows one crawl through its live stream (/v1/crawls/:id/events) until the final `status` event, which is
// the same body as GET /v1/crawls/:id. A stream cut short (a restarted API, a proxy's idle timeout) is opened
// again (progress events carry whole counts, so nothing needs replaying); after a few failed tries in a row
// the API counts as unavailable.
import { type ApiClient, ApiUnavailable } from './api-client.js';
import { readServerSentEvents } from './sse.js';

/** The fields of a `progress` event the CLI shows (schemas/live.ts ProgressEvent). */
export interface CrawlProgress {
  id: string;
  status: string;
  counts: Record<string, number>;
  pagesFetched: number;
  pagesPerSecond: number;
  frontier: number;
  elapsedMs: number | null;
  relevantPages?: number;
  harvestRate?: number;
}

/** The crawl status object (GET /v1/crawls/:id), kept loose: the CLI prints what the API sends. */
export interface CrawlStatusBody extends CrawlProgress {
  request: { maxPages?: number; maxResults?: number | null; [field: string]: unknown };
  error: string | null;
  [field: string]: unknown;
}

export const FINISHED_STATUSES = new Set(['completed', 'failed', 'cancelled']);

const RECONNECTS = 5;

export async function watchCrawl(
  client: ApiClient,
  id: string,
  onProgress: (progress: CrawlProgress) => void,
  signal?: AbortSignal,
): Promise<CrawlStatusBody> {
  let failures = 0;
  for (;;) {
    try {
      const response = await client.request('GET', `/v1/crawls/${encodeURIComponent(id)}/events`, {
        accept: 'text/event-stream',
        signal,
      });
      for await (const event of readServerSentEvents(response.body!)) {
        failures = 0;
        if (event.event === 'progress') onProgress(JSON.parse(event.data) as CrawlProgress);
        else if (event.event === 'status') return JSON.parse(event.data) as CrawlStatusBody;
      }
    } catch (error) {
      if (signal?.aborted || !(error instanceof ApiUnavailable || error instanceof TypeError)) throw error;
    }
    // the stream ended without a final status: ask the status itself (a finished crawl needs no stream)
    if (++failures > RECONNECTS) {
      throw new ApiUnavailable(`lost the live stream of crawl ${id} and could not resume it`);
    }
    const status = await client
      .json<CrawlStatusBody>('GET', `/v1/crawls/${encodeURIComponent(id)}`, { signal })
      .catch((error: unknown) => {
        if (error instanceof ApiUnavailable) return null;
        throw error;
      });
    if (status && FINISHED_STATUSES.has(status.status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 500 * failures));
  }
}
