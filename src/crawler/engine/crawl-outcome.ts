// How a crawl that ran out of work ends. A crawl none of whose seeds could be reached (the SSRF guard refused
// the host, DNS, a refused connection, robots.txt unreachable so nothing may be fetched) failed, and says why
// for each seed; one that fetched nothing for another reason (robots.txt said no, say) completed, with
// warnings saying why, so an empty result is never mistaken for a successful one.

/** A seed's page as the crawl left it. */
export interface SeedPage {
  url: string;
  type: string;
  /** The HTTP status of its response; null when it got none. */
  status: number | null;
  error: string | null;
}

/** What the end of a crawl is judged on: its seeds' pages, and whether any page of it got a response. */
export interface SeedReport {
  seeds: SeedPage[];
  anyResponse: boolean;
}

/** RFC 9457 problem details of a crawl that failed, with the reason for each seed. */
export interface CrawlProblem {
  type: string;
  title: string;
  detail: string;
  seeds: Array<{ url: string; reason: string }>;
}

export interface CrawlEnding {
  status: 'completed' | 'failed';
  /** A failed crawl's one-line reason (its problem's detail); null when it completed. */
  error: string | null;
  problem: CrawlProblem | null;
  /** Why a completed crawl fetched nothing, one line per seed; empty when it fetched something. */
  warnings: string[];
}

export const SEEDS_UNREACHABLE = 'urn:trawl:problem:seeds-unreachable';

/** Errors of pages given up for faults of our own, not of the seed's host: never "the seed is unreachable". */
const OWN_FAULTS = new Set(['internal', 'worker-lost']);

/** Why a seed could not be reached at all, or null when it was reached or refused for another reason. */
function unreachableBecause(seed: SeedPage): string | null {
  if (seed.status !== null || seed.error === null) return null;
  if (seed.type === 'INVALID' && !OWN_FAULTS.has(seed.error)) return seed.error;
  // RFC 9309 §2.3.1.3-4: robots.txt unreachable (or a 5xx) means nothing of the host may be fetched
  if (seed.type === 'DISALLOWED' && seed.error.startsWith('robots.txt ') && seed.error.includes('RFC 9309')) {
    return seed.error;
  }
  return null;
}

/** Why a seed yielded no page, for a warning. */
function emptyBecause(seed: SeedPage): string {
  if (seed.type === 'FRONTIER') return 'never fetched';
  return seed.error ?? `recorded ${seed.type} without a response`;
}

export function crawlEnding(report: SeedReport): CrawlEnding {
  const completed: CrawlEnding = { status: 'completed', error: null, problem: null, warnings: [] };
  if (report.anyResponse || report.seeds.length === 0) return completed;
  const reasons = report.seeds.map((seed) => ({ url: seed.url, reason: unreachableBecause(seed) }));
  if (reasons.every((seed) => seed.reason !== null)) {
    const seeds = reasons.map(({ url, reason }) => ({ url, reason: reason ?? '' }));
    const detail = `no seed could be fetched: ${seeds.map(({ url, reason }) => `${url} (${reason})`).join('; ')}`;
    return {
      status: 'failed',
      error: detail,
      problem: { type: SEEDS_UNREACHABLE, title: 'No seed could be fetched', detail, seeds },
      warnings: [],
    };
  }
  return {
    ...completed,
    warnings: report.seeds.map((seed) => `nothing fetched from seed ${seed.url}: ${emptyBecause(seed)}`),
  };
}
