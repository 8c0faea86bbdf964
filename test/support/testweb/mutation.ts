// A site changing between two crawls, for recrawl tests and the recrawl benchmark: a share of the plain pages
// edited (a new paragraph: a new body, ETag and Last-Modified), a share removed (404 or 410), and new pages
// added, each linked from an edited page (a new link is an edit too, so a recrawl sees it in a body it reads).
// The mutation knows the change class a recrawl must give every page: its ground truth.

import type { LinkSpec, PageResource, Resource, Site } from './site.js';
import type { ExpectedChange, Mutation, MutationOptions } from './types.js';

export function mutateSite(site: Site, options: MutationOptions): Mutation {
  const rng = site.rng('mutate', options.seed ?? 1);
  const candidates: Array<{ host: Site['hosts'][number]; target: string; page: PageResource }> = [];
  for (const host of site.hosts) {
    for (const [target, resource] of host.resources) {
      if (target === '/' || !isPlainPage(resource) || !host.rules.isAllowed(target, 'trawl')) continue;
      candidates.push({ host, target, page: resource });
    }
  }
  // a seeded shuffle (Fisher–Yates): the same seed changes the same pages
  for (let index = candidates.length - 1; index > 0; index--) {
    const other = rng.int(index + 1);
    [candidates[index], candidates[other]] = [candidates[other]!, candidates[index]!];
  }
  const share = (fraction: number) => Math.round(candidates.length * Math.min(1, Math.max(0, fraction)));
  const editCount = share(options.edit);
  const removeCount = Math.min(share(options.remove), candidates.length - editCount);
  const addCount = editCount === 0 ? 0 : share(options.add);

  const classes = new Map<string, ExpectedChange>();
  const url = (host: Site['hosts'][number], target: string) => `${host.origin}${target}`;
  const edited = candidates.slice(0, editCount).map(({ host, target, page }) => {
    const revised: PageResource = {
      ...page,
      links: [...page.links],
      update: `Update: ${rng.words(30).join(' ')}.`,
      revision: (page.revision ?? 0) + 1,
    };
    host.resources.set(target, revised);
    classes.set(url(host, target), 'changed');
    return { host, page: revised };
  });
  candidates.slice(editCount, editCount + removeCount).forEach(({ host, target }, index) => {
    host.resources.set(target, { kind: 'status', status: index % 2 === 0 ? 404 : 410 });
    classes.set(url(host, target), 'gone');
  });
  for (let index = 0; index < addCount; index++) {
    const from = edited[index % edited.length]!;
    const target = `/added/page-${index}.html`;
    if (from.host.resources.has(target) || !from.host.rules.isAllowed(target, 'trawl')) continue;
    const title = `Added ${rng.words(3).join(' ')}`;
    const added: PageResource = {
      kind: 'page',
      title,
      links: [],
      textKey: `added/${from.host.index}${target}`,
      ...(from.page.chrome ? { chrome: from.page.chrome } : {}),
    };
    from.host.resources.set(target, added);
    const link: LinkSpec = { href: target, text: title };
    from.page.links.push(link);
    classes.set(url(from.host, target), 'new');
  }
  const byClass = (change: ExpectedChange) =>
    [...classes].filter(([, value]) => value === change).map(([key]) => key);
  return {
    edited: byClass('changed'),
    removed: byClass('gone'),
    added: byClass('new'),
    expected(pageUrl: string): ExpectedChange | null {
      const parsed = new URL(pageUrl);
      const host = site.hostOfOrigin(parsed.origin);
      if (host === undefined) return null;
      const target = parsed.pathname + parsed.search;
      if (!host.rules.isAllowed(target, 'trawl')) return null;
      const known = classes.get(url(host, target));
      if (known !== undefined) return known;
      return isPlainPage(site.resolve(host, target)) ? 'unchanged' : null;
    },
  };
}

/** A page of the plain tree, served as generated: no hand-written body, delay, flakiness or twin. */
function isPlainPage(resource: Resource | undefined): resource is PageResource {
  return (
    resource?.kind === 'page' &&
    resource.body === undefined &&
    resource.delayMs === undefined &&
    resource.unavailableOnce !== true &&
    resource.duplicateGroup === undefined &&
    resource.padToBytes === undefined
  );
}
