// robots.txt variants, one per host by index (RFC 9309), and probe pages on each host that sit on either side
// of its rules. Host k gets VARIANTS[k]; hosts past the fifth repeat the 2xx/4xx variants, so there is only
// ever one host whose robots.txt answers 5xx (all of its pages are disallowed and its pages never get links
// of their own: plain.ts keeps them leaves). With the feature off every robots.txt is 404 (allow all), except
// that hosts with sitemaps then serve one holding only their Sitemap lines.

import type { BuildContext, FeatureModule, HostSite } from '../site.js';

type Variant = 'standard' | 'agents' | 'missing' | 'unavailable' | 'empty';

const VARIANTS: Variant[] = ['standard', 'agents', 'missing', 'unavailable', 'empty'];
const REPEATED: Variant[] = ['standard', 'agents', 'empty', 'missing'];

export function robotsVariant(index: number): Variant {
  return index < VARIANTS.length ? VARIANTS[index]! : REPEATED[(index - VARIANTS.length) % REPEATED.length]!;
}

/** Sitemap files named in robots.txt, by host index (features/sitemaps.ts serves them). */
export const SITEMAP_ENTRY: Record<number, string> = { 0: '/sitemap.xml', 1: '/sitemap_index.xml' };

function robotsBody(variant: Variant, crawlDelaySeconds: number): string {
  switch (variant) {
    case 'standard':
      // Longest match: the Allow (22 octets) beats the Disallow /private/ (9); "$" anchors .php at the end;
      // "*" matches across segments.
      return [
        '# test web: standard rules',
        'User-agent: *',
        'Disallow: /private/',
        'Allow: /private/public-*.html',
        'Disallow: /*.php$',
        'Disallow: /*?sort=',
        '',
      ].join('\n');
    case 'agents':
      // A group for trawl replaces the * group entirely (RFC 9309 §2.2.1): /members/ is open to trawl.
      return [
        'User-agent: otherbot',
        'Disallow: /',
        '',
        'User-agent: *',
        'Disallow: /members/',
        'Crawl-delay: 30',
        '',
        'User-Agent: Trawl',
        'Disallow: /drafts/',
        'Allow: /drafts/published/',
        `Crawl-delay: ${crawlDelaySeconds}`,
        '',
      ].join('\n');
    case 'empty':
      return '';
    default:
      return '';
  }
}

/** Probe pages: [target, allowed for trawl?] — the ground truth reads the rules, this only documents intent. */
const PROBES: Record<Variant, Array<[string, boolean]>> = {
  standard: [
    ['/private/secret.html', false],
    ['/private/public-report.html', true],
    ['/catalog/list.php', false],
    ['/catalog/list.php?page=2', true],
    ['/catalog/items?sort=price', false],
    ['/catalog/items?page=2', true],
  ],
  agents: [
    ['/members/area.html', true],
    ['/drafts/plan.html', false],
    ['/drafts/published/plan.html', true],
    ['/drafts', true],
  ],
  missing: [['/anything/open.html', true]],
  unavailable: [['/anything/closed.html', false]],
  empty: [['/anything/empty-rules.html', true]],
};

export const robots: FeatureModule & { prepare(ctx: BuildContext): void } = {
  name: 'robots',
  prepare({ site, opts, enabled }: BuildContext): void {
    for (const host of site.hosts) {
      const sitemapLine =
        enabled('sitemaps') && SITEMAP_ENTRY[host.index] !== undefined
          ? `Sitemap: ${host.origin}${SITEMAP_ENTRY[host.index]}\n`
          : '';
      if (!enabled('robots')) {
        if (sitemapLine === '') site.setRobots(host, 404, '', 'none');
        else site.setRobots(host, 200, sitemapLine, 'sitemap-only');
        continue;
      }
      const variant = robotsVariant(host.index);
      if (variant === 'missing') site.setRobots(host, 404, '', variant);
      else if (variant === 'unavailable') site.setRobots(host, 500, '', variant);
      else site.setRobots(host, 200, `${robotsBody(variant, opts.crawlDelaySeconds)}${sitemapLine}`, variant);
      host.closed = variant === 'unavailable';
    }
  },
  build({ site, enabled }: BuildContext): void {
    if (!enabled('robots')) return;
    for (const host of site.hosts) {
      const variant = host.robotsVariant as Variant;
      addProbes(site, host, variant);
    }
  },
};

function addProbes(site: BuildContext['site'], host: HostSite, variant: Variant): void {
  const hub = '/robots-probes.html';
  const probes = PROBES[variant];
  site.leaf(
    host,
    hub,
    `robots.txt probes (${variant})`,
    probes.map(([target]) => ({ href: target, text: target })),
  );
  for (const [target] of probes) site.leaf(host, target, `Probe ${target}`);
  // The 5xx host's home is never fetched: link its hub from host 0's home so the hub is at least discovered.
  const from = host.closed ? site.host(0) : host;
  site.page(from, '/').links.push({ href: site.href(from, host, hub), text: 'robots probes' });
}
