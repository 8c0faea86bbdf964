// Redirects, all reached from /redirects/ on host 0. Targets are linked from nowhere else, so whether a target
// is requested depends only on the chain (never on crawl order):
//  - one hop of each status 301/302/307/308 (the 302 with a relative Location)
//  - a chain of exactly 5 hops (followed) and one of 6 (too many: the 6th Location is never requested)
//  - a loop a → b → a (INVALID after requesting a and b)
//  - a redirect to host 0's home, requested before anything else: the hop stops there (DUPLICATE)
//  - cross-host: to an allowed page of host 1, to a path host 1's robots.txt disallows for trawl, and to the
//    host whose robots.txt answers 5xx; the disallowed targets are never requested

import type { BuildContext, FeatureModule, HostSite, LinkSpec } from '../site.js';

export const redirects: FeatureModule = {
  name: 'redirects',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    const links: LinkSpec[] = [];
    const redirect = (from: string, status: 301 | 302 | 307 | 308, location: string) => {
      site.add(host, from, { kind: 'redirect', status, location });
    };
    const entry = (from: string) => links.push({ href: from, text: from });

    for (const status of [301, 302, 307, 308] as const) {
      const from = `/redirects/r${status}`;
      const target = `/redirects/r${status}-target.html`;
      redirect(from, status, status === 302 ? `r${status}-target.html` : target);
      site.leaf(host, target, `Reached through a ${status}`);
      entry(from);
    }

    const chain = (name: string, hops: number) => {
      const statuses = [301, 302, 307, 308] as const;
      for (let hop = 0; hop < hops; hop++) {
        const next = hop + 1 === hops ? `/redirects/${name}/end.html` : `/redirects/${name}/${hop + 1}`;
        redirect(`/redirects/${name}/${hop}`, statuses[hop % statuses.length]!, next);
      }
      site.leaf(host, `/redirects/${name}/end.html`, `End of ${name}`);
      entry(`/redirects/${name}/0`);
    };
    chain('chain5', 5);
    chain('chain6', 6);

    redirect('/redirects/loop-a', 302, '/redirects/loop-b');
    redirect('/redirects/loop-b', 302, '/redirects/loop-a');
    entry('/redirects/loop-a');

    redirect('/redirects/to-home', 301, '/');
    entry('/redirects/to-home');

    const crossHost = (name: string, to: HostSite, target: string) => {
      redirect(`/redirects/${name}`, 301, `${to.origin}${target}`);
      if (site.resolve(to, target) === undefined) site.leaf(to, target, `Moved here from host 0 (${name})`);
      entry(`/redirects/${name}`);
    };
    const agents = site.hosts.find((other) => other.robotsVariant === 'agents' && other.index !== 0);
    const unavailable = site.hosts.find((other) => other.robotsVariant === 'unavailable');
    const other = site.hosts[1];
    if (other !== undefined) crossHost('to-other-host', other, '/landing/from-host-0.html');
    if (agents !== undefined) crossHost('to-disallowed', agents, '/drafts/moved.html');
    if (unavailable !== undefined) crossHost('to-unavailable', unavailable, '/landing/moved.html');

    site.leaf(host, '/redirects/', 'Redirects', links);
    site.linkFromHome(host, '/redirects/', 'redirects');
  },
};
