import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  normalizeRobotsBody,
  productToken,
  RobotsPolicy,
  robotsPathOf,
  robotsUrlFor,
} from '../../../src/crawler/robots/policy.js';
import { TrawlError } from '../../../src/errors.js';

const UA = 'trawl/0.1 (+https://example.org/bot)';
const ROBOTS = 'https://example.com/robots.txt';
const BODY = [
  'User-agent: *',
  'Disallow: /private/',
  'Crawl-delay: 2',
  '',
  'User-agent: trawl',
  'Disallow: /no-trawl/',
  'Allow: /private/open',
  'Crawl-delay: 0.5',
  '',
  'Sitemap: https://example.com/sitemap.xml',
  'Sitemap: /relative-sitemap.xml',
  'Sitemap: javascript:alert(1)',
].join('\n');

describe('RobotsPolicy.from: what the fetch outcome means (RFC 9309 §2.3.1)', () => {
  const cases: Array<[string, Parameters<typeof RobotsPolicy.from>[1], string]> = [
    ['200 is parsed', { status: 200, body: 'User-agent: *\nDisallow: /' }, 'parsed'],
    ['404 allows all', { status: 404, body: 'not found' }, 'allow-all'],
    ['403 allows all (4xx = unavailable)', { status: 403, body: '' }, 'allow-all'],
    ['301 left over after redirects allows all', { status: 301, body: '' }, 'allow-all'],
    ['429 disallows all', { status: 429, body: '' }, 'disallow-all'],
    ['500 disallows all', { status: 500, body: '' }, 'disallow-all'],
    ['503 disallows all', { status: 503, body: '' }, 'disallow-all'],
    ['unreachable disallows all', { unreachable: true, error: 'ECONNREFUSED' }, 'disallow-all'],
  ];
  for (const [name, response, kind] of cases) {
    test(name, () => {
      const policy = RobotsPolicy.from(ROBOTS, response);
      assert.equal(policy.kind, kind);
      const expectAllowed = kind === 'allow-all';
      if (kind !== 'parsed') assert.equal(policy.isAllowed('https://example.com/any', UA), expectAllowed);
      else assert.equal(policy.isAllowed('https://example.com/any', UA), false);
      assert.equal(policy.status, 'status' in response ? response.status : null);
    });
  }

  test('allowAll', () => {
    const policy = RobotsPolicy.allowAll(ROBOTS);
    assert.equal(policy.kind, 'allow-all');
    assert.equal(policy.isAllowed('https://example.com/x', UA), true);
    assert.equal(policy.crawlDelayMs(UA), undefined);
  });
});

describe('RobotsPolicy matching', () => {
  const policy = RobotsPolicy.from(ROBOTS, { status: 200, body: BODY });

  test('a full User-Agent header picks the group of its product token', () => {
    assert.equal(policy.isAllowed('https://example.com/no-trawl/page', UA), false);
    assert.equal(policy.isAllowed('https://example.com/private/x', UA), true); // trawl's group has no /private/ rule
    assert.equal(policy.isAllowed('https://example.com/no-trawl/page', 'OtherBot/2.0'), true);
    assert.equal(policy.isAllowed('https://example.com/private/x', 'OtherBot/2.0'), false);
  });

  test('crawl-delay of the matching group, in ms', () => {
    assert.equal(policy.crawlDelayMs(UA), 500);
    assert.equal(policy.crawlDelayMs('OtherBot'), 2000);
    assert.equal(
      RobotsPolicy.from(ROBOTS, { status: 200, body: 'User-agent: *\nCrawl-delay: soon' }).crawlDelayMs(UA),
      undefined,
    );
  });

  test('sitemaps are resolved; non-HTTP ones dropped', () => {
    assert.deepEqual(policy.sitemaps, [
      'https://example.com/sitemap.xml',
      'https://example.com/relative-sitemap.xml',
    ]);
  });

  test('a URL of another origin is a programming error, not a verdict', () => {
    assert.throws(() => policy.isAllowed('https://other.example/x', UA), TrawlError);
    assert.throws(() => policy.isAllowed('http://example.com/x', UA), TrawlError); // scheme is part of the origin
  });

  test('a sitemap line between user-agent lines does not split the group', () => {
    const p = RobotsPolicy.from(ROBOTS, {
      status: 200,
      body: 'User-agent: a\nSitemap: /s.xml\nUser-agent: trawl\nDisallow: /x',
    });
    assert.equal(p.isAllowed('https://example.com/x', 'a'), false);
    assert.equal(p.isAllowed('https://example.com/x', UA), false);
  });
});

describe('helpers', () => {
  test('robotsUrlFor uses the URL’s own origin (a redirect target is judged by its own host)', () => {
    assert.equal(robotsUrlFor('https://news.example.com/story?id=1'), 'https://news.example.com/robots.txt');
    assert.equal(robotsUrlFor('https://example.com/news/'), 'https://example.com/robots.txt');
    assert.equal(robotsUrlFor('http://example.com:8080/a/b'), 'http://example.com:8080/robots.txt');
    assert.throws(() => robotsUrlFor('not a url'));
  });

  test('productToken', () => {
    assert.equal(productToken('trawl/0.1 (+contact)'), 'trawl');
    assert.equal(productToken('Mozilla/5.0 (compatible; Googlebot/2.1)'), 'Mozilla');
    assert.equal(productToken('*'), '*');
    assert.equal(productToken('FOO BAR'), 'FOO');
    assert.equal(productToken(''), '');
  });

  test('robotsPathOf follows Google’s GetPathParamsQuery', () => {
    assert.equal(robotsPathOf(''), '/');
    assert.equal(robotsPathOf('http://www.example.com'), '/');
    assert.equal(robotsPathOf('http://www.example.com/a'), '/a');
    assert.equal(robotsPathOf('http://www.example.com/a/b?c=http://d.e/#fragment'), '/a/b?c=http://d.e/');
    assert.equal(robotsPathOf('http://www.example.com?a'), '/?a');
    assert.equal(robotsPathOf('http://www.example.com#a/b'), '/');
    assert.equal(robotsPathOf('//a/b/c'), '/b/c');
    assert.equal(robotsPathOf('example.com/a;b'), '/a;b');
  });

  test('normalizeRobotsBody: colon-less lines, product tokens, sitemaps taken out, junk blanked', () => {
    const { rules, sitemaps } = normalizeRobotsBody(
      '\uFEFFUser-Agent FooBot/1.0\nDisallow /x # c\nSitemap: /s.xml\njunk line here',
    );
    assert.equal(rules, 'user-agent: FooBot\ndisallow: /x\n\n');
    assert.deepEqual(sitemaps, ['/s.xml']);
  });

  test('normalizeRobotsBody: a comment runs to the end of its line, whatever it holds', () => {
    // "." stops at U+2028, so /#.*$/ would backtrack over every "#" of such a line: quadratic in its length
    const hostile = `${'#'.repeat(16_000)}\u2028x\n`.repeat(40);
    const { rules } = normalizeRobotsBody(`User-agent: *\nDisallow: /a#b\u2028c\n${hostile}Allow: /z`);
    assert.equal(rules, `user-agent: *\ndisallow: /a${'\n'.repeat(41)}allow: /z`);
  });
});
