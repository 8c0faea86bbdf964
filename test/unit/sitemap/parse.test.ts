import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import zlib from 'node:zlib';
import { MAX_SITEMAP_ENTRIES, parseSitemap } from '../../../src/crawler/sitemap/parse.js';

const SITEMAP_URL = 'https://example.com/sitemap.xml';

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<!-- generated -->
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url>
    <loc>https://example.com/</loc>
    <lastmod>2024-05-01</lastmod>
    <priority>1.0</priority>
  </url>
  <url><loc>https://example.com/search?q=a&amp;page=2</loc><priority>7</priority></url>
  <url>
    <loc><![CDATA[https://example.com/caf%C3%A9?x=<1>]]></loc>
    <image:image><image:loc>https://cdn.example.com/pic.jpg</image:loc></image:image>
  </url>
  <url><loc>ftp://example.com/file</loc></url>
  <url><loc>   </loc></url>
</urlset>`;

const INDEX = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://example.com/sitemap-posts.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>
  <sitemap><loc>/sitemap-pages.xml</loc></sitemap>
</sitemapindex>`;

describe('parseSitemap', () => {
  test('urlset: loc, lastmod, priority; entities and CDATA decoded; bad entries skipped', () => {
    const parsed = parseSitemap(URLSET, SITEMAP_URL);
    assert.equal(parsed.format, 'urlset');
    assert.deepEqual(parsed.urls, [
      { loc: 'https://example.com/', lastmod: '2024-05-01', priority: 1 },
      { loc: 'https://example.com/search?q=a&page=2' },
      { loc: 'https://example.com/caf%C3%A9?x=%3C1%3E' },
    ]);
    assert.deepEqual(parsed.sitemaps, []);
    assert.equal(parsed.truncated, false);
  });

  test('sitemapindex: child sitemaps, relative ones resolved', () => {
    const parsed = parseSitemap(Buffer.from(INDEX), SITEMAP_URL);
    assert.equal(parsed.format, 'sitemapindex');
    assert.deepEqual(parsed.sitemaps, [
      'https://example.com/sitemap-posts.xml.gz',
      'https://example.com/sitemap-pages.xml',
    ]);
    assert.deepEqual(parsed.urls, []);
  });

  test('gzip is recognised by its magic bytes, whatever the URL says', () => {
    const parsed = parseSitemap(zlib.gzipSync(URLSET), 'https://example.com/sitemap');
    assert.equal(parsed.format, 'urlset');
    assert.equal(parsed.urls.length, 3);
    const index = parseSitemap(zlib.gzipSync(INDEX), 'https://example.com/index.xml.gz');
    assert.equal(index.sitemaps.length, 2);
  });

  test('a corrupt gzip is reported, not thrown', () => {
    const bad = Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0]), Buffer.alloc(40, 7)]);
    const parsed = parseSitemap(bad, SITEMAP_URL);
    assert.equal(parsed.format, 'invalid');
    assert.match(parsed.error ?? '', /gzip/);
  });

  test('plain text: one absolute URL per line, other lines ignored', () => {
    const parsed = parseSitemap(
      '\uFEFFhttps://example.com/a\r\n  http://example.com/b  \n\n# comment\nnot a url\n/relative\nhttps://example.com/c d\n',
      'https://example.com/sitemap.txt',
    );
    assert.equal(parsed.format, 'text');
    assert.deepEqual(
      parsed.urls.map((u) => u.loc),
      ['https://example.com/a', 'http://example.com/b'],
    );
  });

  test('a namespace prefix on the sitemap tags is followed', () => {
    const xml =
      '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://example.com/p</sm:loc></sm:url></sm:urlset>';
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL).urls, [{ loc: 'https://example.com/p' }]);
  });

  test('XML that is no sitemap is invalid', () => {
    const parsed = parseSitemap('<html><body>oops</body></html>', SITEMAP_URL);
    assert.equal(parsed.format, 'invalid');
    assert.deepEqual(parsed.urls, []);
  });

  test(`stops at ${MAX_SITEMAP_ENTRIES} entries and says so`, () => {
    const entries = Array.from(
      { length: MAX_SITEMAP_ENTRIES + 5 },
      (_, i) => `<url><loc>https://example.com/p${i}</loc></url>`,
    );
    const parsed = parseSitemap(`<urlset>${entries.join('')}</urlset>`, SITEMAP_URL);
    assert.equal(parsed.urls.length, MAX_SITEMAP_ENTRIES);
    assert.equal(parsed.truncated, true);
    assert.equal(parsed.urls.at(-1)?.loc, `https://example.com/p${MAX_SITEMAP_ENTRIES - 1}`);
  });

  test('a gzip that inflates past 50 MB is cut at 50 MB', () => {
    const head = Buffer.from('https://example.com/first\n');
    const bomb = zlib.gzipSync(Buffer.concat([head, Buffer.alloc(53_000_000, 0x20)]));
    const parsed = parseSitemap(bomb, 'https://example.com/urls.txt.gz');
    assert.equal(parsed.format, 'text');
    assert.equal(parsed.truncated, true);
    assert.deepEqual(parsed.urls, [{ loc: 'https://example.com/first' }]);
    const small = parseSitemap(
      zlib.gzipSync(Buffer.concat([head, Buffer.alloc(1_000, 0x20)])),
      'https://example.com/u.gz',
    );
    assert.equal(small.truncated, false);
  });

  // A hostile or broken file must cost time linear in its size: a reader that scans each unclosed <url> tag
  // to the end of the file for its end tag is quadratic.
  test('unclosed tags: each entry ends at the next one, and the file is read in one pass', () => {
    const count = 20_000;
    const unclosed = Array.from({ length: count }, (_, i) => `<url><loc>https://example.com/p${i}</loc>`);
    const xml = `<urlset>${unclosed.join('')}<url><loc>https://example.com/last</loc></url></urlset>`;
    assert.ok(xml.length > 640_000);
    const parsed = parseSitemap(xml, SITEMAP_URL);
    assert.equal(parsed.format, 'urlset');
    assert.equal(parsed.urls.length, count + 1);
    assert.deepEqual(parsed.urls[0], { loc: 'https://example.com/p0' });
    assert.deepEqual(parsed.urls[count - 1], { loc: `https://example.com/p${count - 1}` });
    assert.deepEqual(parsed.urls[count], { loc: 'https://example.com/last' });
  });

  test('unclosed tags of every kind: nothing is invented, what can be read is read', () => {
    const bare = parseSitemap(`<urlset>${'<url>'.repeat(130_000)}`, SITEMAP_URL);
    assert.equal(bare.format, 'urlset');
    assert.deepEqual(bare.urls, []);
    // a <loc> left open runs to its entry's end: the next <url>
    const openLoc = parseSitemap(
      `<urlset>${'<url><loc>https://example.com/a<lastmod>2024-01-01'.repeat(10_000)}</urlset>`,
      SITEMAP_URL,
    );
    assert.equal(openLoc.urls.length, 10_000);
    assert.deepEqual(openLoc.urls[9_999], { loc: 'https://example.com/a', lastmod: '2024-01-01' });
    // an unterminated CDATA section is text to the end of the file: one (odd) relative location
    const openCdata = parseSitemap(`<urlset><url><loc><![CDATA[${'<url>'.repeat(100_000)}`, SITEMAP_URL);
    assert.deepEqual(
      openCdata.urls.map((url) => url.loc),
      [`https://example.com/${'%3Curl%3E'.repeat(100_000)}`],
    );
    const comments = parseSitemap(
      `${'<!--'.repeat(100_000)}<urlset><url><loc>https://example.com/</loc>`,
      SITEMAP_URL,
    );
    assert.equal(comments.format, 'invalid');
    const instructions = parseSitemap(
      `${'<?a?>'.repeat(100_000)}<urlset><url><loc>https://example.com/</loc>`,
      SITEMAP_URL,
    );
    assert.deepEqual(instructions.urls, [{ loc: 'https://example.com/' }]);
  });

  test('entities: the XML ones and character references decoded, others kept', () => {
    const xml =
      '<urlset><url><loc>https://example.com/a?x=1&amp;y=&#50;&#x33;&lt;&nbsp;</loc><lastmod> 2024 </lastmod><priority></priority></url></urlset>';
    assert.deepEqual(parseSitemap(xml, SITEMAP_URL).urls, [
      { loc: 'https://example.com/a?x=1&y=23%3C&nbsp;', lastmod: '2024' },
    ]);
  });

  test('a root that is not the first element, or of another namespace, is no sitemap', () => {
    assert.equal(parseSitemap('<rss><urlset></urlset></rss>', SITEMAP_URL).format, 'invalid');
    assert.equal(parseSitemap('<!-- only a comment -->', SITEMAP_URL).format, 'invalid');
    const other = parseSitemap(
      '<urlset xmlns:x="y"><x:url><x:loc>https://example.com/x</x:loc></x:url><URL><LOC>https://example.com/u</LOC></URL></urlset>',
      SITEMAP_URL,
    );
    assert.deepEqual(other.urls, [{ loc: 'https://example.com/u' }]);
  });
});
