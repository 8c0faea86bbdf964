import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CrawlScope,
  type CrawlScopeSpec,
  findNestedQuantifier,
  MAX_PATTERN_LENGTH,
  type ScopeVerdict,
} from '../../../src/crawler/frontier/scope.js';
import { InputError } from '../../../src/errors.js';

interface Row {
  name: string;
  spec: CrawlScopeSpec;
  url: string;
  depth?: number;
  foundOn?: string;
  expected: ScopeVerdict;
}

const IN: ScopeVerdict = { inScope: true };
const out = (reason: Exclude<ScopeVerdict, { inScope: true }>['reason']): ScopeVerdict => ({
  inScope: false,
  reason,
});
const seed = { seeds: ['https://example.com/start'] };

// biome-ignore format: one row per case reads as a table
const rows: Row[] = [
  // scheme
  { name: 'seed itself', spec: seed, url: 'https://example.com/start', expected: IN },
  { name: 'mailto is out by scheme', spec: seed, url: 'mailto:a@example.com', expected: out('scheme') },
  { name: 'ftp is out by scheme', spec: seed, url: 'ftp://example.com/f', expected: out('scheme') },
  { name: 'unparseable is out by scheme', spec: seed, url: 'http://exa mple.com/', expected: out('scheme') },
  { name: 'credentials are out by scheme', spec: seed, url: 'https://u:p@example.com/', expected: out('scheme') },
  // domain: default from the seeds
  { name: 'default: other page of the seed host', spec: seed, url: 'https://example.com/a/b', expected: IN },
  { name: 'default: http of the seed host (no port pinned)', spec: seed, url: 'http://example.com/', expected: IN },
  { name: 'default: subdomain admitted', spec: seed, url: 'https://blog.example.com/', expected: IN },
  { name: 'default: host is compared canonically', spec: seed, url: 'HTTPS://EXAMPLE.COM./x', expected: IN },
  { name: 'default: other domain', spec: seed, url: 'https://example.org/', expected: out('domain') },
  { name: 'default: suffix without a dot is not a subdomain', spec: seed, url: 'https://notexample.com/', expected: out('domain') },
  { name: 'default: parent of the seed host is not admitted', spec: { seeds: ['https://www.example.com/'] }, url: 'https://example.com/', expected: out('domain') },
  { name: 'default: subdomains off', spec: { ...seed, allowSubdomains: false }, url: 'https://blog.example.com/', expected: out('domain') },
  { name: 'default: seed port is pinned', spec: { seeds: ['http://127.0.0.2:8080/'] }, url: 'http://127.0.0.2:8081/', expected: out('domain') },
  { name: 'default: seed port matches', spec: { seeds: ['http://127.0.0.2:8080/'] }, url: 'http://127.0.0.2:8080/a', expected: IN },
  { name: 'default: other loopback host', spec: { seeds: ['http://127.0.0.2:8080/'] }, url: 'http://127.0.0.3:8080/', expected: out('domain') },
  { name: 'default: several seeds, each admitted', spec: { seeds: ['http://a.test/', 'http://b.test/'] }, url: 'http://b.test/x', expected: IN },
  // domain: explicit list
  { name: 'explicit: host:port matches that port', spec: { ...seed, allowedDomains: ['127.0.0.2:8080'] }, url: 'http://127.0.0.2:8080/', expected: IN },
  { name: 'explicit: host:port rejects another port', spec: { ...seed, allowedDomains: ['127.0.0.2:8080'] }, url: 'http://127.0.0.2/', expected: out('domain') },
  { name: 'explicit: host without port admits any port', spec: { ...seed, allowedDomains: ['127.0.0.2'] }, url: 'http://127.0.0.2:9000/', expected: IN },
  { name: 'explicit: port 443 matches https default', spec: { ...seed, allowedDomains: ['example.org:443'] }, url: 'https://example.org/', expected: IN },
  { name: 'explicit: port 443 rejects http default', spec: { ...seed, allowedDomains: ['example.org:443'] }, url: 'http://example.org/', expected: out('domain') },
  { name: 'explicit: list replaces the seed host', spec: { ...seed, allowedDomains: ['example.org'] }, url: 'https://example.com/', expected: out('domain') },
  { name: 'explicit: entry case and trailing dot ignored', spec: { ...seed, allowedDomains: ['Example.ORG.'] }, url: 'https://www.example.org/', expected: IN },
  { name: 'explicit: IDN entry matches punycode host', spec: { ...seed, allowedDomains: ['münchen.example'] }, url: 'http://xn--mnchen-3ya.example/', expected: IN },
  { name: 'explicit: *. admits subdomains even when off', spec: { ...seed, allowSubdomains: false, allowedDomains: ['*.example.org'] }, url: 'http://a.b.example.org/', expected: IN },
  { name: 'explicit: * admits any host', spec: { ...seed, allowedDomains: ['*'] }, url: 'http://anything.test:1234/', expected: IN },
  { name: 'explicit: IPv6 with port', spec: { ...seed, allowedDomains: ['[::1]:8080'] }, url: 'http://[::1]:8080/', expected: IN },
  // same host
  { name: 'sameHost: link on the same host', spec: { ...seed, sameHost: true }, url: 'https://example.com/b', foundOn: 'https://example.com/a', expected: IN },
  { name: 'sameHost: link to a subdomain', spec: { ...seed, sameHost: true }, url: 'https://blog.example.com/', foundOn: 'https://example.com/a', expected: out('same-host') },
  { name: 'sameHost: http and https are one host', spec: { ...seed, sameHost: true }, url: 'http://example.com/b', foundOn: 'https://example.com/a', expected: IN },
  { name: 'sameHost: another port is another host', spec: { seeds: ['http://127.0.0.2:8080/'], allowedDomains: ['127.0.0.2'], sameHost: true }, url: 'http://127.0.0.2:8081/', foundOn: 'http://127.0.0.2:8080/', expected: out('same-host') },
  { name: 'sameHost: no foundOn (a seed) passes', spec: { ...seed, sameHost: true }, url: 'https://blog.example.com/', expected: IN },
  { name: 'sameHost: off admits subdomain links', spec: seed, url: 'https://blog.example.com/', foundOn: 'https://example.com/a', expected: IN },
  { name: 'sameHost: domain checked first', spec: { ...seed, sameHost: true }, url: 'https://example.org/', foundOn: 'https://example.com/', expected: out('domain') },
  // depth
  { name: 'depth: at maxDepth', spec: { ...seed, maxDepth: 2 }, url: 'https://example.com/x', depth: 2, expected: IN },
  { name: 'depth: beyond maxDepth', spec: { ...seed, maxDepth: 2 }, url: 'https://example.com/x', depth: 3, expected: out('depth') },
  { name: 'depth: maxDepth 0 keeps only seeds', spec: { ...seed, maxDepth: 0 }, url: 'https://example.com/x', depth: 1, expected: out('depth') },
  { name: 'depth: null is unlimited', spec: { ...seed, maxDepth: null }, url: 'https://example.com/x', depth: 1000, expected: IN },
  { name: 'depth: checked before domain', spec: { ...seed, maxDepth: 1 }, url: 'https://example.org/', depth: 5, expected: out('depth') },
  // include / exclude on the canonical URL
  { name: 'exclude: matching URL', spec: { ...seed, exclude: ['/private/'] }, url: 'https://example.com/private/x', expected: out('exclude') },
  { name: 'exclude: non-matching URL', spec: { ...seed, exclude: ['/private/'] }, url: 'https://example.com/public/x', expected: IN },
  { name: 'exclude: matched on the canonical form', spec: { ...seed, exclude: ['^https://example\\.com/~me/'] }, url: 'HTTPS://example.com:443/%7eme/', expected: out('exclude') },
  { name: 'exclude: tracking params already gone', spec: { ...seed, exclude: ['utm_'] }, url: 'https://example.com/?utm_source=x', expected: IN },
  { name: 'include: one of several matches', spec: { ...seed, include: ['/blog/', '/news/'] }, url: 'https://example.com/news/1', expected: IN },
  { name: 'include: none matches', spec: { ...seed, include: ['/blog/', '/news/'] }, url: 'https://example.com/shop/1', expected: out('include') },
  { name: 'include: empty list admits all', spec: { ...seed, include: [] }, url: 'https://example.com/shop/1', expected: IN },
  { name: 'include: exclude wins over include', spec: { ...seed, include: ['/blog/'], exclude: ['\\.pdf$'] }, url: 'https://example.com/blog/a.pdf', expected: out('exclude') },
  { name: 'include: full URL, case-sensitive', spec: { ...seed, include: ['^https://example\\.com/Blog'] }, url: 'https://example.com/blog', expected: out('include') },
];

for (const row of rows) {
  test(`CrawlScope.check: ${row.name}`, () => {
    const scope = new CrawlScope(row.spec);
    assert.deepEqual(scope.check(row.url, row.depth ?? 1, row.foundOn), row.expected);
  });
}

test('seeds are kept in canonical form', () => {
  const scope = new CrawlScope({ seeds: ['HTTP://Example.com:80', 'https://a.test/x?utm_source=1#f'] });
  assert.deepEqual(scope.seeds, ['http://example.com/', 'https://a.test/x']);
});

interface BadRow {
  name: string;
  spec: CrawlScopeSpec;
  field: string;
}

// biome-ignore format: one row per case reads as a table
const badRows: BadRow[] = [
  { name: 'invalid include regex names its index', spec: { ...seed, include: ['ok', 'fine', '(unclosed'] }, field: 'scope.include[2]' },
  { name: 'invalid exclude regex', spec: { ...seed, exclude: ['[z-a]'] }, field: 'scope.exclude[0]' },
  { name: 'empty pattern', spec: { ...seed, include: [''] }, field: 'scope.include[0]' },
  { name: 'pattern too long', spec: { ...seed, exclude: ['a', 'x'.repeat(MAX_PATTERN_LENGTH + 1)] }, field: 'scope.exclude[1]' },
  { name: 'too many patterns', spec: { ...seed, include: Array.from({ length: 101 }, (_, i) => `p${i}`) }, field: 'scope.include' },
  { name: 'nested quantifier (a+)+', spec: { ...seed, exclude: ['^(a+)+$'] }, field: 'scope.exclude[0]' },
  { name: 'nested quantifier (\\w*)*', spec: { ...seed, include: ['x', '(\\w*)*y'] }, field: 'scope.include[1]' },
  { name: 'nested quantifier through a group', spec: { ...seed, include: ['((ab)+c){2,}'] }, field: 'scope.include[0]' },
  { name: 'no seeds', spec: { seeds: [] }, field: 'scope.seeds' },
  { name: 'seed not http', spec: { seeds: ['https://ok.test/', 'ftp://x.test/'] }, field: 'scope.seeds[1]' },
  { name: 'relative seed', spec: { seeds: ['/path'] }, field: 'scope.seeds[0]' },
  { name: 'empty allowedDomains', spec: { ...seed, allowedDomains: [] }, field: 'scope.allowedDomains' },
  { name: 'allowed domain with a path', spec: { ...seed, allowedDomains: ['a.test', 'b.test/x'] }, field: 'scope.allowedDomains[1]' },
  { name: 'allowed domain with a bad port', spec: { ...seed, allowedDomains: ['a.test:70000'] }, field: 'scope.allowedDomains[0]' },
  { name: 'allowed domain not a host', spec: { ...seed, allowedDomains: ['exa mple.com'] }, field: 'scope.allowedDomains[0]' },
  { name: 'negative maxDepth', spec: { ...seed, maxDepth: -1 }, field: 'scope.maxDepth' },
  { name: 'fractional maxDepth', spec: { ...seed, maxDepth: 1.5 }, field: 'scope.maxDepth' },
];

for (const row of badRows) {
  test(`CrawlScope rejects: ${row.name}`, () => {
    assert.throws(
      () => new CrawlScope(row.spec),
      (error: unknown) => {
        assert.ok(error instanceof InputError, `expected InputError, got ${String(error)}`);
        assert.equal(error.field, row.field);
        assert.equal(error.code, 'validation');
        return true;
      },
    );
  });
}

test('fieldPrefix lets the API name its own path', () => {
  assert.throws(
    () => new CrawlScope({ ...seed, include: ['('] }, { fieldPrefix: 'body.scope' }),
    (error: unknown) => error instanceof InputError && error.field === 'body.scope.include[0]',
  );
});

test('findNestedQuantifier: safe patterns pass, nested ones are named', () => {
  for (const safe of [
    '^https?://[^/]+/blog/.*',
    '/(en|de|fr)/',
    '(ab)+',
    '(a|b)?c+',
    '[(a+)+]',
    '\\(a+\\)+',
    '(?:x)+y*',
    'a{2,5}(b)',
    '(a{)+',
  ]) {
    assert.equal(findNestedQuantifier(safe), null, safe);
  }
  for (const nested of ['(a+)+', '(a*)*', '(?:\\d+)*x', '(a{1,3})+', '((a+))*', '(x(a+))+']) {
    assert.match(findNestedQuantifier(nested) ?? '', /nested quantifier/, nested);
  }
});
