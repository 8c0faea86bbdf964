// Follows one crawl through its live stream (/v1/crawls/:id/events) until the final `status` event, which is
// the same body as GET /v1/crawls/:id. A stream cut short (a restarted API, a proxy's idle timeout) is opened
// again (progress events carry whole counts, so nothing needs replaying); after a few failed tries in a row
// the API counts as unavailable.
import { isFinished } from '../crawler/vocabulary.js';
import type { CrawlStatus } from '../schemas/crawls.js';
import type { ProgressEvent } from '../schemas/live.js';
import { type ApiClient, ApiUnavailable, crawlPath } from './api-client.js';
import { readServerSentEvents } from './sse.js';

const RECONNECTS = 5;

export async function watchCrawl(
  client: ApiClient,
  id: string,
  onProgress: (progress: ProgressEvent) => void,
  signal?: AbortSignal,
): Promise<CrawlStatus> {
  let failures = 0;
  for (;;) {
    try {
      const response = await client.request('GET', crawlPath(id, '/events'), {
        accept: 'text/event-stream',
        signal,
      });
      for await (const event of readServerSentEvents(response.body!)) {
        failures = 0;
        if (event.event === 'progress') onProgress(JSON.parse(event.data) as ProgressEvent);
        else if (event.event === 'status') return JSON.parse(event.data) as CrawlStatus;
      }
    } catch (error) {
      if (signal?.aborted || !(error instanceof ApiUnavailable || error instanceof TypeError)) throw error;
    }
    // the stream ended without a final status: ask the status itself (a finished crawl needs no stream)
    if (++failures > RECONNECTS) {
      throw new ApiUnavailable(`lost the live stream of crawl ${id} and could not resume it`);
    }
    const status = await client
      .json<CrawlStatus>('GET', crawlPath(id), { signal })
      .catch((error: unknown) => {
        if (error instanceof ApiUnavailable) return null;
        throw error;
      });
    if (status && isFinished(status.status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 500 * failures));
  }
}
