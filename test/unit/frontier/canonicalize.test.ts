import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type CanonicalizeOptions,
  canonicalizeUrl,
  isSessionIdParam,
  isTrackingParam,
} from '../../../src/crawler/frontier/canonicalize.js';

interface Row {
  rule: string;
  input: string;
  base?: string;
  opts?: CanonicalizeOptions;
  expected: string | null;
}

// Each row is named by the rule of the module header (R1…R16) it exercises.
// biome-ignore format: one row per case reads as a table
const rows: Row[] = [
  { rule: 'R1 relative link resolved against base', input: '../c/d?x=1', base: 'http://a.test/b/e/f', expected: 'http://a.test/b/c/d?x=1' },
  { rule: 'R1 protocol-relative link takes the base scheme', input: '//b.test/p', base: 'https://a.test/', expected: 'https://b.test/p' },
  { rule: 'R1 fragment-only link is the base page', input: '#top', base: 'http://a.test/page', expected: 'http://a.test/page' },
  { rule: 'R1 unparseable URL', input: 'http://exa mple.com/', expected: null },
  { rule: 'R1 relative URL without base', input: '/only/a/path', expected: null },
  { rule: 'R1 invalid base', input: 'x', base: 'not a url', expected: null },
  { rule: 'R1 surrounding whitespace trimmed', input: '  http://a.test/x \n', expected: 'http://a.test/x' },
  { rule: 'R2 mailto rejected', input: 'mailto:someone@a.test', expected: null },
  { rule: 'R2 javascript rejected', input: 'javascript:void(0)', base: 'http://a.test/', expected: null },
  { rule: 'R2 ftp rejected', input: 'ftp://a.test/file', expected: null },
  { rule: 'R2 data rejected', input: 'data:text/plain,hi', expected: null },
  { rule: 'R3 user and password rejected', input: 'http://user:pass@a.test/', expected: null },
  { rule: 'R3 user alone rejected', input: 'https://user@a.test/', expected: null },
  { rule: 'R4 scheme and host lower-cased', input: 'HTTP://WWW.Example.COM/Path', expected: 'http://www.example.com/Path' },
  { rule: 'R5 IDN host to punycode', input: 'http://münchen.example/straße', expected: 'http://xn--mnchen-3ya.example/stra%C3%9Fe' },
  { rule: 'R5 upper-case IDN host', input: 'https://BÜCHER.example/', expected: 'https://xn--bcher-kva.example/' },
  { rule: 'R5 IPv4 shorthand to dotted quad', input: 'http://0x7f.1/', expected: 'http://127.0.0.1/' },
  { rule: 'R5 IPv6 host kept in brackets', input: 'http://[0:0::1]:8080/x', expected: 'http://[::1]:8080/x' },
  { rule: 'R6 trailing dot of host removed', input: 'http://example.com./a', expected: 'http://example.com/a' },
  { rule: 'R6 trailing dot removed before a port', input: 'http://example.com.:8080/', expected: 'http://example.com:8080/' },
  { rule: 'R6 host of only dots', input: 'http://./', expected: null },
  { rule: 'R7 default http port removed', input: 'http://a.test:80/x', expected: 'http://a.test/x' },
  { rule: 'R7 default https port removed', input: 'https://a.test:443/x', expected: 'https://a.test/x' },
  { rule: 'R7 non-default port kept', input: 'http://a.test:443/x', expected: 'http://a.test:443/x' },
  { rule: 'R7 loopback test port kept', input: 'http://127.0.0.2:8080', expected: 'http://127.0.0.2:8080/' },
  { rule: 'R8 dot segments resolved', input: 'http://a.test/a/./b/../c/', expected: 'http://a.test/a/c/' },
  { rule: 'R8 encoded dot segments resolved', input: 'http://a.test/a/%2E%2e/b/%2e/c', expected: 'http://a.test/b/c' },
  { rule: 'R8 dot segments above root dropped', input: 'http://a.test/../../x', expected: 'http://a.test/x' },
  { rule: 'R8 backslashes are slashes', input: 'http://a.test\\b\\c', expected: 'http://a.test/b/c' },
  { rule: 'R9 empty path becomes /', input: 'http://a.test', expected: 'http://a.test/' },
  { rule: 'R9 empty path with query', input: 'http://a.test?q=1', expected: 'http://a.test/?q=1' },
  { rule: 'R10 space and non-ASCII percent-encoded', input: 'http://a.test/a b?q=ü', expected: 'http://a.test/a%20b?q=%C3%BC' },
  { rule: 'R11 hex digits upper-cased', input: 'http://a.test/%c3%a9?x=%2f', expected: 'http://a.test/%C3%A9?x=%2F' },
  { rule: 'R11 unreserved characters decoded', input: 'http://a.test/%7Euser/%41%2D%5F%2E%30', expected: 'http://a.test/~user/A-_.0' },
  { rule: 'R11 reserved characters stay encoded', input: 'http://a.test/a%2Fb?k=%3D%26', expected: 'http://a.test/a%2Fb?k=%3D%26' },
  { rule: 'R11 double encoding is not decoded', input: 'http://a.test/%257E', expected: 'http://a.test/%257E' },
  { rule: 'R11 malformed escape left alone', input: 'http://a.test/100%zz', expected: 'http://a.test/100%zz' },
  { rule: 'R12 fragment removed', input: 'http://a.test/p#section-2', expected: 'http://a.test/p' },
  { rule: 'R12 fragment kept on request, normalized', input: 'http://a.test/p#%7ex', opts: { keepFragment: true }, expected: 'http://a.test/p#~x' },
  { rule: 'R12 empty fragment removed even when kept', input: 'http://a.test/p#', opts: { keepFragment: true }, expected: 'http://a.test/p' },
  { rule: 'R13 utm_* removed, rest in order', input: 'http://a.test/?b=2&utm_source=x&a=1&utm_campaign=y', expected: 'http://a.test/?b=2&a=1' },
  { rule: 'R13 click ids removed', input: 'http://a.test/?gclid=1&fbclid=2&msclkid=3&igshid=4&id=7', expected: 'http://a.test/?id=7' },
  { rule: 'R13 mailchimp and _ga removed', input: 'http://a.test/?mc_cid=1&mc_eid=2&_ga=3&page=2', expected: 'http://a.test/?page=2' },
  { rule: 'R13 names compared case-insensitively', input: 'http://a.test/?UTM_Medium=e&FBCLID=1&q=x', expected: 'http://a.test/?q=x' },
  { rule: 'R13 names compared after decoding', input: 'http://a.test/?%75tm_source=1&q=x', expected: 'http://a.test/?q=x' },
  { rule: 'R13 similar names kept', input: 'http://a.test/?utm=1&my_utm_source=2&gclid_x=3', expected: 'http://a.test/?utm=1&my_utm_source=2&gclid_x=3' },
  { rule: 'R13 only tracking → no query', input: 'http://a.test/p?utm_source=news', expected: 'http://a.test/p' },
  { rule: 'R13 tracking kept when disabled', input: 'http://a.test/?utm_source=x&a=1', opts: { stripTrackingParams: false }, expected: 'http://a.test/?utm_source=x&a=1' },
  { rule: 'R13 values kept byte for byte', input: 'http://a.test/?q=a+b&r=%20&s', expected: 'http://a.test/?q=a+b&r=%20&s' },
  { rule: 'R13b sessionid removed, rest in order', input: 'http://a.test/a.html?x=1&sessionid=ABC123&y=2', expected: 'http://a.test/a.html?x=1&y=2' },
  { rule: 'R13b jsessionid, phpsessid, aspsessionid removed, any case', input: 'http://a.test/?JSESSIONID=1A2B&PhpSessId=abc&ASPSESSIONIDQQGGGNCU=KLMNOPQRSTUV&p=3', expected: 'http://a.test/?p=3' },
  { rule: 'R13b only a session id → no query', input: 'http://a.test/a.html?sessionid=f00', expected: 'http://a.test/a.html' },
  { rule: 'R13b sid with a 32-character value removed', input: 'http://a.test/?sid=0123456789abcdef0123456789ABCDEF&q=x', expected: 'http://a.test/?q=x' },
  { rule: 'R13b sid with another value kept (it may name the resource)', input: 'http://a.test/story?sid=42', expected: 'http://a.test/story?sid=42' },
  { rule: 'R13b similar names kept', input: 'http://a.test/?session=1&aspsessionid=2&mysessionid=3', expected: 'http://a.test/?session=1&aspsessionid=2&mysessionid=3' },
  { rule: 'R13b ;jsessionid= path parameter removed', input: 'http://a.test/shop/a.html;jsessionid=0A1B2C3D?item=4', expected: 'http://a.test/shop/a.html?item=4' },
  { rule: 'R13b ;JSessionID= removed, other path parameters kept', input: 'http://a.test/a;v=1;JSessionID=xyz/b.html', expected: 'http://a.test/a;v=1/b.html' },
  { rule: 'R13b session ids kept when disabled', input: 'http://a.test/a.html;jsessionid=1?sessionid=2', opts: { stripSessionIds: false }, expected: 'http://a.test/a.html;jsessionid=1?sessionid=2' },
  { rule: 'R14 empty query removed', input: 'http://a.test/p?', expected: 'http://a.test/p' },
  { rule: 'R14 empty pairs removed', input: 'http://a.test/p?&a=1&&b=2&', expected: 'http://a.test/p?a=1&b=2' },
  { rule: 'R15 query order kept by default', input: 'http://a.test/?z=1&a=2', expected: 'http://a.test/?z=1&a=2' },
  { rule: 'R15 sortQuery sorts by name, stable', input: 'http://a.test/?z=1&a=2&m=3&a=1', opts: { sortQuery: true }, expected: 'http://a.test/?a=2&a=1&m=3&z=1' },
  { rule: 'R16 path case kept', input: 'http://A.test/Docs/README.MD', expected: 'http://a.test/Docs/README.MD' },
  { rule: 'R16 index.html kept', input: 'http://a.test/dir/index.html', expected: 'http://a.test/dir/index.html' },
  { rule: 'R16 trailing slash kept as given', input: 'http://a.test/dir', expected: 'http://a.test/dir' },
];

for (const row of rows) {
  test(`canonicalizeUrl: ${row.rule}`, () => {
    const actual = canonicalizeUrl(row.input, row.base, row.opts);
    assert.equal(actual, row.expected, `${row.input}${row.base ? ` (base ${row.base})` : ''}`);
    if (actual !== null) {
      // Fixed point: a canonical URL is its own canonical form.
      assert.equal(canonicalizeUrl(actual, undefined, row.opts), actual, 'not idempotent');
    }
  });
}

test('the table covers every rule', () => {
  const covered = new Set(rows.map((row) => row.rule.split(' ')[0]));
  for (let rule = 1; rule <= 16; rule++) assert.ok(covered.has(`R${rule}`), `no row for R${rule}`);
  assert.ok(rows.length >= 30);
});

test('isTrackingParam', () => {
  for (const name of ['utm_source', 'utm_content', 'gclid', '_ga', 'igshid', 'mc_eid', 'Msclkid']) {
    assert.equal(isTrackingParam(name), true, name);
  }
  for (const name of ['id', 'page', 'utm', 'ga', 'q', '']) assert.equal(isTrackingParam(name), false, name);
});

test('isSessionIdParam', () => {
  for (const [name, value] of [
    ['jsessionid', 'x'],
    ['PHPSESSID', 'x'],
    ['SessionId', ''],
    ['ASPSESSIONIDABCDEFGH', 'x'],
    ['sid', 'a'.repeat(32)],
  ] as const) {
    assert.equal(isSessionIdParam(name, value), true, `${name}=${value}`);
  }
  for (const [name, value] of [
    ['sid', '42'],
    ['sid', 'a'.repeat(33)],
    ['aspsessionid', 'x'],
    ['session', 'x'],
    ['id', 'x'],
  ] as const) {
    assert.equal(isSessionIdParam(name, value), false, `${name}=${value}`);
  }
});

test('a page reached with and without a session id is one URL', () => {
  const plain = canonicalizeUrl('/a.html', 'http://a.test/');
  assert.equal(canonicalizeUrl('/a.html?sessionid=0123', 'http://a.test/'), plain);
  assert.equal(canonicalizeUrl('/a.html;jsessionid=0123', 'http://a.test/'), plain);
  assert.equal(canonicalizeUrl('/a.html?PHPSESSID=0123#top', 'http://a.test/'), plain);
});
