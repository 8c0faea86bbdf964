// A page that waits slowPageDelayMs (default 1500) before its headers: well under a 30 s fetch timeout, so a
// correct crawler fetches it and follows its link; a test sets a small delay to stay fast.

import type { BuildContext, FeatureModule } from '../site.js';

export const slow: FeatureModule = {
  name: 'slow',
  build({ site, opts }: BuildContext): void {
    const host = site.host(0);
    site.add(host, '/slow/page.html', {
      kind: 'page',
      title: 'A slow page',
      links: [{ href: '/slow/after.html', text: 'after the wait' }],
      delayMs: opts.slowPageDelayMs,
      textKey: 'slow/page',
    });
    site.leaf(host, '/slow/after.html', 'Reached through the slow page');
    site.linkFromHome(host, '/slow/page.html', 'slow');
  },
};
