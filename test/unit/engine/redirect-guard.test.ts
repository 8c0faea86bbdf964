// A redirect hop's first checks: a URL the crawl can hold, inside its scope.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRedirectTarget } from '../../../src/crawler/engine/redirect-guard.js';

const inScope = (url: string, depth: number) => url.startsWith('http://a.test/') && depth < 3;

test('a hop inside the scope goes on to its canonical target', () => {
  assert.deepEqual(checkRedirectTarget('http://A.test/x#frag', 1, inScope), { target: 'http://a.test/x' });
});

test('a hop to an unsupported URL, a URL too long, or out of scope is refused as INVALID, saying why', () => {
  assert.deepEqual(checkRedirectTarget('ftp://a.test/x', 1, inScope), {
    refusal: { type: 'INVALID', reason: 'redirect to an unsupported URL: ftp://a.test/x' },
  });
  const long = checkRedirectTarget(`http://a.test/${'x'.repeat(3000)}`, 1, inScope);
  assert.ok('refusal' in long && /^redirect to a URL too long to crawl: /.test(long.refusal.reason));
  assert.deepEqual(checkRedirectTarget('http://b.test/', 1, inScope), {
    refusal: { type: 'INVALID', reason: "redirect leaves the crawl's scope: http://b.test/" },
  });
  assert.ok('refusal' in checkRedirectTarget('http://a.test/deep', 3, inScope), 'at the page’s own depth');
});
