// The CrawlStore contract on the in-memory double the runner's unit tests use.
import { randomUUID } from 'node:crypto';
import { crawlStoreContract } from '../../contract/crawl-store.contract.js';
import { MemoryCrawlStore } from '../../support/memory-crawl-store.js';

crawlStoreContract(async () => {
  const store = new MemoryCrawlStore();
  return {
    store,
    async createCrawl(crawl) {
      const id = randomUUID();
      await store.createCrawl({ id, ...crawl });
      return id;
    },
    async cancel(crawlId) {
      await store.cancel(crawlId);
    },
    async pages(crawlId) {
      return store.pages(crawlId).map(({ id, url, type, result, outcome }) => ({
        id,
        url,
        type,
        result,
        text: outcome?.text ?? null,
      }));
    },
  };
});
