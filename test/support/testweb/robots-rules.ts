// robots.txt as RFC 9309 defines it, for the ground truth and the request counters: groups by product token
// (matching groups merged, else the `*` groups), longest-match precedence with Allow winning ties, `*`
// wildcards and `$` end anchors; 4xx means allow everything, 5xx means disallow everything (§2.3.1.3–4).

interface Rule {
  allow: boolean;
  pattern: string;
  regex: RegExp;
}

interface Group {
  agents: string[];
  rules: Rule[];
  crawlDelaySeconds: number | null;
}

function compile(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`);
}

export class RobotsRules {
  readonly sitemaps: string[] = [];
  private readonly groups: Group[] = [];

  /** status: the HTTP status robots.txt answered with; body: its text when 2xx. */
  constructor(
    readonly status: number,
    body: string,
  ) {
    if (status < 200 || status >= 300) return;
    let current: Group | null = null;
    let lastWasAgent = false;
    for (const rawLine of body.split(/\r?\n/)) {
      const line = rawLine.replace(/#.*/, '').trim();
      const colon = line.indexOf(':');
      if (colon === -1) continue;
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === 'sitemap') {
        this.sitemaps.push(value);
        continue;
      }
      if (key === 'user-agent') {
        if (current === null || !lastWasAgent) {
          current = { agents: [], rules: [], crawlDelaySeconds: null };
          this.groups.push(current);
        }
        current.agents.push(value.toLowerCase());
        lastWasAgent = true;
        continue;
      }
      lastWasAgent = false;
      if (current === null) continue; // rules before any User-agent line belong to no group
      if ((key === 'allow' || key === 'disallow') && value !== '') {
        current.rules.push({ allow: key === 'allow', pattern: value, regex: compile(value) });
      } else if (key === 'crawl-delay') {
        const seconds = Number(value);
        if (Number.isFinite(seconds)) current.crawlDelaySeconds = seconds;
      }
    }
  }

  private groupsFor(userAgent: string): Group[] {
    const token = userAgent.toLowerCase();
    const own = this.groups.filter((group) => group.agents.includes(token));
    return own.length > 0 ? own : this.groups.filter((group) => group.agents.includes('*'));
  }

  /** target: path and query of the URL. */
  isAllowed(target: string, userAgent = 'trawl'): boolean {
    if (target === '/robots.txt') return true;
    if (this.status >= 500) return false;
    if (this.status < 200 || this.status >= 300) return true;
    let best: Rule | null = null;
    for (const group of this.groupsFor(userAgent)) {
      for (const rule of group.rules) {
        if (!rule.regex.test(target)) continue;
        if (
          best === null ||
          rule.pattern.length > best.pattern.length ||
          (rule.pattern.length === best.pattern.length && rule.allow)
        ) {
          best = rule;
        }
      }
    }
    return best === null || best.allow;
  }

  crawlDelaySeconds(userAgent = 'trawl'): number | null {
    const delays = this.groupsFor(userAgent)
      .map((group) => group.crawlDelaySeconds)
      .filter((delay): delay is number => delay !== null);
    return delays.length > 0 ? Math.max(...delays) : null;
  }
}
