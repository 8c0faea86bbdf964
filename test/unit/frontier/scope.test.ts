import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CrawlScope, type CrawlScopeSpec, type ScopeVerdict } from '../../../src/crawler/frontier/scope.js';
import {
  estimateProgramSize,
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_PROGRAM_SIZE,
  MAX_PATTERN_URL_LENGTH,
} from '../../../src/crawler/frontier/url-patterns.js';
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
  { name: 'lookahead', spec: { ...seed, include: ['ok', '/blog/(?!draft)'] }, field: 'scope.include[1]' },
  { name: 'negative lookbehind', spec: { ...seed, exclude: ['(?<!/en)/page'] }, field: 'scope.exclude[0]' },
  { name: 'backreference', spec: { ...seed, include: ['/(\\w+)/\\1/'] }, field: 'scope.include[0]' },
  { name: 'repeat count over RE2\'s 1000', spec: { ...seed, include: ['a{1001}'] }, field: 'scope.include[0]' },
  { name: 'one pattern over the program budget', spec: { ...seed, exclude: ['(a|b){1000}'] }, field: 'scope.exclude[0]' },
  { name: 'the pattern that exhausts the shared budget', spec: { ...seed, include: ['[a-z]{1,60}'], exclude: ['x', '[a-z]{1,60}', '[0-9]{1,30}'] }, field: 'scope.exclude[2]' },
  { name: 'a DFA-hungry pattern just over the budget', spec: { ...seed, exclude: ['(a|b)*a(a|b){100}x'] }, field: 'scope.exclude[0]' },
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

test('CrawlScope names the seeds where the API keeps them (seedsField)', () => {
  for (const [seeds, field] of [
    [['https://ok.test/', 'https://user:pw@x.test/'], 'seeds[1]'],
    [[], 'seeds'],
  ] as const) {
    assert.throws(
      () => new CrawlScope({ seeds: [...seeds] }, { seedsField: 'seeds' }),
      (error: unknown) =>
        error instanceof InputError && error.field === field && !error.message.includes('scope.'),
    );
  }
});

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

test('patterns RE2 cannot run are refused with the reason', () => {
  const cases: Array<[string, RegExp]> = [
    ['/blog/(?=2024)', /lookahead is not supported.*RE2 syntax/],
    ['/blog/(?!draft)', /lookahead is not supported/],
    ['(?<=/en)/page', /lookbehind is not supported/],
    ['(?<!/en)/page', /lookbehind is not supported/],
    ['/(\\w+)/\\1/', /backreferences are not supported/],
    ['(?<year>\\d{4})/\\k<year>', /backreferences are not supported/],
    ['(unclosed', /missing closing \)/],
  ];
  for (const [pattern, reason] of cases) {
    assert.throws(
      () => new CrawlScope({ ...seed, include: ['fine', pattern] }),
      (error: unknown) =>
        error instanceof InputError &&
        error.field === 'scope.include[1]' &&
        error.message.startsWith('scope.include[1] is not a valid RE2 regular expression') &&
        reason.test(error.message),
      pattern,
    );
  }
});

// The patterns that froze the service on V8's backtracking engine, each beside a URL it must match and
// one it must not; the long URLs (1,000 characters, about the most patterns are run on) would take V8
// longer than the age of the universe.
const hostile: Array<{ pattern: string; matching: string; other: string }> = [
  { pattern: '(a|a)+$', matching: `/${'a'.repeat(40)}`, other: `/${'a'.repeat(40)}!` },
  { pattern: '(?:a|a)*b', matching: `/${'a'.repeat(40)}b`, other: `/${'a'.repeat(40)}!` },
  { pattern: '([a-z]|[a-z0-9])+\\.x$', matching: `/${'a'.repeat(40)}.x`, other: `/${'a'.repeat(40)}!` },
  { pattern: '(a|aa)+$', matching: `/${'a'.repeat(40)}`, other: `/${'a'.repeat(40)}!` },
  { pattern: '.*.*.*.*.*x$', matching: `/${'a'.repeat(40)}x`, other: `/${'a'.repeat(40)}!` },
  { pattern: 'a*a*a*a*a*a*a*b', matching: `/${'a'.repeat(40)}b`, other: `/${'a'.repeat(40)}!` },
  { pattern: '^(a+)+$', matching: 'never', other: `/${'a'.repeat(40)}!` },
  { pattern: '(\\w*)*y', matching: `/${'w'.repeat(40)}y`, other: `/${'w'.repeat(40)}!` },
];

for (const { pattern, matching, other } of hostile) {
  test(`hostile pattern ${pattern} is accepted and matched in linear time`, () => {
    const url = (path: string) => `https://example.com${path}`;
    const long = (path: string) => url(path.replace(/a{40}|w{40}/, (run) => run[0]!.repeat(1000)));
    for (const list of ['include', 'exclude'] as const) {
      const scope = new CrawlScope({ ...seed, [list]: [pattern] });
      const hit: ScopeVerdict = list === 'include' ? IN : out('exclude');
      const miss: ScopeVerdict = list === 'include' ? out('include') : IN;
      if (matching !== 'never') {
        assert.deepEqual(scope.check(url(matching), 1), hit, `${list} ${matching}`);
        assert.deepEqual(scope.check(long(matching), 1), hit, `${list} long ${matching}`);
      }
      assert.deepEqual(scope.check(url(other), 1), miss, `${list} ${other}`);
      assert.deepEqual(scope.check(long(other), 1), miss, `${list} long ${other}`);
    }
    // the answers agree with V8's engine where it finishes: on short runs
    const short = (path: string) => url(path.replace(/a{40}|w{40}/, (run) => run[0]!.repeat(12)));
    assert.equal(new RegExp(pattern).test(short(other)), false);
    if (matching !== 'never') assert.equal(new RegExp(pattern).test(short(matching)), true);
  });
}

test('RE2 syntax: inline flags stay inside their pattern; classes and escapes work', () => {
  const scope = new CrawlScope({ ...seed, include: ['(?i)/BLOG/', '/shop/[[:digit:]]+$', '\\.PDF$'] });
  assert.deepEqual(scope.check('https://example.com/blog/x', 1), IN);
  assert.deepEqual(scope.check('https://example.com/shop/42', 1), IN);
  assert.deepEqual(scope.check('https://example.com/shop/42x', 1), out('include'));
  // (?i) of the first pattern does not leak into the third
  assert.deepEqual(scope.check('https://example.com/a.pdf', 1), out('include'));
  assert.deepEqual(scope.check('https://example.com/a.PDF', 1), IN);
});

test('with patterns set, URLs past MAX_PATTERN_URL_LENGTH are out of scope before any pattern runs', () => {
  const path = (length: number) => `/${'a'.repeat(length - 'https://example.com/'.length)}`;
  const longest = `https://example.com${path(MAX_PATTERN_URL_LENGTH)}`;
  const tooLong = `https://example.com${path(MAX_PATTERN_URL_LENGTH + 1)}`;
  assert.equal(longest.length, MAX_PATTERN_URL_LENGTH);
  for (const spec of [{ include: ['/a'] }, { exclude: ['/private/'] }]) {
    const scope = new CrawlScope({ ...seed, ...spec });
    assert.deepEqual(scope.check(longest, 1), IN);
    assert.deepEqual(scope.check(tooLong, 1), out('too-long-for-patterns'));
  }
  // the worst pattern the budget admits, on the longest URL patterns run on: matched, not refused
  const costly = new CrawlScope({ ...seed, exclude: ['(a|b)*a(a|b){97}x'] });
  assert.deepEqual(costly.check(longest, 1), IN);
  assert.deepEqual(costly.check(`${longest.slice(0, -99)}a${'b'.repeat(97)}x`, 1), out('exclude'));
  // without patterns, length is only the crawl's URL limit's business
  assert.deepEqual(new CrawlScope(seed).check(tooLong, 1), IN);
});

test('verdicts are remembered per URL and stay right past the memory bound', () => {
  const scope = new CrawlScope({ ...seed, exclude: ['/private/', '[02468]$'] });
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < 12_000; i++) {
      const expected: ScopeVerdict = i % 2 === 0 ? out('exclude') : IN;
      assert.deepEqual(scope.check(`https://example.com/p${i}`, 1), expected);
    }
  }
  assert.deepEqual(scope.check('https://example.com/private/1', 1), out('exclude'));
});

test('the program-size estimate bounds what RE2 compiles to', async () => {
  const { RE2JS } = await import('re2js');
  for (const pattern of [
    '/blog/',
    '^https?://[^/]+/blog/.*',
    '(?i)/(en|de|fr)/[a-z0-9-]+\\.html?$',
    '[a-z]{1,100}',
    '(a|b){300}',
    '(?:x{2,5}y?){10}',
    '\\p{Greek}+\\pL\\x{41}\\Qa.b{3}\\E{2}',
    '[]a[:alpha:]-]{3,}',
    '(?P<name>a)|b|c*',
    'a{,5}{',
  ]) {
    const size = RE2JS.compile(pattern).programSize();
    assert.ok(
      estimateProgramSize(pattern) >= size,
      `${pattern}: estimate ${estimateProgramSize(pattern)} < ${size}`,
    );
  }
  // a pattern whose expansion would take seconds to compile is refused before compiling
  const alternatives = Array.from(
    { length: 90 },
    (_, i) => `a${String.fromCharCode(97 + (i % 26))}${i % 10}`,
  );
  assert.ok(estimateProgramSize(`(?:${alternatives.join('|')}){1000}`) > 4 * MAX_PATTERN_PROGRAM_SIZE);
});
