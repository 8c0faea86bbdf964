// Markdown of extracted main content: the constructs a reader needs, links and images made absolute, and
// nothing a hostile page could turn into a live javascript: link.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { extractMainContent } from '../../../src/crawler/extract/index.js';
import { htmlToMarkdown } from '../../../src/crawler/extract/markdown.js';
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
