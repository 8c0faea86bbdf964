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
    async links(crawlId) {
      const urls = new Map(store.pages(crawlId).map((page) => [page.id, page.url]));
      return [...store.links.keys()]
        .map((key) => key.split(' ').map((id) => urls.get(Number(id))))
        .filter((ends): ends is [string, string] => ends.every((url) => url !== undefined))
        .sort();
    },
  };
});
