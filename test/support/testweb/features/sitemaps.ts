// Sitemaps named in robots.txt (features/robots.ts writes the Sitemap lines): host 0 has a plain
// /sitemap.xml, host 1 a sitemap index naming a plain and a gzipped sitemap. They list "orphan" pages that no
// link reaches, so only a crawler reading sitemaps fetches them. Orphans link only to home pages, which are
// discovered at depth ≤ 1 anyway, so reading sitemaps adds pages without changing any other page's depth.

import { gzipSync } from 'node:zlib';
import type { BuildContext, FeatureModule, HostSite } from '../site.js';

function urlset(urls: string[]): Buffer {
  const entries = urls.map((url) => `  <url><loc>${url}</loc><changefreq>weekly</changefreq></url>\n`);
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('')}</urlset>\n`,
  );
}

function sitemapIndex(urls: string[]): Buffer {
  const entries = urls.map((url) => `  <sitemap><loc>${url}</loc></sitemap>\n`);
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('')}</sitemapindex>\n`,
  );
}

function orphan(site: BuildContext['site'], host: HostSite, target: string): string {
  const root = site.host(0);
  site.leaf(host, target, `Orphan ${target}`, [
    { href: '/', text: 'home' },
    { href: site.href(host, root, '/'), text: 'root home' },
  ]);
  return `${host.origin}${target}`;
}

export const sitemaps: FeatureModule = {
  name: 'sitemaps',
  build({ site }: BuildContext): void {
    const first = site.host(0);
    const home = `${first.origin}/`;
    const plain = [
      home,
      orphan(site, first, '/orphans/first.html'),
      orphan(site, first, '/orphans/second.html'),
    ];
    site.add(first, '/sitemap.xml', {
      kind: 'file',
      contentType: 'application/xml',
      body: urlset(plain),
      auxiliary: true,
    });
    if (site.hosts.length < 2) return;
    const second = site.host(1);
    site.add(second, '/sitemap_index.xml', {
      kind: 'file',
      contentType: 'application/xml',
      body: sitemapIndex([`${second.origin}/sitemaps/pages.xml`, `${second.origin}/sitemaps/more.xml.gz`]),
      auxiliary: true,
    });
    site.add(second, '/sitemaps/pages.xml', {
      kind: 'file',
      contentType: 'application/xml',
      body: urlset([orphan(site, second, '/orphans/listed.html')]),
      auxiliary: true,
    });
    site.add(second, '/sitemaps/more.xml.gz', {
      kind: 'file',
      contentType: 'application/gzip',
      body: gzipSync(urlset([orphan(site, second, '/orphans/zipped.html')])),
      auxiliary: true,
    });
  },
};
