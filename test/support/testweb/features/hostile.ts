// Pages whose content a database refuses as it comes, which a crawler must store anyway: NUL characters in
// the title, an anchor and the main text; lone surrogates (a UTF-16 page with an unpaired code unit, which
// iconv-lite decodes as is); a link of 12 KB and an image URL of 8 KB, longer than a btree key can be, beside
// ordinary ones, and a redirect to the 12 KB URL. Each page links a leaf, which a correct crawl reaches; the
// long URLs are never requested.

import type { BuildContext, FeatureModule, HostSite, Site } from '../site.js';

/** URLs longer than this are not crawled (the crawler's cap, and the ground truth's maxUrlBytes default). */
export const HOSTILE_LONG_LINK = `/hostile/long.html?q=${'x'.repeat(12_000)}`;
export const HOSTILE_LONG_IMAGE = `/hostile/long.png?q=${'y'.repeat(8_000)}`;

/** Enough words for a main-content extractor to find a main block. */
const FILLER =
  'The crawler reads every page it is given and keeps its title, its links and its text, whatever odd ' +
  'characters the author left in them, because one bad byte must never lose a whole page of good words. ';

function page(title: string, anchor: string, leaf: string, main: string, extra = ''): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${title}</title></head>
<body>
<nav><a href="/">home</a> <a href="${leaf}">${anchor}</a></nav>
${extra}
<main><h1>Hostile text</h1>
<p>${main} ${FILLER}</p>
<p>${FILLER}${FILLER}</p>
<p>${FILLER}</p>
</main>
</body></html>
`;
}

function addPage(
  site: Site,
  host: HostSite,
  target: string,
  body: Buffer,
  contentType: string,
  links: string[],
) {
  site.add(host, target, {
    kind: 'page',
    title: target,
    links: links.map((href) => ({ href })),
    body,
    contentType,
    textKey: target,
  });
  site.linkFromHome(host, target, `hostile ${target}`);
}

export const hostile: FeatureModule = {
  name: 'hostile',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    addPage(
      site,
      host,
      '/hostile/nul.html',
      Buffer.from(
        page(
          'Null\u0000 title',
          'anchor with a \u0000 null',
          '/hostile/after-nul.html',
          'Main text\u0000 with nulls\u0000.',
        ),
        'utf8',
      ),
      'text/html; charset=utf-8',
      ['/', '/hostile/after-nul.html'],
    );
    // UTF-16LE with no BOM, named by the header; a lone high surrogate in title, anchor and main text
    addPage(
      site,
      host,
      '/hostile/surrogates.html',
      Buffer.from(
        page(
          'Lone \ud800 surrogate',
          'anchor \udc00 lone',
          '/hostile/after-surrogates.html',
          'Main \ud800 text.',
        ).replace('charset="utf-8"', 'charset="utf-16le"'),
        'utf16le',
      ),
      'text/html; charset=utf-16le',
      ['/', '/hostile/after-surrogates.html'],
    );
    addPage(
      site,
      host,
      '/hostile/long-urls.html',
      Buffer.from(
        page(
          'Long URLs',
          'the ordinary link',
          '/hostile/after-long.html',
          'A page with very long URLs.',
          `<p><a href="${HOSTILE_LONG_LINK}">a link of 12 KB</a> <img src="${HOSTILE_LONG_IMAGE}" alt="huge">
<img src="/hostile/small.png" alt="small"></p>`,
        ),
        'utf8',
      ),
      'text/html; charset=utf-8',
      ['/', '/hostile/after-long.html', HOSTILE_LONG_LINK],
    );
    // a redirect to the 12 KB URL: refused, the page INVALID with the reason
    site.add(host, '/hostile/long-redirect', { kind: 'redirect', status: 301, location: HOSTILE_LONG_LINK });
    site.linkFromHome(host, '/hostile/long-redirect', 'a redirect to a 12 KB URL');
    site.leaf(host, '/hostile/after-nul.html', 'Linked by an anchor with a NUL');
    site.leaf(host, '/hostile/after-surrogates.html', 'Linked by an anchor with a lone surrogate');
    site.leaf(host, '/hostile/after-long.html', 'Linked beside a 12 KB link');
  },
};
