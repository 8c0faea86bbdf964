import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { canonicalizeUrl } from '../../../src/crawler/frontier/canonicalize.js';
import { LruMap } from '../../../src/crawler/lru-map.js';
import { parseHtml } from '../../../src/crawler/parse/parse-html.js';
import { contentWords, referenceTokens, tokenize } from '../../../src/crawler/text/tokenize.js';
import { sharedDataPath, skipWithoutSharedData } from '../../support/shared-data.js';

const PAGE = 'https://ex.com/a/b/page.html';
const urls = (html: string, pageUrl = PAGE) => parseHtml(html, pageUrl).links.map((link) => link.url);

test('relative URLs resolve against the page URL; fragments are removed', () => {
  assert.deepEqual(
    urls('<a href="x.html">1</a><a href="../up#frag">2</a><a href="/root?q=1#f">3</a><a href="#top">4</a>'),
    [
      'https://ex.com/a/b/x.html',
      'https://ex.com/a/up',
      'https://ex.com/root?q=1',
      'https://ex.com/a/b/page.html',
    ],
  );
  assert.deepEqual(urls('<a href="//cdn.example.org/p">p</a><a href="HTTP://Other.COM:80/x">o</a>'), [
    'https://cdn.example.org/p',
    'http://other.com/x',
  ]);
});

test('<base href> wins over the page URL, for links before it too, and is itself resolved', () => {
  const page = parseHtml(
    '<a href="early">e</a><base href="../dir/"><a href="x">x</a><a href="#f">f</a>',
    PAGE,
  );
  assert.equal(page.baseUrl, 'https://ex.com/a/dir/');
  assert.deepEqual(
    page.links.map((link) => link.url),
    ['https://ex.com/a/dir/early', 'https://ex.com/a/dir/x', 'https://ex.com/a/dir/'],
  );
  // only the first <base href> counts; an unusable one leaves the page URL in charge
  assert.equal(
    parseHtml('<base href="https://one.com/"><base href="https://two.com/">', PAGE).baseUrl,
    'https://one.com/',
  );
  assert.equal(
    parseHtml('<base target="_blank"><base href="https://b.com/z/">', PAGE).baseUrl,
    'https://b.com/z/',
  );
  assert.equal(parseHtml('<base href="http://[bad">', PAGE).baseUrl, PAGE);
  assert.equal(parseHtml('<base href="javascript:alert(1)">', PAGE).baseUrl, PAGE);
});

test('non-http(s) links are dropped; every occurrence is kept in document order', () => {
  const html = `<a href="javascript:void(0)">js</a><a href="mailto:a@b.c">m</a><a href="tel:+123">t</a>
    <a href="data:text/html,hi">d</a><a href="ftp://ex.com/f">f</a><a href="/same">1</a><a>no href</a>
    <a href="/same">2</a><a href="/doc.pdf">pdf</a>`;
  assert.deepEqual(urls(html), ['https://ex.com/same', 'https://ex.com/same', 'https://ex.com/doc.pdf']);
  const page = parseHtml(html, PAGE);
  assert.deepEqual(
    page.links.map((link) => link.anchorText),
    ['1', '2', 'pdf'],
  );
});

test('rel tokens are lower-cased; nofollow comes from rel only, meta robots separately', () => {
  const page = parseHtml(
    '<a href="/a" rel="NoFollow  UGC">a</a><a href="/b" rel="noopener">b</a><a href="/c">c</a>',
    PAGE,
  );
  assert.deepEqual(
    page.links.map((link) => [link.rel, link.nofollow]),
    [
      [['nofollow', 'ugc'], true],
      [['noopener'], false],
      [[], false],
    ],
  );
  assert.deepEqual(page.metaRobots, { noindex: false, nofollow: false });
});

test('meta robots: robots and the crawler token, "none" sets both, other bots are ignored', () => {
  const meta = (html: string, robotsToken?: string) =>
    parseHtml(html, PAGE, robotsToken ? { robotsToken } : {}).metaRobots;
  assert.deepEqual(meta('<meta name="ROBOTS" content="NOINDEX, follow">'), {
    noindex: true,
    nofollow: false,
  });
  assert.deepEqual(meta('<meta name="robots" content="none">'), { noindex: true, nofollow: true });
  assert.deepEqual(meta('<meta name="googlebot" content="noindex,nofollow">'), {
    noindex: false,
    nofollow: false,
  });
  assert.deepEqual(meta('<meta name="TrawlBot" content="nofollow">', 'trawlbot'), {
    noindex: false,
    nofollow: true,
  });
  assert.deepEqual(meta('<meta name="trawlbot" content="nofollow">'), { noindex: false, nofollow: false });
});

test('canonical link is absolute and goes through normalizeUrl', () => {
  assert.equal(
    parseHtml('<link rel="canonical" href="/canon#x">', PAGE).canonicalHref,
    'https://ex.com/canon',
  );
  assert.equal(
    parseHtml('<link rel="Alternate Canonical" href="c">', PAGE).canonicalHref,
    'https://ex.com/a/b/c',
  );
  assert.equal(parseHtml('<link rel="stylesheet" href="s.css">', PAGE).canonicalHref, null);
  const upper = parseHtml('<link rel="canonical" href="/c">', PAGE, {
    normalizeUrl: (url) => url.toUpperCase(),
  });
  assert.equal(upper.canonicalHref, 'HTTPS://EX.COM/C');
});

test('normalizeUrl sees each absolute URL with its fragment, may rewrite it or drop it (null)', () => {
  const seen: string[] = [];
  const page = parseHtml('<a href="/keep#f">k</a><a href="/drop">d</a><img src="/i.png">', PAGE, {
    normalizeUrl: (url) => {
      seen.push(url);
      return url.includes('drop') ? null : `${url}!`;
    },
  });
  assert.deepEqual(seen, ['https://ex.com/keep#f', 'https://ex.com/drop', 'https://ex.com/i.png']);
  assert.deepEqual(
    page.links.map((link) => link.url),
    ['https://ex.com/keep#f!'],
  );
  assert.deepEqual(page.images, [{ url: 'https://ex.com/i.png!', alt: '' }]);
});

test('entities are decoded in text, title, attributes and anchor text', () => {
  const page = parseHtml(
    `<title>Tom &amp; Jerry&#39;s</title><p>caf&eacute; &lt;tag&gt; &#x41;&#66;C&nbsp;end</p>
     <a href="/q?a=1&amp;b=2">R&eacute;sum&eacute; &amp; more</a><img src="i.png" alt="&quot;x&quot;">`,
    PAGE,
  );
  assert.equal(page.title, "Tom & Jerry's");
  assert.equal(page.text, 'café <tag> ABC end Résumé & more');
  assert.deepEqual(page.textWords, ['café', 'tag', 'abc', 'end', 'résumé', 'more']);
  assert.equal(page.links[0]?.url, 'https://ex.com/q?a=1&b=2');
  assert.equal(page.links[0]?.anchorText, 'Résumé & more');
  assert.equal(page.images[0]?.alt, '"x"');
});

test('visible text: script, style, noscript, template and title excluded; block tags separate words', () => {
  const page = parseHtml(
    `<html><head><title>Page title</title><style>p { color: red }</style></head><body>
     <script>var s = "<a href='/in-script'>x</a>";</script><div>one</div><div>two</div>
     <p>wa<b>ter</b>melon<br>next<td>cell</td><td>cell</td></p>
     <noscript>enable <a href="/ns">scripts</a></noscript><template><p>inert <a href="/tpl">t</a></p></template>
     <svg><title>icon tooltip</title><text>drawn</text></svg></body></html>`,
    PAGE,
  );
  assert.equal(page.text, 'one two watermelon next cell cell drawn');
  assert.equal(page.title, 'Page title');
  // a crawler runs no script, so links in <noscript> are real; <template> content is inert
  assert.deepEqual(
    page.links.map((link) => [link.url, link.anchorText]),
    [['https://ex.com/ns', '']],
  );
});

test('title is the first <title>, headings are collected whole', () => {
  const page = parseHtml(
    '<title> First \n title </title><title>Second</title><h1>Big <a href="/x">linked</a> <i>head</i></h1><h2>Sub one</h2><h2>Sub two</h2><h1></h1><h3>not kept</h3>',
    PAGE,
  );
  assert.equal(page.title, 'First title');
  assert.deepEqual(page.h1, ['Big linked head']);
  assert.deepEqual(page.h2, ['Sub one', 'Sub two']);
  assert.equal(parseHtml('<p>no title</p>', PAGE).title, '');
});

test('word positions index textWords; anchor boundaries always separate words', () => {
  const page = parseHtml(
    '<p>One two <a href="/l">Three <b>four</b></a>five <a href="/img"><img src="x.png" alt="Logo"></a> six</p>',
    PAGE,
  );
  assert.deepEqual(page.textWords, ['one', 'two', 'three', 'four', 'five', 'six']);
  const [text, image] = page.links;
  assert.deepEqual([text?.wordPosition, text?.anchorWordCount, text?.anchorText], [2, 2, 'Three four']);
  // a link without words sits before the next word; its anchor text falls back to its images' alt
  assert.deepEqual([image?.wordPosition, image?.anchorWordCount, image?.anchorText], [5, 0, 'Logo']);
  assert.deepEqual(page.words, contentWords(page.text));
});

test('<area href> is a link whose anchor text is its alt', () => {
  const page = parseHtml('<map><area href="/region" alt="North  region"><area alt="no href"></map>', PAGE);
  assert.deepEqual(
    page.links.map((link) => [link.url, link.anchorText]),
    [['https://ex.com/region', 'North region']],
  );
});

test('malformed HTML: unclosed and stray tags, nested <a>, attributes without quotes', () => {
  const page = parseHtml(
    '<div><p>one<p>two <a href=/first>first <a href=/second>second</div></span> three <p>four',
    PAGE,
  );
  assert.deepEqual(page.textWords, ['one', 'two', 'first', 'second', 'three', 'four']);
  assert.deepEqual(
    page.links.map((link) => [link.url, link.anchorText, link.wordPosition, link.anchorWordCount]),
    [
      ['https://ex.com/first', 'first', 2, 1],
      ['https://ex.com/second', 'second', 3, 1],
    ],
  );
  const truncated = parseHtml('<title>Cut <p>off', PAGE);
  assert.equal(truncated.title, 'Cut <p>off');
  assert.doesNotThrow(() => parseHtml('<<>><a href="%%">x</a><a href=">>', PAGE));
});

test('main text starts at the first <p> when asked: links before it are outside', () => {
  const html =
    '<div>Menu <a href="/nav">nav</a></div><p>Body <a href="/in">in</a></p><a href="/after">after</a>';
  const plain = parseHtml(html, PAGE);
  assert.deepEqual(
    plain.links.map((link) => link.inMainText),
    [true, true, true],
  );
  assert.deepEqual(plain.firstParagraph, { wordPosition: 2, linkIndex: 1 });
  assert.deepEqual(plain.mainTextStart, { wordPosition: 0, linkIndex: 0 });
  const main = parseHtml(html, PAGE, { mainTextStartsAtFirstParagraph: true });
  assert.deepEqual(
    main.links.map((link) => link.inMainText),
    [false, true, true],
  );
  assert.deepEqual(main.mainTextStart, { wordPosition: 2, linkIndex: 1 });
  assert.equal(
    parseHtml('<div>no paragraph</div>', PAGE, { mainTextStartsAtFirstParagraph: true }).mainTextStart,
    null,
  );
  // the first-<p> link index counts kept links only (a dropped mailto: before it does not shift it)
  const dropped = parseHtml('<a href="mailto:x@y.z">m</a><a href="/k">k</a><p>x</p>', PAGE);
  assert.deepEqual(dropped.firstParagraph, { wordPosition: 2, linkIndex: 1 });
});

const pagesDir = sharedDataPath('readability-test-pages');

test('real pages: textWords = tokenize(text), words = contentWords(title + text), anchors are their words', {
  skip: skipWithoutSharedData(['readability-test-pages']),
}, () => {
  const names = readdirSync(pagesDir).sort().slice(0, 40);
  let linksChecked = 0;
  for (const name of names) {
    const sourcePath = `${pagesDir}/${name}/source.html`;
    if (!existsSync(sourcePath)) continue;
    const page = parseHtml(readFileSync(sourcePath, 'utf8'), 'http://fakehost/test/page.html');
    assert.deepEqual(page.textWords, tokenize(page.text), name);
    // the reference's text stream: the title first, then the visible text
    assert.deepEqual(page.tokens, referenceTokens(`${page.title} ${page.text}`), name);
    assert.deepEqual(page.words, contentWords(`${page.title} ${page.text}`), name);
    for (const link of page.links) {
      assert.match(link.url, /^https?:\/\/[^#]*$/, name);
      if (link.anchorWordCount === 0) continue;
      const span = page.textWords.slice(link.wordPosition, link.wordPosition + link.anchorWordCount);
      assert.deepEqual(span, tokenize(link.anchorText), `${name}: ${link.url}`);
      linksChecked++;
    }
  }
  assert.ok(linksChecked > 500, `only ${linksChecked} anchors checked`);
});

test('words: false leaves the word arrays empty and keeps text, title and links', () => {
  const html = '<title>T</title><p>one two <a href="/x">three</a> four</p>';
  const full = parseHtml(html, 'http://example.com/');
  const lean = parseHtml(html, 'http://example.com/', { words: false });
  assert.deepEqual(full.textWords, ['one', 'two', 'three', 'four']);
  assert.deepEqual(lean.textWords, []);
  assert.deepEqual(lean.words, []);
  assert.equal(lean.text, full.text);
  assert.equal(lean.title, 'T');
  assert.deepEqual(
    lean.links.map((link) => [link.url, link.anchorText]),
    [['http://example.com/x', 'three']],
  );
});

test('a memo of link forms shared across pages gives the links, images and canonical a fresh parse gives', () => {
  const normalizeUrl = (absolute: string) => canonicalizeUrl(absolute);
  const hrefs = [
    'page.html',
    './page.html',
    '../up.html',
    '/root.html',
    '/root.html?utm_source=x',
    '//other.test/p',
    '/\\other.test/q',
    '\\back.html',
    'https://abs.test/a#frag',
    'HTTP://ABS.test/B',
    'http:relative',
    '?q=1',
    '#top',
    '',
    ' spaced.html',
    'mailto:a@b.test',
    'javascript:void(0)',
    'sub/dir/',
  ];
  const pageUrls = [
    'http://a.test/',
    'http://a.test/x/y.html?z=1',
    'http://a.test/x/other.html',
    'https://a.test/x/y.html',
    'http://b.test:8080/deep/er/',
    'http://user:pw@a.test/x/y.html',
  ];
  const html = (withBase: boolean) =>
    `<html><head>${withBase ? '<base href="/based/">' : ''}<link rel="canonical" href="page.html"></head><body>${hrefs
      .map((href) => `<a href="${href}">${href}</a><img src="${href}" alt="i">`)
      .join('')}</body></html>`;
  const linkForms = new LruMap<string, string | null>(1000);
  for (const withBase of [false, true])
    for (const pageUrl of pageUrls) {
      const fresh = parseHtml(html(withBase), pageUrl, { normalizeUrl });
      const memoized = parseHtml(html(withBase), pageUrl, { normalizeUrl, linkForms });
      assert.deepEqual(memoized.links, fresh.links, `${pageUrl} base ${withBase}`);
      assert.deepEqual(memoized.images, fresh.images);
      assert.equal(memoized.canonicalHref, fresh.canonicalHref);
    }
  assert.ok(linkForms.size > 0, 'the memo was used');
});

test('the text is collapsed on first read and the same every read', () => {
  const page = parseHtml('<p>a  b</p>\n<p> c </p>', 'http://a.test/', { words: false });
  assert.equal(page.text, 'a b c');
  assert.equal(page.text, 'a b c');
  assert.deepEqual({ ...page }.text, 'a b c');
});
