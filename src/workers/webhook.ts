// The `webhook` job: deliver the crawl's due webhook events (WebhookDeliverer holds the order and retries).
import type { Job } from 'bullmq';
import type { WebhookJobData } from '../jobs/queues.js';
import type { WebhookDeliverer } from '../services/use-cases/webhooks.js';

export function webhookProcessor(deps: { deliverer: WebhookDeliverer }) {
  return async (job: Job<WebhookJobData>) => {
    await deps.deliverer.deliverDue(job.data.crawlId);
    return { crawlId: job.data.crawlId };
  };
}
