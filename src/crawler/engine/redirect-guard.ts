// The checks a redirect hop passes before the store is asked anything: the target must be a URL the crawl
// can hold and inside its scope. Pure; robots.txt, deduplication and the host's turn come after, in the runner.
import { canonicalizeUrl, urlTooLong } from '../frontier/canonicalize.js';
import type { RedirectRefusal } from './page-outcome.js';

/** The canonical target of a hop, or why the hop is refused. */
export function checkRedirectTarget(
  to: string,
  depth: number,
  inScope: (url: string, depth: number) => boolean,
): { target: string } | { refusal: RedirectRefusal } {
  const target = canonicalizeUrl(to);
  if (!target) return { refusal: { type: 'INVALID', reason: `redirect to an unsupported URL: ${to}` } };
  const tooLong = urlTooLong(target);
  if (tooLong !== null) {
    return { refusal: { type: 'INVALID', reason: `redirect to a URL too long to crawl: ${tooLong}` } };
  }
  if (!inScope(target, depth)) {
    return { refusal: { type: 'INVALID', reason: `redirect leaves the crawl's scope: ${target}` } };
  }
  return { target };
}
