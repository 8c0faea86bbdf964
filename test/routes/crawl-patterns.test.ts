// scope.include / scope.exclude are RE2 patterns: what RE2 cannot run is a 400 naming the pattern, and a
// crawl stored with such a pattern (before patterns were RE2) fails when a worker takes it up, saying why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, startCrawl, waitForCrawl } from '../helper.js';

test('POST /v1/crawls: patterns RE2 cannot run are 400 problems naming the pattern, with the reason', async (t) => {
  const { app } = await build(t, { worker: false });
  const cases: Array<[Record<string, string[]>, string, RegExp]> = [
    [{ include: ['/blog/', '/news/(?=2024)'] }, 'scope.include[1]', /lookahead is not supported/],
    [{ exclude: ['(?<!/en)/page'] }, 'scope.exclude[0]', /lookbehind is not supported/],
    [{ include: ['/(\\w+)/\\1/'] }, 'scope.include[0]', /backreferences are not supported/],
    [{ exclude: ['x', '(a|b){1000}'] }, 'scope.exclude[1]', /too large for the linear-time matcher/],
    // the costliest kind of pattern (a DFA state per character) is bounded by the program-size budget
    [{ exclude: ['(a|b)*a(a|b){100}x'] }, 'scope.exclude[0]', /at most 300 \(300 were left\)/],
  ];
  for (const [scope, field, reason] of cases) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: { seeds: ['https://example.org/'], scope },
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
    const problem = response.json();
    assert.equal(problem.field, field, JSON.stringify(problem));
    assert.match(problem.detail, reason);
    assert.match(problem.detail, new RegExp(`^${field.replace(/[[\]]/g, '\\$&')} `));
  }
  // the patterns that hang V8's engine are accepted
  for (const pattern of [
    '(a|a)+$',
    '(?:a|a)*b',
    '([a-z]|[a-z0-9])+\\.x$',
    '(a|aa)+$',
    '.*.*.*.*.*x$',
    '(a|b)*a(a|b){97}x',
  ]) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: { seeds: ['https://example.org/'], scope: { exclude: [pattern] } },
    });
    assert.equal(response.statusCode, 202, `${pattern}: ${response.body}`);
  }
});

test('a stored crawl whose patterns RE2 refuses fails at resume with a clear error', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const id = await startCrawl(app, { seeds: ['http://127.0.0.1:1/'], scope: { include: ['/blog/'] } });
  // as a crawl stored while patterns ran on V8's engine could hold
  await runtime.db.pool.query(
    `UPDATE crawls SET request = jsonb_set(request, '{scope,include}', '["/blog/(?!draft)"]') WHERE id = $1`,
    [id],
  );
  runtime.startWorker();
  const status = await waitForCrawl(app, id, 60_000);
  assert.equal(status.status, 'failed');
  assert.match(
    String(status.error),
    /stored scope cannot be used: scope\.include\[0\] is not a valid RE2 regular expression: lookahead is not supported/,
  );
});
