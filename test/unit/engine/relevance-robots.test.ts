// The relevance scorer's similarity set is fetched as a crawl fetches: robots.txt is asked of every URL,
// redirect hops included, once per origin.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PageRelevance } from '../../../src/crawler/engine/relevance.js';
import { FakeFetcher } from '../../support/fake-fetcher.js';

const deps = (fetcher: FakeFetcher) => ({ fetcher, userAgent: 'trawl-test/1.0', timeoutMs: 5000 });
const page = (text: string) => ({ body: `<html><body><p>${text}</p></body></html>` });

test('a similarity URL that redirects to a page robots.txt disallows is not fetched there', async () => {
  const fetcher = new FakeFetcher({
    'http://a.test/robots.txt': { contentType: 'text/plain', body: 'User-agent: *\nAllow: /\n' },
    'http://b.test/robots.txt': {
      contentType: 'text/plain',
      body: 'User-agent: trawl-test\nDisallow: /private\n',
    },
    'http://a.test/go': { redirect: 'http://b.test/private/doc' },
    'http://b.test/private/doc': page('secret tennis'),
    'http://a.test/ok': page('tennis rackets and balls'),
    'http://a.test/also': page('tennis courts'),
  });
  const relevance = await PageRelevance.create(
    {
      similarTo: { urls: ['http://a.test/go', 'http://a.test/ok', 'http://a.test/also'], documents: [] },
      threshold: 0.5,
    },
    deps(fetcher),
  );
  assert.ok(relevance);
  assert.equal(fetcher.requested('http://b.test/private/doc'), 0, 'the hop was refused');
  assert.equal(fetcher.requested('http://b.test/robots.txt'), 1, 'robots.txt of the hop’s host was asked');
  assert.equal(fetcher.requested('http://a.test/robots.txt'), 1, 'once per origin');
});

test('a similarity set with nothing robots.txt allows is empty', async () => {
  const fetcher = new FakeFetcher({
    'http://b.test/robots.txt': { contentType: 'text/plain', body: 'User-agent: *\nDisallow: /\n' },
    'http://a.test/go': { redirect: 'http://b.test/doc' },
    'http://b.test/doc': page('tennis'),
  });
  await assert.rejects(
    PageRelevance.create(
      { similarTo: { urls: ['http://a.test/go'], documents: [] }, threshold: 0.5 },
      deps(fetcher),
    ),
    /similarity set is empty/,
  );
  assert.equal(fetcher.requested('http://b.test/doc'), 0);
});
