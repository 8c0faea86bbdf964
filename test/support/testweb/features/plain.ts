// Plain pages: a spanning tree over all hosts (host 0's home is the root, the other homes its children), each
// page linking to its tree children plus pages that are certainly discovered before it is fetched (its
// ancestors and their children). So every page is first discovered from its tree parent, whatever order a
// concurrent crawler fetches in, and its BFS depth is its tree depth: the ground truth stays exact.

import type { Rng } from '../random.js';
import type { BuildContext, FeatureModule, HostSite, LinkSpec } from '../site.js';

const SECTIONS = ['articles', 'news', 'guides', 'notes', 'reviews', 'places'];

interface Node {
  host: HostSite;
  target: string;
  parent: number;
  children: number[];
  links: LinkSpec[];
}

export const plainPages: FeatureModule = {
  name: 'plain',
  build({ site, opts }: BuildContext): void {
    const rng = site.rng('plain');
    const nodes: Node[] = [];
    const pools = site.hosts.map((host) => {
      const targets: string[] = [];
      for (let n = 1; n < opts.pagesPerHost; n++) {
        targets.push(`/${rng.pick(SECTIONS)}/${rng.pick(rng.words(3))}-${n}.html`);
      }
      return { host, targets, next: 0 };
    });
    const place = (host: HostSite, target: string, parent: number): number => {
      nodes.push({ host, target, parent, children: [], links: [] });
      const index = nodes.length - 1;
      if (parent >= 0) nodes[parent]!.children.push(index);
      return index;
    };

    const open: number[] = [];
    for (const host of site.hosts) {
      const index = place(host, '/', host.index === 0 ? -1 : 0);
      if (!host.closed) open.push(index);
    }
    const childrenPerPage = Math.max(2, Math.ceil(opts.linksPerPage / 2));
    const remaining = () => pools.filter((pool) => pool.next < pool.targets.length);
    let left = remaining();
    while (left.length > 0) {
      const parent = open.length > 0 ? open.shift()! : rng.int(nodes.length);
      for (let k = 0; k < childrenPerPage && left.length > 0; k++) {
        const own = pools[nodes[parent]!.host.index]!;
        const pool = own.next < own.targets.length && rng.chance(0.8) ? own : rng.pick(left);
        const index = place(pool.host, pool.targets[pool.next++]!, parent);
        if (!pool.host.closed) open.push(index);
        left = remaining();
      }
    }

    const chrome = opts.profile === 'realistic' ? realisticChrome(nodes, site.rng('plain', 'chrome')) : null;
    for (const [index, node] of nodes.entries()) {
      for (const child of node.children) {
        node.links.push(linkTo(node, nodes[child]!));
      }
      // Extra links only to pages discovered before this one can be fetched: ancestors and their children.
      const candidates = new Set<number>();
      for (let ancestor = node.parent; ancestor >= 0; ancestor = nodes[ancestor]!.parent) {
        candidates.add(ancestor);
        for (const sibling of nodes[ancestor]!.children) candidates.add(sibling);
      }
      candidates.delete(index);
      const pool = [...candidates];
      const extra = Math.max(1, opts.linksPerPage - node.children.length);
      for (let k = 0; k < extra && pool.length > 0; k++) {
        const [chosen] = pool.splice(rng.int(pool.length), 1);
        node.links.push(linkTo(node, nodes[chosen!]!));
      }
      const title = node.target === '/' ? `Home of host ${node.host.index}` : titleOf(node.target);
      site.add(node.host, node.target, {
        kind: 'page',
        title,
        links: node.links,
        textKey: `${node.host.index}${node.target}`,
        ...(chrome ? { chrome: chrome(node) } : {}),
      });
      if (node.parent >= 0) {
        const parent = nodes[node.parent]!;
        site.parentOf.set(`${node.host.origin}${node.target}`, `${parent.host.origin}${parent.target}`);
      }
    }

    /**
     * The realistic profile's furniture, as real sites have it: every page of a host repeats the host's menu
     * (its home and its first 20–60 pages) and footer (a dozen more pages and the other hosts' homes), and a
     * related box of 6–14 pages of the same host. All of them exist, so reachability does not change.
     */
    function realisticChrome(all: Node[], random: Rng) {
      const byHost = new Map<HostSite, Node[]>();
      for (const node of all) byHost.set(node.host, [...(byHost.get(node.host) ?? []), node]);
      const homes = all.filter((node) => node.target === '/');
      const furniture = new Map<HostSite, { menu: Node[]; footer: Node[] }>();
      for (const [host, own] of byHost) {
        const menuSize = 20 + random.int(41);
        furniture.set(host, {
          menu: own.slice(0, menuSize),
          footer: [
            ...own.slice(menuSize, menuSize + 12),
            ...homes.filter((home) => home.host !== host).slice(0, 4),
          ],
        });
      }
      return (node: Node) => {
        const { menu, footer } = furniture.get(node.host)!;
        const own = byHost.get(node.host)!;
        const related = Array.from({ length: 6 + random.int(9) }, () => own[random.int(own.length)]!);
        return {
          menu: menu.map((to) => linkTo(node, to)),
          related: related.map((to) => linkTo(node, to)),
          footer: footer.map((to) => linkTo(node, to)),
        };
      };
    }

    function linkTo(from: Node, to: Node): LinkSpec {
      return {
        href: site.href(from.host, to.host, to.target),
        text: to.target === '/' ? 'home' : titleOf(to.target),
      };
    }
  },
};

function titleOf(target: string): string {
  const slug = target
    .split('/')
    .pop()!
    .replace(/-\d+\.html$/, '');
  return `${slug.charAt(0).toUpperCase()}${slug.slice(1)} (${target})`;
}
