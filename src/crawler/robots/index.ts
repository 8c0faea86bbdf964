// robots.txt: the pure policy (RobotsPolicy.from), its fetch, and a per-origin cache.

export type { RobotsCacheOptions } from './cache.js';
export { RobotsCache } from './cache.js';
export type { FetchRobotsOptions, RobotsFetch } from './fetch-robots.js';
export { fetchRobots, MAX_ROBOTS_BYTES, robotsText } from './fetch-robots.js';
export type { RobotsKind, RobotsResponse } from './policy.js';
export { normalizeRobotsBody, productToken, RobotsPolicy, robotsPathOf, robotsUrlFor } from './policy.js';
