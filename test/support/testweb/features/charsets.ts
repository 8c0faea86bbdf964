// Pages in legacy encodings with known words: ISO-8859-1 declared only in the Content-Type header, and
// windows-1251 declared only in a <meta http-equiv> (the header says text/html without a charset). A crawler
// that decodes as UTF-8 gets mojibake instead of the words listed in the ground truth.

import iconv from 'iconv-lite';
import type { BuildContext, FeatureModule } from '../site.js';

const LATIN1_WORDS = ['café', 'naïve', 'müller', 'straße', 'façade', 'größe'];
const CP1251_WORDS = ['привет', 'поиск', 'столица', 'библиотека', 'журнал'];

function html(charsetMeta: string, title: string, words: string[], next: string): string {
  return [
    '<!DOCTYPE html>',
    '<html>',
    `<head>${charsetMeta}<title>${title}</title></head>`,
    '<body>',
    `<h1>${title}</h1>`,
    `<p>${words.join(' ')}.</p>`,
    `<p><a href="${next}">${words[0]}</a></p>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export const charsets: FeatureModule = {
  name: 'charsets',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    site.add(host, '/charset/latin1.html', {
      kind: 'page',
      title: 'Latin-1',
      links: [{ href: '/charset/after-latin1.html' }],
      words: LATIN1_WORDS,
      body: iconv.encode(html('', 'Café Müller', LATIN1_WORDS, '/charset/after-latin1.html'), 'latin1'),
      contentType: 'text/html; charset=ISO-8859-1',
      textKey: 'charset/latin1',
    });
    site.add(host, '/charset/cp1251.html', {
      kind: 'page',
      title: 'windows-1251',
      links: [{ href: '/charset/after-cp1251.html' }],
      words: CP1251_WORDS,
      body: iconv.encode(
        html(
          '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">',
          'Привет из библиотеки',
          CP1251_WORDS,
          '/charset/after-cp1251.html',
        ),
        'win1251',
      ),
      contentType: 'text/html',
      textKey: 'charset/cp1251',
    });
    site.leaf(host, '/charset/after-latin1.html', 'After the Latin-1 page');
    site.leaf(host, '/charset/after-cp1251.html', 'After the windows-1251 page');
    site.leaf(host, '/charset/', 'Charsets', [
      { href: '/charset/latin1.html', text: 'latin1' },
      { href: '/charset/cp1251.html', text: 'cp1251' },
    ]);
    site.linkFromHome(host, '/charset/', 'charsets');
  },
};
