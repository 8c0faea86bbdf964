// One robots.txt per origin, fetched once and shared (MISSION-NOTES §8): concurrent asks for the same
// origin wait on one fetch. RFC 9309 §2.4: a cached file SHOULD NOT be used for more than 24 hours.
import type { RobotsFetch } from './fetch-robots.js';
import type { RobotsPolicy } from './policy.js';
import { robotsUrlFor } from './policy.js';

export interface RobotsCacheOptions {
  /** Fetches one robots.txt URL (usually `(url) => fetchRobots(url, fetcher, opts)`). */
  load: (robotsUrl: string) => Promise<RobotsFetch>;
  /** Default 24 h (RFC 9309 §2.4). */
  maxAgeMs?: number;
  /** Told about every fetch, e.g. to record it with the crawl. */
  onFetched?: (robotsUrl: string, fetched: RobotsFetch) => void;
  now?: () => number;
}

export class RobotsCache {
  readonly #options: RobotsCacheOptions;
  readonly #entries = new Map<string, { policy: Promise<RobotsPolicy>; loadedAtMs: number }>();

  constructor(options: RobotsCacheOptions) {
    this.#options = options;
  }

  /** The policy for the origin of `pageUrl` (the URL actually being fetched, after any redirect). */
  policyFor(pageUrl: string): Promise<RobotsPolicy> {
    const robotsUrl = robotsUrlFor(pageUrl);
    const now = (this.#options.now ?? Date.now)();
    const cached = this.#entries.get(robotsUrl);
    if (cached && now - cached.loadedAtMs < (this.#options.maxAgeMs ?? 86_400_000)) return cached.policy;
    const policy = this.#options.load(robotsUrl).then((fetched) => {
      this.#options.onFetched?.(robotsUrl, fetched);
      return fetched.policy;
    });
    // A load that throws is not cached: the next ask tries again.
    policy.catch(() => this.#entries.delete(robotsUrl));
    this.#entries.set(robotsUrl, { policy, loadedAtMs: now });
    return policy;
  }

  get size(): number {
    return this.#entries.size;
  }
}
