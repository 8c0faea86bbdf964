// Byte-identical bodies under different URLs. Every member of a group is a child of the same hub (same
// depth) and carries the same absolute links, so whichever member a crawler fetches first, the same pages are
// discovered at the same depth; pages linked only from a group are still fetched exactly once.
//  - group "article": three URLs on host 0 (one with a query parameter that is not tracking)
//  - group "mirror": one URL on host 0 and one on host 2 (a mirror on another host), when there is one

import type { BuildContext, FeatureModule, LinkSpec } from '../site.js';

export const duplicates: FeatureModule = {
  name: 'duplicates',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    const mirrorHost = site.hosts.find(
      (other) => other.index !== 0 && !other.closed && other.robotsVariant !== 'agents',
    );
    const articleLinks: LinkSpec[] = [
      { href: `${host.origin}/dups/article-child.html`, text: 'child of the article' },
    ];
    const mirrorLinks: LinkSpec[] = [
      { href: `${host.origin}/dups/mirror-child.html`, text: 'child of the mirror' },
    ];
    const member = (target: string, group: string, links: LinkSpec[], onHost = host) => {
      site.add(onHost, target, {
        kind: 'page',
        title: `Duplicate ${group}`,
        links,
        duplicateGroup: group,
        textKey: `dups/${group}`,
      });
      return site.href(host, onHost, target);
    };
    const hubLinks = [
      member('/dups/article.html', 'article', articleLinks),
      member('/dups/article-copy.html', 'article', articleLinks),
      member('/dups/article.html?view=print', 'article', articleLinks),
      member('/dups/mirror.html', 'mirror', mirrorLinks),
      member('/mirror/dups/mirror.html', 'mirror', mirrorLinks, mirrorHost ?? host),
    ].map((href) => ({ href, text: href }));
    site.leaf(host, '/dups/article-child.html', 'Only linked from the article duplicates');
    site.leaf(host, '/dups/mirror-child.html', 'Only linked from the mirror duplicates');
    site.leaf(host, '/dups/', 'Duplicates', hubLinks);
    site.linkFromHome(host, '/dups/', 'duplicates');
  },
};
