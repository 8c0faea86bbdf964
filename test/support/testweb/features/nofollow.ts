// nofollow, honoured by default (groundTruth's honourNofollow): rel="nofollow" and rel="external nofollow"
// links, and a page with <meta name="robots" content="noindex, nofollow"> whose link is not followed. The
// targets are linked nowhere else; one nofollow link points home, which is reached anyway.

import type { BuildContext, FeatureModule } from '../site.js';

export const nofollow: FeatureModule = {
  name: 'nofollow',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    site.leaf(host, '/nofollow/', 'Nofollow', [
      { href: '/nofollow/skipped.html', nofollow: true },
      { href: '/nofollow/skipped-too.html', nofollow: true, rel: 'external nofollow' },
      { href: '/', nofollow: true, text: 'home, nofollow' },
      { href: '/nofollow/meta.html' },
    ]);
    site.add(host, '/nofollow/meta.html', {
      kind: 'page',
      title: 'A page that asks not to be followed',
      links: [{ href: '/nofollow/behind-meta.html' }],
      metaNofollow: true,
      textKey: 'nofollow/meta',
    });
    site.leaf(host, '/nofollow/skipped.html', 'Behind a rel=nofollow link');
    site.leaf(host, '/nofollow/skipped-too.html', 'Behind a rel="external nofollow" link');
    site.leaf(host, '/nofollow/behind-meta.html', 'Behind a meta robots nofollow page');
    site.linkFromHome(host, '/nofollow/', 'nofollow');
  },
};
