import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import zlib from 'node:zlib';
import { Fetcher } from '../../../src/crawler/fetch/fetcher.js';
import { discoverSitemapUrls } from '../../../src/crawler/sitemap/discover.js';
import { type LocalServer, startServer } from '../fetch/local-server.js';

let server: LocalServer;
let fetcher: Fetcher;
const urlset = (...paths: string[]) =>
  `<urlset>${paths.map((p) => `<url><loc>${server.origin}${p}</loc></url>`).join('')}</urlset>`;

before(async () => {
  fetcher = new Fetcher({ allowPrivateNetworks: true });
  server = await startServer((req, res) => {
    const send = (body: string | Buffer, type = 'application/xml') => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    switch (req.url) {
      case '/sitemap_index.xml':
        return send(
          `<sitemapindex><sitemap><loc>${server.origin}/posts.xml.gz</loc></sitemap>` +
            `<sitemap><loc>${server.origin}/pages.xml</loc></sitemap>` +
            `<sitemap><loc>${server.origin}/sitemap_index.xml</loc></sitemap>` + // a cycle
            `<sitemap><loc>${server.origin}/missing.xml</loc></sitemap></sitemapindex>`,
        );
      case '/posts.xml.gz':
        return send(zlib.gzipSync(urlset('/post/1', '/post/2')), 'application/gzip');
      case '/pages.xml':
        return send(urlset('/about', '/post/1'));
      case '/sitemap.xml':
        return send(urlset('/'));
      case '/urls.txt':
        return send(`${server.origin}/from-text\n`, 'text/plain');
      default:
        res.writeHead(404);
        res.end();
    }
  });
});

after(async () => {
  await fetcher.close();
  await server.close();
});

const fetchOptions = { userAgent: 'trawl-test', timeoutMs: 5_000, maxBytes: 1_000_000 };

test('walks robots sitemaps and /sitemap.xml through indexes, each file once', async () => {
  const urls = await discoverSitemapUrls(fetcher, {
    robotsSitemaps: [`${server.origin}/sitemap_index.xml`, `${server.origin}/urls.txt`],
    origin: server.origin,
    fetchOptions,
  });
  assert.deepEqual(urls.sort(), [
    `${server.origin}/`,
    `${server.origin}/about`,
    `${server.origin}/from-text`,
    `${server.origin}/post/1`,
    `${server.origin}/post/2`,
  ]);
  assert.equal(server.hits.filter((h) => h === '/sitemap_index.xml').length, 1);
  assert.equal(server.hits.filter((h) => h === '/missing.xml').length, 1);
});

test('maxSitemaps bounds the number of fetches', async () => {
  const before = server.hits.length;
  const urls = await discoverSitemapUrls(fetcher, {
    robotsSitemaps: [`${server.origin}/sitemap_index.xml`],
    origin: server.origin,
    fetchOptions,
    maxSitemaps: 2,
  });
  assert.equal(server.hits.length - before, 2); // the index, then /sitemap.xml
  assert.deepEqual(urls, [`${server.origin}/`]);
});
