// Markdown of extracted main content: the constructs a reader needs, links and images made absolute, and
// nothing a hostile page could turn into a live javascript: link.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { extractMainContent } from '../../../src/crawler/extract/index.js';
import { htmlToMarkdown, pageMarkdown } from '../../../src/crawler/extract/markdown.js';
import { sharedDataPath, skipWithoutSharedData } from '../../support/shared-data.js';

test('headings, paragraphs, emphasis, lists, tables, code blocks', () => {
  const markdown = htmlToMarkdown(
    '<h2>Tides</h2><p>The <b>harbour</b> is <i>calm</i>.</p><ol><li>one</li><li>two</li></ol>' +
      '<ul><li>a</li></ul><table><tr><th>port</th><th>depth</th></tr><tr><td>Dover</td><td>12</td></tr></table>' +
      '<pre><code>let tide = 3;\nreturn tide;</code></pre><p><del>gone</del></p>',
  );
  assert.equal(
    markdown,
    [
      '## Tides',
      '',
      'The **harbour** is _calm_.',
      '',
      '1.  one',
      '2.  two',
      '',
      '-   a',
      '',
      '| port | depth |',
      '| --- | --- |',
      '| Dover | 12  |',
      '',
      '```',
      'let tide = 3;',
      'return tide;',
      '```',
      '',
      '~~gone~~',
    ].join('\n'),
  );
});

test('links and images resolve against the page; other schemes stay text', () => {
  const markdown = htmlToMarkdown(
    '<p><a href="/maps/dover.html">Dover map</a>, <a href="javascript:alert(1)">click</a>, ' +
      '<a href="https://ex.org/a b(1)">odd</a> <img src="img/tide.png" alt="Tide [chart]"> ' +
      '<img src="data:image/png;base64,AAAA" alt="inline"></p>',
    'https://port.example/guide/index.html',
  );
  assert.equal(
    markdown,
    '[Dover map](https://port.example/maps/dover.html), click, [odd](<https://ex.org/a%20b(1)>) ' +
      '![Tide chart](https://port.example/guide/img/tide.png)',
  );
  assert.doesNotMatch(markdown, /javascript:|data:/);
  assert.equal(htmlToMarkdown('   '), '');
});

test('the extracted main content of real pages becomes Markdown with their headings and links', {
  skip: skipWithoutSharedData(['readability-test-pages']),
}, () => {
  const dir = sharedDataPath('readability-test-pages/');
  let withHeadings = 0;
  for (const name of readdirSync(dir).sort().slice(0, 20)) {
    const html = readFileSync(`${dir}${name}/source.html`, 'utf8');
    const extracted = extractMainContent(html, { baseUrl: 'http://fakehost/test/page.html' });
    const markdown = htmlToMarkdown(extracted.html, 'http://fakehost/test/page.html');
    assert.ok(markdown.length > 0 || extracted.text.length === 0, name);
    assert.doesNotMatch(markdown, /\]\((?!https?:|mailto:|<https?:)/, `${name}: every link absolute`);
    if (/^#{1,6} /m.test(markdown)) withHeadings++;
  }
  assert.ok(withHeadings >= 5, `${withHeadings} pages kept headings`);
});

/** A Sphinx page as Sphinx writes it: each heading ends with its permalink, the sidebar and footer around. */
function sphinxPage(): string {
  const prose = Array.from(
    { length: 5 },
    (_, i) =>
      `<p>Step ${i + 1} of the install is told here in plain words, so the page reads as documentation with enough text to keep.</p>`,
  ).join('');
  return (
    '<!DOCTYPE html><html><head><title>Installing the parser &#8212; Parser 2.1 documentation</title></head><body>' +
    '<div class="related"><ul><li><a href="index.html">Parser 2.1 documentation</a> &#187;</li></ul></div>' +
    '<div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main">' +
    '<section id="installing-the-parser"><h1>Installing the parser<a class="headerlink" href="#installing-the-parser" title="Permalink to this heading">¶</a></h1>' +
    `<p>The parser installs from the package index with one command, and it needs a recent interpreter.</p>${prose}` +
    '<section id="requirements"><h2>Requirements<a class="headerlink" href="#requirements" title="Link to this heading">¶</a></h2>' +
    '<p>You need Python 3.10 or newer, a compiler for the optional speedups, and fifty megabytes of disk space.</p>' +
    '<p>See <a href="#requirements">the requirements</a> and <a href="https://example.org/x">the site</a>.</p>' +
    '</section></section></div></div></div>' +
    '<div class="sphinxsidebar"><h3>Navigation</h3><ul><li><a href="a.html">A</a></li><li><a href="b.html">B</a></li></ul></div></div>' +
    '<div class="footer">&#169; Copyright 2024.</div></body></html>'
  );
}

test('a Sphinx page: Markdown opens with its <h1>, and heading permalinks are gone', () => {
  const url = 'https://docs.example/install.html';
  for (const method of ['auto', 'cetd-sum'] as const) {
    const markdown = pageMarkdown(sphinxPage(), url, method);
    assert.ok(
      markdown.startsWith('# Installing the parser\n\nThe parser installs'),
      `${method}: ${markdown}`,
    );
    assert.match(markdown, /^## Requirements$/m, method);
    assert.doesNotMatch(markdown, /¶/, method);
    assert.ok(
      markdown.includes(`[the requirements](${url}#requirements)`),
      `${method}: an in-page link with words stays`,
    );
    assert.equal(markdown.match(/^# /gm)?.length, 1, `${method}: one title`);
  }
  const extracted = extractMainContent(sphinxPage(), { method: 'auto' });
  assert.equal(extracted.title, 'Installing the parser');
  assert.doesNotMatch(extracted.text, /¶/);
});

test('only an in-page link whose text is a permalink symbol goes', () => {
  const html = (link: string) =>
    `<article><h2>Tides${link}</h2><p>${'The harbour is calm at dawn and busy at noon. '.repeat(12)}</p></article>`;
  for (const symbol of ['¶', '§', '#', '🔗', ' ¶ ']) {
    const { html: kept } = extractMainContent(html(`<a class="anchor" href="#tides">${symbol}</a>`), {
      method: 'cetd-sum',
    });
    assert.ok(!kept.includes('href'), `${JSON.stringify(symbol)}: ${kept}`);
  }
  for (const link of ['<a href="#tides">Tides again</a>', '<a href="https://example.org/#x">¶</a>']) {
    const { html: kept } = extractMainContent(html(link), {
      method: 'cetd-sum',
      baseUrl: 'https://example.org/',
    });
    assert.ok(kept.includes('href'), `${link} is kept: ${kept}`);
  }
});
