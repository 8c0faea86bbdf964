// Which discovered URLs a crawl may follow: scheme, depth, allowed domains (with optional port), same-host
// restriction (docs/reference.md#strategies ignoreInternal's counterpart), then user regexes on the canonical URL.
// User patterns run on RE2 (url-patterns.ts), in time linear in the URL, and only on URLs that passed the
// cheap checks; their verdicts are remembered per canonical URL, since most links point at known pages.

import { InputError } from '../../errors.js';
import { LruMap } from '../lru-map.js';
import { canonicalizeUrl, stripTrailingDots } from './canonicalize.js';
import { MAX_PATTERN_URL_LENGTH, patternBudget, UrlPatternList } from './url-patterns.js';

export interface CrawlScopeSpec {
  seeds: string[];
  /** Hosts ("example.com"), hosts with port ("127.0.0.2:8080"), "*.example.com" (always with subdomains) or
   * "*" (any host). Default: the seeds' hosts, with their port when it is not the scheme's default. */
  allowedDomains?: string[];
  /** A link is in scope only when its host equals the host of the page it was found on. */
  sameHost?: boolean;
  /** RE2 patterns searched for in the full canonical URL; when non-empty, a URL must match one. */
  include?: string[];
  /** RE2 patterns searched for in the full canonical URL; a match puts the URL out of scope. */
  exclude?: string[];
  /** Largest link depth followed (seeds are depth 0); null or absent: unlimited. */
  maxDepth?: number | null;
  /** An allowed domain admits its subdomains too. Default true. */
  allowSubdomains?: boolean;
}

export type ScopeRejection =
  | 'domain'
  | 'same-host'
  | 'exclude'
  | 'include'
  | 'depth'
  | 'scheme'
  | 'too-long-for-patterns';
export type ScopeVerdict = { inScope: true } | { inScope: false; reason: ScopeRejection };

/** Verdicts are shared (remembered per URL), hence frozen. */
const IN_SCOPE: ScopeVerdict = Object.freeze({ inScope: true });
const TOO_LONG_FOR_PATTERNS: ScopeVerdict = Object.freeze({
  inScope: false,
  reason: 'too-long-for-patterns',
});

/** Most canonical URLs whose include/exclude verdict a scope remembers. */
const MAX_REMEMBERED_VERDICTS = 10_000;

interface AllowedDomain {
  /** Lower-case ASCII host (punycode), no trailing dot; "" means any host. */
  readonly host: string;
  /** Port to match, or null for any port. */
  readonly port: number | null;
  readonly subdomains: boolean;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

function effectivePort(url: URL): number {
  return url.port === '' ? (DEFAULT_PORTS[url.protocol] ?? 0) : Number(url.port);
}

/** "example.com", "127.0.0.2:8080", "[::1]:8080", "*.example.com" or "*". */
function parseAllowedDomain(entry: unknown, field: string, allowSubdomains: boolean): AllowedDomain {
  if (typeof entry !== 'string') throw new InputError(`${field} must be a host name`, field);
  let text = entry.trim().toLowerCase();
  if (text === '*') return { host: '', port: null, subdomains: true };
  let subdomains = allowSubdomains;
  if (text.startsWith('*.')) {
    subdomains = true;
    text = text.slice(2);
  }
  const match = /^(\[[^\]]*\]|[^:/?#@[\]\s]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) throw new InputError(`${field} must be a host or host:port, got "${entry}"`, field);
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && (port < 1 || port > 65535))
    throw new InputError(`${field} has an invalid port`, field);
  let host: string;
  try {
    host = stripTrailingDots(new URL(`http://${match[1]}/`).hostname); // same normalization as canonicalizeUrl
  } catch {
    throw new InputError(`${field} is not a valid host name, got "${entry}"`, field);
  }
  if (host === '') throw new InputError(`${field} is not a valid host name, got "${entry}"`, field);
  return { host, port, subdomains };
}

/**
 * Where a scope's faults are reported: every fault is an InputError whose field is `${fieldPrefix}.<name>[<index>]`
 * (e.g. "scope.include[2]"), so an API can pass its own path to the scope object, and `seedsField` names the
 * seeds where the API keeps them (a crawl request has them beside its scope, as `seeds`).
 */
export interface ScopeFields {
  fieldPrefix?: string;
  seedsField?: string;
}

/** A scope's spec, checked and compiled: what CrawlScope decides with. */
interface ScopeRules {
  seeds: string[];
  domains: AllowedDomain[];
  sameHost: boolean;
  include: UrlPatternList;
  exclude: UrlPatternList;
  maxDepth: number | null;
}

function scopeRules(spec: CrawlScopeSpec, fields: ScopeFields): ScopeRules {
  const prefix = fields.fieldPrefix ?? 'scope';
  const seedsField = fields.seedsField ?? `${prefix}.seeds`;
  if (!Array.isArray(spec.seeds) || spec.seeds.length === 0) {
    throw new InputError('at least one seed URL is required', seedsField);
  }
  const seeds = spec.seeds.map((seed, index) => {
    const canonical = typeof seed === 'string' ? canonicalizeUrl(seed) : null;
    if (canonical === null) {
      throw new InputError(
        `${seedsField}[${index}] is not an absolute http(s) URL without credentials`,
        `${seedsField}[${index}]`,
      );
    }
    return canonical;
  });

  const allowSubdomains = spec.allowSubdomains ?? true;
  let domains: AllowedDomain[];
  if (spec.allowedDomains === undefined) {
    // URL.host carries the port only when it is not the scheme's default: a seed on :8080 pins the port,
    // a seed on the default port admits both http and https.
    domains = seeds.map((seed) => parseAllowedDomain(new URL(seed).host, seedsField, allowSubdomains));
  } else {
    if (!Array.isArray(spec.allowedDomains) || spec.allowedDomains.length === 0) {
      throw new InputError(
        'allowedDomains must list hosts: omit it for the seed hosts, or use "*" for any host',
        `${prefix}.allowedDomains`,
      );
    }
    domains = spec.allowedDomains.map((entry, index) =>
      parseAllowedDomain(entry, `${prefix}.allowedDomains[${index}]`, allowSubdomains),
    );
  }

  const budget = patternBudget();
  const include = UrlPatternList.compile(spec.include, `${prefix}.include`, budget);
  const exclude = UrlPatternList.compile(spec.exclude, `${prefix}.exclude`, budget);

  const maxDepth = spec.maxDepth ?? null;
  if (maxDepth !== null && !(Number.isInteger(maxDepth) && maxDepth >= 0)) {
    throw new InputError('maxDepth must be a non-negative integer or null', `${prefix}.maxDepth`);
  }
  return { seeds, domains, sameHost: spec.sameHost ?? false, include, exclude, maxDepth };
}

/**
 * Checks a scope before a crawl is made of it (a crawl request, before it is stored), with the checks a
 * CrawlScope makes, so a bad seed, domain, pattern or depth is refused naming its field.
 */
export function validateScope(spec: CrawlScopeSpec, fields: ScopeFields = {}): void {
  scopeRules(spec, fields);
}

export class CrawlScope {
  /** The seeds in canonical form. */
  readonly seeds: readonly string[];
  readonly #domains: readonly AllowedDomain[];
  readonly #sameHost: boolean;
  readonly #include: UrlPatternList;
  readonly #exclude: UrlPatternList;
  /** Include/exclude verdicts by canonical URL; the least recently used is forgotten first. */
  readonly #verdicts = new LruMap<string, ScopeVerdict>(MAX_REMEMBERED_VERDICTS);
  readonly #maxDepth: number | null;

  /** Checks `spec` as validateScope does: every fault is an InputError naming its field (ScopeFields). */
  constructor(spec: CrawlScopeSpec, fields: ScopeFields = {}) {
    const rules = scopeRules(spec, fields);
    this.seeds = rules.seeds;
    this.#domains = rules.domains;
    this.#sameHost = rules.sameHost;
    this.#include = rules.include;
    this.#exclude = rules.exclude;
    this.#maxDepth = rules.maxDepth;
  }

  /**
   * Whether `url`, found at link `depth` (seeds are 0) on page `foundOn`, may be crawled. Checks run cheapest
   * first, and the first failing one is the reason: scheme, depth, domain, same-host, too-long-for-patterns
   * (a URL too long to run include/exclude patterns on, when there are any), exclude, include.
   */
  check(url: string, depth: number, foundOn?: string): ScopeVerdict {
    const canonical = canonicalizeUrl(url);
    if (canonical === null) return { inScope: false, reason: 'scheme' };
    if (this.#maxDepth !== null && depth > this.#maxDepth) return { inScope: false, reason: 'depth' };

    const parsed = new URL(canonical);
    if (!this.#domainAllowed(parsed)) return { inScope: false, reason: 'domain' };

    if (this.#sameHost && foundOn !== undefined) {
      const page = canonicalizeUrl(foundOn);
      // Host as URL.host: the name plus a non-default port, so http and https of one site are the same host.
      if (page === null || new URL(page).host !== parsed.host) return { inScope: false, reason: 'same-host' };
    }

    return this.#patternVerdict(canonical);
  }

  #patternVerdict(canonical: string): ScopeVerdict {
    if (this.#include.isEmpty && this.#exclude.isEmpty) return IN_SCOPE;
    if (canonical.length > MAX_PATTERN_URL_LENGTH) return TOO_LONG_FOR_PATTERNS;
    const known = this.#verdicts.get(canonical);
    if (known !== undefined) return known;
    const verdict: ScopeVerdict = this.#exclude.matches(canonical)
      ? Object.freeze({ inScope: false, reason: 'exclude' })
      : !this.#include.isEmpty && !this.#include.matches(canonical)
        ? Object.freeze({ inScope: false, reason: 'include' })
        : IN_SCOPE;
    this.#verdicts.set(canonical, verdict);
    return verdict;
  }

  #domainAllowed(url: URL): boolean {
    const host = url.hostname;
    const port = effectivePort(url);
    return this.#domains.some(
      (domain) =>
        (domain.port === null || domain.port === port) &&
        (domain.host === '' ||
          host === domain.host ||
          (domain.subdomains && host.endsWith(`.${domain.host}`))),
    );
  }
}
