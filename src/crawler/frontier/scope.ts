// Which discovered URLs a crawl may follow: scheme, depth, allowed domains (with optional port), same-host
// restriction (MISSION-NOTES §2 ignoreInternal's counterpart), then user regexes on the canonical URL.
// User patterns run on every link, so they are capped in size and checked for nested quantifiers, the usual
// source of catastrophic backtracking ("(a+)+", "(\w*)*"); V8's regex engine has no time limit of its own.

import { InputError } from '../../errors.js';
import { canonicalizeUrl } from './canonicalize.js';

export interface CrawlScopeSpec {
  seeds: string[];
  /** Hosts ("example.com"), hosts with port ("127.0.0.2:8080"), "*.example.com" (always with subdomains) or
   * "*" (any host). Default: the seeds' hosts, with their port when it is not the scheme's default. */
  allowedDomains?: string[];
  /** A link is in scope only when its host equals the host of the page it was found on. */
  sameHost?: boolean;
  /** Regex sources matched against the full canonical URL; when non-empty, a URL must match one. */
  include?: string[];
  /** Regex sources matched against the full canonical URL; a match puts the URL out of scope. */
  exclude?: string[];
  /** Largest link depth followed (seeds are depth 0); null or absent: unlimited. */
  maxDepth?: number | null;
  /** An allowed domain admits its subdomains too. Default true. */
  allowSubdomains?: boolean;
}

export type ScopeRejection = 'domain' | 'same-host' | 'exclude' | 'include' | 'depth' | 'scheme';
export type ScopeVerdict = { inScope: true } | { inScope: false; reason: ScopeRejection };

/** Longest accepted pattern source, in characters. */
export const MAX_PATTERN_LENGTH = 500;
/** Most patterns accepted in one include or exclude list. */
export const MAX_PATTERNS = 100;

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

/**
 * A heuristic for star height > 1: a group that contains an unbounded or counted quantifier and is itself
 * quantified. Returns a description of the first offender, or null. Character classes and escapes are skipped.
 */
export function findNestedQuantifier(source: string): string | null {
  const groups: Array<{ start: number; quantified: boolean }> = [];
  const quantifierAt = (index: number): number => {
    const char = source[index];
    if (char === '*' || char === '+') return 1;
    if (char === '{') {
      const match = /^\{\d+(?:,\d*)?\}/.exec(source.slice(index));
      if (match) return match[0].length;
    }
    return 0;
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') {
      i++;
    } else if (char === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (char === '(') {
      groups.push({ start: i, quantified: false });
    } else if (char === ')') {
      const group = groups.pop();
      if (group === undefined) continue; // unbalanced: the RegExp constructor reports it
      const outer = quantifierAt(i + 1);
      if (outer > 0 && group.quantified) {
        return `nested quantifier in "${source.slice(group.start, i + 1 + outer)}"`;
      }
      const parent = groups.at(-1);
      if (parent && (outer > 0 || group.quantified)) parent.quantified = true;
    } else {
      const length = quantifierAt(i);
      if (length > 0) {
        const top = groups.at(-1);
        if (top) top.quantified = true;
        i += length - 1;
      }
    }
  }
  return null;
}

function compilePatterns(sources: unknown, field: string): RegExp[] {
  if (sources === undefined) return [];
  if (!Array.isArray(sources))
    throw new InputError(`${field} must be an array of regular expressions`, field);
  if (sources.length > MAX_PATTERNS) {
    throw new InputError(
      `${field} has ${sources.length} patterns; at most ${MAX_PATTERNS} are accepted`,
      field,
    );
  }
  return sources.map((source: unknown, index) => {
    const itemField = `${field}[${index}]`;
    if (typeof source !== 'string' || source === '') {
      throw new InputError(`${itemField} must be a non-empty string`, itemField);
    }
    if (source.length > MAX_PATTERN_LENGTH) {
      throw new InputError(
        `${itemField} is ${source.length} characters long; at most ${MAX_PATTERN_LENGTH} are accepted`,
        itemField,
      );
    }
    let regex: RegExp;
    try {
      regex = new RegExp(source);
    } catch (error) {
      throw new InputError(
        `${itemField} is not a valid regular expression: ${(error as Error).message}`,
        itemField,
        {
          pattern: source,
        },
      );
    }
    const nested = findNestedQuantifier(source);
    if (nested !== null) {
      throw new InputError(`${itemField} may backtrack catastrophically: ${nested}`, itemField, {
        pattern: source,
      });
    }
    return regex;
  });
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
    host = new URL(`http://${match[1]}/`).hostname.replace(/\.+$/, ''); // same normalization as canonicalizeUrl
  } catch {
    throw new InputError(`${field} is not a valid host name, got "${entry}"`, field);
  }
  if (host === '') throw new InputError(`${field} is not a valid host name, got "${entry}"`, field);
  return { host, port, subdomains };
}

export class CrawlScope {
  /** The seeds in canonical form. */
  readonly seeds: readonly string[];
  readonly #domains: readonly AllowedDomain[];
  readonly #sameHost: boolean;
  readonly #include: readonly RegExp[];
  readonly #exclude: readonly RegExp[];
  readonly #maxDepth: number | null;

  /**
   * Validates `spec`; every fault is an InputError whose field is `${fieldPrefix}.<name>[<index>]`
   * (e.g. "scope.include[2]"), so an API can pass its own path to the scope object.
   */
  constructor(spec: CrawlScopeSpec, options: { fieldPrefix?: string } = {}) {
    const prefix = options.fieldPrefix ?? 'scope';
    if (!Array.isArray(spec.seeds) || spec.seeds.length === 0) {
      throw new InputError('at least one seed URL is required', `${prefix}.seeds`);
    }
    this.seeds = spec.seeds.map((seed, index) => {
      const canonical = typeof seed === 'string' ? canonicalizeUrl(seed) : null;
      if (canonical === null) {
        throw new InputError(
          `${prefix}.seeds[${index}] is not an absolute http(s) URL without credentials`,
          `${prefix}.seeds[${index}]`,
        );
      }
      return canonical;
    });

    const allowSubdomains = spec.allowSubdomains ?? true;
    if (spec.allowedDomains === undefined) {
      // URL.host carries the port only when it is not the scheme's default: a seed on :8080 pins the port,
      // a seed on the default port admits both http and https.
      this.#domains = this.seeds.map((seed) =>
        parseAllowedDomain(new URL(seed).host, `${prefix}.seeds`, allowSubdomains),
      );
    } else {
      if (!Array.isArray(spec.allowedDomains) || spec.allowedDomains.length === 0) {
        throw new InputError(
          'allowedDomains must list hosts: omit it for the seed hosts, or use "*" for any host',
          `${prefix}.allowedDomains`,
        );
      }
      this.#domains = spec.allowedDomains.map((entry, index) =>
        parseAllowedDomain(entry, `${prefix}.allowedDomains[${index}]`, allowSubdomains),
      );
    }

    this.#sameHost = spec.sameHost ?? false;
    this.#include = compilePatterns(spec.include, `${prefix}.include`);
    this.#exclude = compilePatterns(spec.exclude, `${prefix}.exclude`);

    const maxDepth = spec.maxDepth ?? null;
    if (maxDepth !== null && !(Number.isInteger(maxDepth) && maxDepth >= 0)) {
      throw new InputError('maxDepth must be a non-negative integer or null', `${prefix}.maxDepth`);
    }
    this.#maxDepth = maxDepth;
  }

  /**
   * Whether `url`, found at link `depth` (seeds are 0) on page `foundOn`, may be crawled. Checks run cheapest
   * first, and the first failing one is the reason: scheme, depth, domain, same-host, exclude, include.
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

    if (this.#exclude.some((regex) => regex.test(canonical))) return { inScope: false, reason: 'exclude' };
    if (this.#include.length > 0 && !this.#include.some((regex) => regex.test(canonical))) {
      return { inScope: false, reason: 'include' };
    }
    return { inScope: true };
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
