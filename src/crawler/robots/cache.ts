// One robots.txt per origin and product token, fetched once and shared (docs/reference.md#politeness): concurrent asks
// for the same origin wait on one fetch. Keyed by the product token too, because a site may answer each
// crawler its own file and the group that applies depends on it (politeness.userAgent). Lifetime: an entry
// serves for maxAgeMs (default 24 h: RFC 9309 §2.4, a cached file SHOULD NOT be used for longer), and no
// longer than the cache itself, which its owner scopes (one API request's documents, one crawl's scorer).
import type { RobotsFetch } from './fetch-robots.js';
import type { RobotsPolicy } from './policy.js';
import { productToken, robotsUrlFor } from './policy.js';

export interface RobotsCacheOptions {
  /** Fetches one robots.txt URL as `userAgent` (usually `fetchRobots(url, fetcher, { userAgent, ... })`). */
  load: (robotsUrl: string, userAgent: string | undefined) => Promise<RobotsFetch>;
  /** Default 24 h (RFC 9309 §2.4). */
  maxAgeMs?: number;
  /** Told about every fetch, e.g. to record it with the crawl. */
  onFetched?: (robotsUrl: string, fetched: RobotsFetch) => void;
  now?: () => number;
}

export class RobotsCache {
  readonly #options: RobotsCacheOptions;
  readonly #entries = new Map<string, { fetched: Promise<RobotsFetch>; loadedAtMs: number }>();

  constructor(options: RobotsCacheOptions) {
    this.#options = options;
  }

  /** robots.txt of the origin of `pageUrl` (the URL actually being fetched, after any redirect). */
  robotsFor(pageUrl: string, userAgent?: string): Promise<RobotsFetch> {
    const robotsUrl = robotsUrlFor(pageUrl);
    const key = userAgent === undefined ? robotsUrl : `${robotsUrl} ${productToken(userAgent)}`;
    const now = (this.#options.now ?? Date.now)();
    const cached = this.#entries.get(key);
    if (cached && now - cached.loadedAtMs < (this.#options.maxAgeMs ?? 86_400_000)) return cached.fetched;
    const fetched = this.#options.load(robotsUrl, userAgent).then((result) => {
      this.#options.onFetched?.(robotsUrl, result);
      return result;
    });
    // A load that throws is not cached: the next ask tries again.
    fetched.catch(() => this.#entries.delete(key));
    this.#entries.set(key, { fetched, loadedAtMs: now });
    return fetched;
  }

  /** The policy for the origin of `pageUrl`. */
  async policyFor(pageUrl: string, userAgent?: string): Promise<RobotsPolicy> {
    return (await this.robotsFor(pageUrl, userAgent)).policy;
  }

  get size(): number {
    return this.#entries.size;
  }
}
