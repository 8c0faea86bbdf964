// An HTML page of oversizePageBytes (default 1 MiB; ask for > 10 MiB to pass the crawler's default cap). Its
// first link sits in the first kilobytes, its last one after the padding: a crawler that truncates at the cap
// finds only the first, one that rejects the page finds neither (groundTruth's `oversize` option).

import type { BuildContext, FeatureModule } from '../site.js';

export const oversize: FeatureModule = {
  name: 'oversize',
  build({ site, opts }: BuildContext): void {
    const host = site.host(0);
    site.add(host, '/big/page.html', {
      kind: 'page',
      title: 'A very long page',
      links: [{ href: '/big/head.html', text: 'near the top' }],
      tailLinks: [{ href: '/big/tail.html', text: 'at the very end' }],
      padToBytes: opts.oversizePageBytes,
      textKey: 'big/page',
    });
    site.leaf(host, '/big/head.html', 'Linked near the top of the long page');
    site.leaf(host, '/big/tail.html', 'Linked at the end of the long page');
    site.linkFromHome(host, '/big/page.html', 'long page');
  },
};
