// Which links of a page are queued, with what weight; which images are fetched; which links and images are skipped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type LinkRules, linksToQueue, selectLinks } from '../../../src/crawler/engine/link-selection.js';
import { canonicalizeUrl } from '../../../src/crawler/frontier/canonicalize.js';
import { CrawlScope } from '../../../src/crawler/frontier/scope.js';
import { parseHtml } from '../../../src/crawler/parse/parse-html.js';

const rules = (overrides: Partial<LinkRules> = {}): LinkRules => ({
  strategy: 'bfs',
  topics: [],
  topicOptions: { mainTextStartsAtFirstParagraph: false, skipLinksWithHashOrColon: false },
  respectNofollow: true,
  ignoreInternal: false,
  inheritPriority: false,
  scope: (url) =>
    url.startsWith('http://out.test') ? { inScope: false, reason: 'domain' } : { inScope: true },
  known: (url) => url.endsWith('/known'),
  disallowed: (url) => (url.includes('/private') ? 'disallowed by robots.txt' : null),
  fetchImages: false,
  ...overrides,
});
const parse = (html: string) =>
  parseHtml(html, 'http://a.test/page', { normalizeUrl: (absolute) => canonicalizeUrl(absolute) });
const page = { finalUrl: 'http://a.test/page', depth: 1, priority: 0, score: 0.8 };

test('one link per target, in document order, at depth + 1, with what the runner knows of it', () => {
  const parsed = parse(
    '<a href="/b">B</a><a href="/known">K</a><a href="/b">again</a><a href="http://out.test/">O</a>' +
      '<a href="/private/x">P</a><a href="/n" rel="nofollow">N</a>',
  );
  const { links } = selectLinks(parsed, page, rules());
  assert.deepEqual(
    links.map((l) => [l.url, l.depth, l.priority, l.anchor, l.known, l.disallowed]),
    [
      ['http://a.test/b', 2, 0, 'B', false, null],
      ['http://a.test/known', 2, 0, 'K', true, null],
      ['http://a.test/private/x', 2, 0, 'P', false, 'disallowed by robots.txt'],
    ],
  );
});

test('best-first weighs links by the page score; meta nofollow and ignoreInternal drop links', () => {
  const parsed = parse('<a href="/b">B</a><a href="http://c.test/">C</a>');
  assert.deepEqual(
    selectLinks(parsed, page, rules({ strategy: 'best-first' })).links.map((l) => l.priority),
    [0.8, 0.8],
  );
  assert.deepEqual(
    selectLinks(parsed, page, rules({ ignoreInternal: true })).links.map((l) => l.url),
    ['http://c.test/'],
  );
  const noFollow = parse(
    '<meta name="robots" content="nofollow"><a href="/b">B</a><img src="/i.png" alt="I">',
  );
  const selected = selectLinks(noFollow, page, rules());
  assert.deepEqual(selected.links, []);
  assert.deepEqual(
    selected.images,
    [{ url: 'http://a.test/i.png', alt: 'I' }],
    'images are kept all the same',
  );
});

test('URLs too long to crawl are skipped with the reason, shown by their first 300 characters', () => {
  const long = `/${'x'.repeat(3000)}`;
  const parsed = parse(`<a href="${long}">L</a><img src="${long}" alt="">`);
  const { links, images, skipped } = selectLinks(parsed, page, rules());
  assert.deepEqual([links, images], [[], []]);
  assert.deepEqual(
    skipped.map((s) => [s.kind, s.url.length]),
    [
      ['link', 301],
      ['image', 301],
    ],
  );
});

test('links too long for the scope patterns are skipped with that reason; other out-of-scope links are not', () => {
  const parsed = parse(
    `<a href="/${'p'.repeat(1100)}">L</a><a href="http://out.test/">O</a><a href="/b">B</a>`,
  );
  const scope = new CrawlScope({ seeds: ['http://a.test/'], exclude: ['/private/'] });
  const { links, skipped } = selectLinks(
    parsed,
    page,
    rules({ scope: (url, d, on) => scope.check(url, d, on) }),
  );
  assert.deepEqual(
    links.map((l) => l.url),
    ['http://a.test/b'],
  );
  assert.equal(skipped.length, 1);
  assert.equal(skipped[0]?.kind, 'link');
  assert.match(skipped[0]?.reason ?? '', /^too-long-for-patterns: /);
});

test('images shown are fetched only when the crawl fetches images: queued at depth + 1, in scope, never as links', () => {
  const parsed = parse(
    '<img src="/a.png" alt="A"><img src="/a.png"><img src="http://out.test/o.png"><img src="/known.png">' +
      '<img src="/private/p.png"><img src="/b.html"><a href="/b.html">B</a>',
  );
  const recordedOnly = selectLinks(parsed, page, rules());
  assert.deepEqual(recordedOnly.queuedImages, [], 'images are recorded, not fetched, unless asked');
  assert.equal(recordedOnly.images.length, 5);

  const fetched = selectLinks(
    parsed,
    page,
    rules({ fetchImages: true, known: (url) => url.endsWith('/known.png') }),
  );
  assert.deepEqual(
    fetched.queuedImages.map((i) => [i.url, i.depth, i.priority, i.anchor, i.known, i.disallowed]),
    [
      ['http://a.test/a.png', 2, 0, '', false, null],
      ['http://a.test/known.png', 2, 0, '', true, null],
      ['http://a.test/private/p.png', 2, 0, '', false, 'disallowed by robots.txt'],
    ],
    'one per URL, in scope, robots.txt judged; an image also linked is queued once, as the link',
  );
  assert.deepEqual(
    fetched.links.map((l) => l.url),
    ['http://a.test/b.html'],
    'images are never links',
  );
  assert.equal(fetched.images.length, 5, 'every image is still recorded');

  const bestFirst = selectLinks(parsed, page, rules({ fetchImages: true, strategy: 'best-first' }));
  assert.ok(
    bestFirst.queuedImages.every((i) => i.priority === 0.8),
    'best-first: the page score',
  );
  const deepest = selectLinks(
    parsed,
    page,
    rules({
      fetchImages: true,
      scope: (_url, depth) => (depth > 1 ? { inScope: false, reason: 'depth' } : { inScope: true }),
    }),
  );
  assert.deepEqual(deepest.queuedImages, [], 'a page at maxDepth has its images recorded, not fetched');
  const nofollow = selectLinks(
    parse('<meta name="robots" content="nofollow"><img src="/a.png">'),
    page,
    rules({ fetchImages: true }),
  );
  assert.deepEqual([nofollow.queuedImages, nofollow.images.length], [[], 1], 'nofollow: nothing fetched');
});

test('linksToQueue: new links; known ones too when rediscovery raises priorities, unless they weigh 0', () => {
  const link = (path: string, priority: number, known: boolean) => ({
    url: `http://a.test${path}`,
    origin: 'http://a.test',
    depth: 1,
    priority,
    anchor: '',
    known,
  });
  const links = [link('/new', 0, false), link('/known-heavy', 0.5, true), link('/known-zero', 0, true)];
  const paths = (raiseOnRediscovery?: boolean) =>
    linksToQueue(links, {
      slots: 1,
      maxDiscovered: null,
      ...(raiseOnRediscovery === undefined ? {} : { raiseOnRediscovery }),
    }).map((each) => new URL(each.url).pathname);
  assert.deepEqual(paths(), ['/new']);
  assert.deepEqual(paths(false), ['/new']);
  assert.deepEqual(paths(true), ['/new', '/known-heavy']);
});

test('topic: a link weighs what the reference says; capped by pages fetched, it inherits half its page’s priority', () => {
  const filler = Array.from({ length: 22 }, (_, i) => `w${i}`).join(' ');
  const parsed = parse(
    `<p>tennis <a href="/near">near</a> ${filler} <a href="/far">far</a> <a href="/tennis-club">club</a></p>`,
  );
  const topic = { strategy: 'topic' as const, topics: ['tennis'] };
  const priorities = (at: { depth: number; priority: number }, inheritPriority: boolean) =>
    selectLinks(parsed, { ...page, ...at }, rules({ ...topic, inheritPriority })).links.map((l) => [
      l.url.slice('http://a.test'.length),
      l.priority,
    ]);
  // the reference: 1/(d+2) at d = 0 words, 0 beyond 20 words, 1 for a topic in the URL
  const weights = [
    ['/near', 0.5],
    ['/far', 0],
    ['/tennis-club', 1],
  ];
  assert.deepEqual(priorities({ depth: 1, priority: 0.5 }, false), weights);
  assert.deepEqual(
    priorities({ depth: 3, priority: 0.1 }, false),
    weights,
    'the page’s priority plays no part',
  );
  // the mean of the link's weight and its page's priority
  assert.deepEqual(priorities({ depth: 1, priority: 0.5 }, true), [
    ['/near', 0.5],
    ['/far', 0.25],
    ['/tennis-club', 0.75],
  ]);
  // a seed inherits 1 whatever it was queued at
  assert.deepEqual(priorities({ depth: 0, priority: 0 }, true), [
    ['/near', 0.75],
    ['/far', 0.5],
    ['/tennis-club', 1],
  ]);
});
