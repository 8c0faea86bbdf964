// walkHtml against htmlparser2's Parser, the event source parseHtml used before (and still the reference):
// the same events in the same order, hence the same ParsedPage, on the real pages and on seeded random tag
// soups; and hostile nesting (which the Parser handles in quadratic time) parsed whole, links after it found.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Parser } from 'htmlparser2';
import { type HtmlEventHandler, walkHtml } from '../../../src/crawler/parse/html-events.js';
import { type ParseHtmlOptions, parseHtml, parseHtmlEvents } from '../../../src/crawler/parse/parse-html.js';
import { sharedDataPath, skipWithoutSharedData } from '../../support/shared-data.js';

/** The oracle: exactly how parseHtml drove htmlparser2's Parser before walkHtml. */
function parserWalk(html: string, handler: HtmlEventHandler): void {
  new Parser(handler, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }).end(html);
}

type HtmlEvent = ['open', string, Record<string, string>] | ['text', string] | ['close', string];

function events(walk: (html: string, handler: HtmlEventHandler) => void, html: string): HtmlEvent[] {
  const out: HtmlEvent[] = [];
  walk(html, {
    onopentag: (name, attribs) => out.push(['open', name, { ...attribs }]),
    ontext: (data) => out.push(['text', data]),
    onclosetag: (name) => out.push(['close', name]),
  });
  return out;
}

/** Same event streams; on a difference, the first differing event and a little context, not both streams. */
function assertSameEvents(html: string, label: string): void {
  const expected = events(parserWalk, html);
  const actual = events(walkHtml, html);
  const length = Math.max(expected.length, actual.length);
  for (let i = 0; i < length; i++) {
    if (JSON.stringify(expected[i]) === JSON.stringify(actual[i])) continue;
    assert.deepEqual(actual.slice(i, i + 5), expected.slice(i, i + 5), `${label}: events differ at #${i}`);
  }
}

function assertSamePage(html: string, pageUrl: string, opts: ParseHtmlOptions, label: string): void {
  assert.deepEqual(parseHtml(html, pageUrl, opts), parseHtmlEvents(parserWalk, html, pageUrl, opts), label);
}

const OPTION_SETS: ParseHtmlOptions[] = [
  {},
  { mainTextStartsAtFirstParagraph: true, robotsToken: 'TrawlBot' },
  { words: false, normalizeUrl: (url) => (url.includes('drop') ? null : url.toLowerCase()) },
];

const pagesDir = sharedDataPath('readability-test-pages');

test('real pages: walkHtml gives the Parser’s events and parseHtml the same page (links, title, headings, words, images, robots)', {
  skip: skipWithoutSharedData(['readability-test-pages']),
}, () => {
  let pages = 0;
  for (const [index, name] of readdirSync(pagesDir).sort().entries()) {
    const sourcePath = `${pagesDir}/${name}/source.html`;
    if (!existsSync(sourcePath)) continue;
    const html = readFileSync(sourcePath, 'utf8');
    assertSameEvents(html, name);
    assertSamePage(html, 'http://fakehost/test/page.html', OPTION_SETS[index % OPTION_SETS.length]!, name);
    pages++;
  }
  assert.equal(pages, 130);
});

/** mulberry32: a small seeded generator, so a failing soup can be rebuilt from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Every name the tree rules treat specially (implied ends, void, foreign and integration elements, raw text
// and escapable raw text), every name parseHtml looks at, plain inline/block names and unknown ones.
// biome-ignore format: a long list reads better packed
const TAGS = [
  'a', 'area', 'img', 'p', 'h1', 'h2', 'h3', 'title', 'base', 'link', 'meta', 'script', 'style', 'noscript',
  'template', 'textarea', 'xmp', 'svg', 'math', 'mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml',
  'foreignObject', 'desc', 'div', 'span', 'b', 'i', 'font', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th',
  'td', 'ul', 'ol', 'li', 'dl', 'dd', 'dt', 'select', 'option', 'optgroup', 'input', 'button', 'datalist',
  'output', 'form', 'body', 'head', 'html', 'br', 'hr', 'wbr', 'col', 'embed', 'param', 'source', 'track',
  'section', 'article', 'nav', 'main', 'header', 'footer', 'blockquote', 'pre', 'rt', 'rp', 'ruby', 'x-widget',
  'P', 'DIV', 'A', 'Svg', 'TITLE', 'Br',
];
const WORDS = [
  'alpha',
  'beta',
  'the',
  'and',
  'Zürich',
  'x',
  '  ',
  '\n',
  'a&amp;b',
  '&lt;',
  '&#x41;',
  '&nbsp;',
  '&bogus;',
  '&amp',
];

function soup(seed: number): string {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const attribute = (): string => {
    const value = pick([
      '/x',
      'rel/y?q=1#f',
      'https://other.example/z',
      'javascript:void(0)',
      'drop/me',
      '&amp;q',
      '',
    ]);
    return pick([
      `href="${value}"`,
      `HREF='${value}'`,
      `href=${value || 'bare'}`,
      `src="${value}"`,
      `alt="${pick(WORDS)} ${pick(WORDS)}"`,
      `rel="${pick(['nofollow', 'canonical', 'NoFollow ugc', ''])}"`,
      `name="${pick(['robots', 'trawlbot', 'googlebot', 'description'])}"`,
      `content="${pick(['noindex', 'nofollow', 'none', 'index, follow', 'NOINDEX,NOFOLLOW'])}"`,
      'href="/first" href="/second"',
      'disabled',
      '__proto__="p"',
      'constructor="c"',
    ]);
  };
  const parts: string[] = [];
  const tokens = 20 + Math.floor(next() * 300);
  for (let i = 0; i < tokens; i++) {
    const roll = next();
    if (roll < 0.35) {
      const attributes = Array.from({ length: Math.floor(next() * 3) }, attribute).join(' ');
      parts.push(`<${pick(TAGS)}${attributes ? ` ${attributes}` : ''}${next() < 0.1 ? '/' : ''}>`);
    } else if (roll < 0.6) {
      parts.push(`</${pick(TAGS)}>`);
    } else if (roll < 0.9) {
      parts.push(`${pick(WORDS)} `);
    } else {
      parts.push(
        pick([
          '<!-- a <b> comment -->',
          '<![CDATA[ <a href="/cdata">c</a> ]]>',
          '<!DOCTYPE html>',
          '<?xml version="1.0"?>',
          '</>',
          '< p>',
          '<3',
          '</ br>',
          '<a href="/u">unterminated',
        ]),
      );
    }
  }
  // Sometimes the page is cut in the middle of a tag, an attribute or an entity.
  if (next() < 0.3) parts.push(pick(['<a href="/cut', '<div', '</sp', '&am', '<!-- open', '<img src=x alt']));
  return parts.join('');
}

test('seeded random tag soups: the same events and the same page as with the Parser', () => {
  for (let seed = 1; seed <= 3000; seed++) {
    const html = soup(seed);
    assertSameEvents(html, `soup seed ${seed}`);
    assertSamePage(
      html,
      'https://ex.com/dir/page',
      OPTION_SETS[seed % OPTION_SETS.length]!,
      `soup seed ${seed}`,
    );
  }
});

const TAIL =
  '<p>after the deep part: <a href="/after-1">first link</a> then <a href="/after-2">second</a></p>';

test('64,000 unclosed <div>: the whole page is parsed, the links after them found', () => {
  const page = parseHtml(`<html><body>${'<div>'.repeat(64_000)}${TAIL}`, 'https://ex.com/');
  assert.deepEqual(
    page.links.map((link) => [link.url, link.anchorText]),
    [
      ['https://ex.com/after-1', 'first link'],
      ['https://ex.com/after-2', 'second'],
    ],
  );
  assert.deepEqual(page.textWords, ['after', 'the', 'deep', 'part', 'first', 'link', 'then', 'second']);
  assert.equal(page.links[1]?.wordPosition, 7);
});

test('32,000 <span> then 32,000 stray </b>: the whole page is parsed, the links after them found', () => {
  const page = parseHtml(
    `<title>Deep</title>${'<span>'.repeat(32_000)}${'</b>'.repeat(32_000)}${TAIL}<h2>End</h2>`,
    'https://ex.com/',
  );
  assert.equal(page.title, 'Deep');
  assert.deepEqual(page.h2, ['End']);
  assert.deepEqual(
    page.links.map((link) => link.url),
    ['https://ex.com/after-1', 'https://ex.com/after-2'],
  );
  assert.equal(page.links[0]?.anchorText, 'first link');
});

test('deep nesting, smaller so the Parser stays quick: the same events and page as with the Parser', () => {
  const deep = [
    `${'<div>'.repeat(3000)}${TAIL}`,
    `${'<span>'.repeat(3000)}${'</b>'.repeat(3000)}${TAIL}`,
    `${'<div><span><a href="/in">in</a>'.repeat(1000)}${'</div>'.repeat(500)}${TAIL}`,
    `${'<svg><title>t'.repeat(1000)}${'</title></svg>'.repeat(400)}<p/>${TAIL}`,
    `${'<li><p>x'.repeat(1500)}${'</p>'.repeat(1500)}${TAIL}`,
  ];
  for (const [index, html] of deep.entries()) {
    assertSameEvents(html, `deep #${index}`);
    assertSamePage(html, 'https://ex.com/', {}, `deep #${index}`);
  }
});

test('walkHtml with `attributes` reads only those, each as the full walk reads it', () => {
  const wanted = new Set(['href', 'alt', 'content']);
  const only = (attribs: Record<string, string>) =>
    Object.fromEntries(Object.entries(attribs).filter(([name]) => wanted.has(name)));
  const html = [
    '<a HREF="/first" href="/second" class="menu" hreg="no" data-href="no">x</a>',
    '<img ALT="A &amp; B" src="/i.png" alt="later"><meta name="robots" content="noindex, &#x6E;ofollow">',
    '<a \u212Aref="kelvin" href=/bare>y</a><a href>empty</a>',
  ].join('');
  const filtered: HtmlEvent[] = [];
  walkHtml(
    html,
    {
      onopentag: (name, attribs) => filtered.push(['open', name, { ...attribs }]),
      ontext: (data) => filtered.push(['text', data]),
      onclosetag: (name) => filtered.push(['close', name]),
    },
    { attributes: wanted },
  );
  const expected = events(walkHtml, html).map(
    (event): HtmlEvent => (event[0] === 'open' ? ['open', event[1], only(event[2])] : event),
  );
  assert.deepEqual(filtered, expected);
  assert.deepEqual(filtered[0], ['open', 'a', { href: '/first' }]);
});
