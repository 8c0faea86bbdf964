// Links that differ in spelling but not in identity, all on /canon/ of host 0. Each target is linked only in
// a variant spelling, so a crawler that does not canonicalize requests a URL outside the ground truth (the
// server answers the variant too, with the same page), and a repeated canonical URL shows in
// countRepeatedRequests:
//  t1  "#section-2" fragment (and a plain link too: both are one URL)
//  t2  "sub/./../t2.html" dot segments
//  t3  "HTTP://0X7F.0.0.2:PORT/…" upper-case scheme and a hex IPv4 host: IP hosts have no letters, so this
//      is the test web's upper-case host
//  t4  the default port: "http://127.0.0.2:80/…" when the web runs on port 80, else the port with leading
//      zeros ("0041234"), which also parses to the same port
//  t5  "?utm_source=…&utm_medium=…" tracking parameters removed, leaving no query
//  t6  "?id=7&utm_campaign=x&fbclid=abc&lang=en" → "?id=7&lang=en" (order of the rest kept)
//  t7  "?b=2&a=1" and "?a=1&b=2": query order is kept, so two pages (bodies differ)
//  t8  "t%38.html": percent-encoded unreserved character decoded
// Plus links that are not crawled: mailto:, javascript:, a bare "#top", and one to 127.0.0.1 (out of scope).

import type { BuildContext, FeatureModule, LinkSpec } from '../site.js';

export const canonicalization: FeatureModule = {
  name: 'canonicalization',
  build({ site, opts }: BuildContext): void {
    const host = site.host(0);
    const [, , , last] = host.address.split('.');
    const port = new URL(host.origin).port;
    const links: LinkSpec[] = [
      { href: '/canon/t1.html#section-2' },
      { href: '/canon/t1.html' },
      { href: 'sub/./../t2.html' },
      { href: `HTTP://0X7F.0.0.${last}:${port}/canon/t3.html` },
      {
        href:
          opts.port === 80
            ? `http://${host.address}:80/canon/t4.html`
            : `http://${host.address}:00${port}/canon/t4.html`,
      },
      { href: '/canon/t5.html?utm_source=newsletter&utm_medium=email' },
      { href: '/canon/t6.html?id=7&utm_campaign=x&fbclid=abc&lang=en' },
      { href: '/canon/t7.html?b=2&a=1' },
      { href: '/canon/t7.html?a=1&b=2' },
      { href: '/canon/t%38.html' },
      { href: 'mailto:someone@example.com' },
      { href: 'javascript:void(0)' },
      { href: '#top' },
      { href: 'http://127.0.0.1:9/outside.html' },
    ];
    for (const target of ['t1', 't2', 't3', 't4', 't5', 't8']) {
      site.leaf(host, `/canon/${target}.html`, `Canonical target ${target}`);
    }
    site.leaf(host, '/canon/t6.html?id=7&lang=en', 'Canonical target t6');
    site.leaf(host, '/canon/t7.html?b=2&a=1', 'Canonical target t7, b before a');
    site.leaf(host, '/canon/t7.html?a=1&b=2', 'Canonical target t7, a before b');
    site.leaf(host, '/canon/', 'Canonicalization', links);
    site.linkFromHome(host, '/canon/', 'canonicalization');
  },
};
