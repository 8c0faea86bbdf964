// Error answers, reached from /errors/ on host 0: 404 (no resource), 410, 500, and a page that answers 503
// with Retry-After: 1 to its first request of a run and 200 afterwards (a crawler that retries gets HTML).

import type { BuildContext, FeatureModule } from '../site.js';

export const errors: FeatureModule = {
  name: 'errors',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    site.add(host, '/errors/gone.html', { kind: 'status', status: 410 });
    site.add(host, '/errors/broken.html', { kind: 'status', status: 500 });
    site.add(host, '/errors/flaky.html', {
      kind: 'page',
      title: 'Back after a 503',
      links: [{ href: '/errors/after-flaky.html', text: 'after the retry' }],
      unavailableOnce: true,
      textKey: 'errors/flaky',
    });
    site.leaf(host, '/errors/after-flaky.html', 'Reached through the page that first answered 503');
    site.leaf(
      host,
      '/errors/',
      'Errors',
      ['/errors/missing.html', '/errors/gone.html', '/errors/broken.html', '/errors/flaky.html'].map(
        (href) => ({
          href,
          text: href,
        }),
      ),
    );
    site.linkFromHome(host, '/errors/', 'errors');
  },
};
