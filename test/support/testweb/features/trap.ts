// A spider trap: a calendar whose month pages /trap/YYYY/MM/ link to the previous and the next month, without
// end (years 1000–9999 are served). Entered at /trap/2026/11/ from host 0's home; each month is first found
// from its neighbour nearer the entry, so its depth is (entry depth) + |months from 2026-11|. Only a depth
// limit or a page cap stops a crawl here; groundTruth refuses maxDepth null with maxPages unset.

import type { BuildContext, FeatureModule, PageResource } from '../site.js';

export const TRAP_ENTRY = '/trap/2026/11/';

function month(year: number, monthNumber: number): string {
  return `/trap/${year}/${String(monthNumber).padStart(2, '0')}/`;
}

export const trap: FeatureModule = {
  name: 'trap',
  build({ site }: BuildContext): void {
    const host = site.host(0);
    host.dynamic.push((target): PageResource | undefined => {
      const match = /^\/trap\/(\d{4})\/(\d{2})\/$/.exec(target);
      if (match === null) return undefined;
      const year = Number(match[1]);
      const monthNumber = Number(match[2]);
      if (year < 1000 || monthNumber < 1 || monthNumber > 12) return undefined;
      const previous = monthNumber === 1 ? month(year - 1, 12) : month(year, monthNumber - 1);
      const next = monthNumber === 12 ? month(year + 1, 1) : month(year, monthNumber + 1);
      return {
        kind: 'page',
        title: `Calendar ${match[1]}-${match[2]}`,
        links: [
          { href: previous, text: 'previous month' },
          { href: next, text: 'next month' },
        ],
        textKey: target,
      };
    });
    site.linkFromHome(host, TRAP_ENTRY, 'calendar');
  },
};
