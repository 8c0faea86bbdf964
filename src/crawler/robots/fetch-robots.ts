// Fetching robots.txt (RFC 9309 §2.3): up to five redirects followed, wherever they lead (§2.3.1.2),
// at most 500 KiB parsed (§2.5), the body read as UTF-8 (§2.3), and the outcome turned into a policy.
import type { Fetcher, FetchOptions, RetryOptions } from '../fetch/fetcher.js';
import { RobotsPolicy } from './policy.js';

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB; we parse exactly that much. */
export const MAX_ROBOTS_BYTES = 500 * 1024;
const MAX_ROBOTS_REDIRECTS = 5;

export interface FetchRobotsOptions {
  userAgent: string;
  timeoutMs: number;
  retry?: RetryOptions;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Asked before each redirect is followed (a crawl waits its host's delay there). */
  beforeRedirect?: FetchOptions['beforeRedirect'];
}

export interface RobotsFetch {
  policy: RobotsPolicy;
  status: number | null;
  body: string | null;
  fetchedAt: Date;
  error?: string;
}

/** The rules text of a robots.txt body; a body cut at the cap loses its last, partial line. */
export function robotsText(body: Buffer, truncated: boolean): string {
  const text = body.toString('utf8');
  if (!truncated) return text;
  const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  return lastBreak >= 0 ? text.slice(0, lastBreak + 1) : '';
}

export async function fetchRobots(
  robotsUrl: string,
  fetcher: Pick<Fetcher, 'fetch'>,
  opts: FetchRobotsOptions,
): Promise<RobotsFetch> {
  const result = await fetcher.fetch(robotsUrl, {
    userAgent: opts.userAgent,
    timeoutMs: opts.timeoutMs,
    maxBytes: MAX_ROBOTS_BYTES,
    maxRedirects: MAX_ROBOTS_REDIRECTS,
    headers: { accept: 'text/plain,*/*;q=0.5', ...opts.headers },
    ...(opts.retry ? { retry: opts.retry } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.beforeRedirect ? { beforeRedirect: opts.beforeRedirect } : {}),
  });
  const fetchedAt = new Date();
  if (result.error) {
    const error = `${result.error.code}: ${result.error.message}`;
    // §2.3.1.2: past five redirects (or in a loop) the file MAY be taken as unavailable, i.e. allow all.
    if (result.error.code === 'too-many-redirects' || result.error.code === 'redirect-loop') {
      const policy = RobotsPolicy.from(robotsUrl, { status: result.status ?? 310, body: '' });
      return { policy, status: result.status, body: null, fetchedAt, error };
    }
    const policy = RobotsPolicy.from(robotsUrl, { unreachable: true, error });
    return { policy, status: result.status, body: null, fetchedAt, error };
  }
  const status = result.status ?? 0;
  const body = result.body ? robotsText(result.body, result.truncated) : '';
  return { policy: RobotsPolicy.from(robotsUrl, { status, body }), status: result.status, body, fetchedAt };
}
