// The test web's model: per host, a table from request target (path + query) to a resource. The server
// answers from it and the ground truth walks it, so both read the same links the HTML contains.

import { Rng } from './random.js';
import { RobotsRules } from './robots-rules.js';

export interface LinkSpec {
  /** Exactly as written in the href attribute. */
  href: string;
  /** rel contains the token nofollow. */
  nofollow?: boolean;
  /** The rel attribute as written; default "nofollow" when nofollow. */
  rel?: string;
  text?: string;
}

export interface PageResource {
  kind: 'page';
  title: string;
  links: LinkSpec[];
  /** Shown with <img src> after the links: not links, so the ground truth never follows them. */
  images?: Array<{ src: string; alt: string }>;
  /** <meta name="robots" content="nofollow">: none of the page's links are followed. */
  metaNofollow?: boolean;
  /** Pages sharing a group render byte-identical bodies. */
  duplicateGroup?: string;
  /** Words the decoded text contains (charset pages). */
  words?: string[];
  /** Hand-written body (charsets, malformed HTML); links must list what a correct parser finds in it. */
  body?: Buffer;
  contentType?: string;
  delayMs?: number;
  /** Answers 503 + Retry-After: 1 to its first request of a run. */
  unavailableOnce?: boolean;
  /** Rendered size to aim at (the over-size page); `tailLinks` sit at its very end. */
  padToBytes?: number;
  tailLinks?: LinkSpec[];
  /** Key of the seeded filler text; pages with the same key and title get the same text. */
  textKey: string;
  /** An edit made between two crawls (mutation.ts): a paragraph at the top of the page's main text. */
  update?: string;
  /** Edits made so far: its Last-Modified is that many days after the web's first date. */
  revision?: number;
  /**
   * The realistic profile's page furniture (bench only): a site menu and a footer repeated on every page of the
   * host, a related-pages box; the page is then rendered as a long article with inline scripts and styles.
   */
  chrome?: { menu: LinkSpec[]; related: LinkSpec[]; footer: LinkSpec[] };
}

export interface RedirectResource {
  kind: 'redirect';
  status: 301 | 302 | 307 | 308;
  location: string;
}

export interface StatusResource {
  kind: 'status';
  status: number;
}

export interface BinaryResource {
  kind: 'binary';
  contentType: string;
  size: number;
  /** The first bytes (a real file signature); the rest is seeded noise. */
  header: Buffer;
}

export interface FileResource {
  kind: 'file';
  contentType: string;
  body: Buffer;
  /** A sitemap or robots.txt: not a page. */
  auxiliary: boolean;
  /** What a correct crawl records it as, when not BINARY: text/plain is HTML, a copy of a document DUPLICATE. */
  expectedType?: 'HTML' | 'DUPLICATE';
  /** Answered this long after it is asked for (a script that keeps a rendered page loading). */
  delayMs?: number;
}

export type Resource = PageResource | RedirectResource | StatusResource | BinaryResource | FileResource;

export interface HostSite {
  index: number;
  origin: string;
  /** Dotted quad of the loopback address. */
  address: string;
  resources: Map<string, Resource>;
  /** Resources computed from the target (the spider trap). */
  dynamic: Array<(target: string) => Resource | undefined>;
  robots: { status: number; body: string };
  rules: RobotsRules;
  /** Robots variant name (features/robots.ts) or 'none' when robots are off. */
  robotsVariant: string;
  /** Plain pages of this host never get children: robots.txt shuts the whole host. */
  closed: boolean;
}

export class Site {
  readonly hosts: HostSite[];
  /** Plain page tree: child → parent (canonical URLs), for documentation and checks. */
  readonly parentOf = new Map<string, string>();
  private readonly byOrigin = new Map<string, HostSite>();

  constructor(
    readonly seed: number,
    readonly port: number,
    hostCount: number,
    addresses: readonly string[] = loopbackAddresses(hostCount),
  ) {
    this.hosts = [];
    for (let index = 0; index < hostCount; index++) {
      const address = addresses[index]!;
      this.hosts.push({
        index,
        address,
        origin: `http://${address}:${port}`,
        resources: new Map(),
        dynamic: [],
        robots: { status: 404, body: '' },
        rules: new RobotsRules(404, ''),
        robotsVariant: 'none',
        closed: false,
      });
    }
  }

  rng(...key: Array<string | number>): Rng {
    return Rng.for(this.seed, ...key);
  }

  host(index: number): HostSite {
    return this.hosts[index % this.hosts.length]!;
  }

  hostOfOrigin(origin: string): HostSite | undefined {
    if (this.byOrigin.size === 0) for (const host of this.hosts) this.byOrigin.set(host.origin, host);
    return this.byOrigin.get(origin);
  }

  setRobots(host: HostSite, status: number, body: string, variant: string): void {
    host.robots = { status, body };
    host.rules = new RobotsRules(status, body);
    host.robotsVariant = variant;
  }

  add(host: HostSite, target: string, resource: Resource): void {
    if (host.resources.has(target)) throw new Error(`test web: ${host.origin}${target} defined twice`);
    host.resources.set(target, resource);
  }

  /** The resource at a request target, or undefined (the server answers 404). */
  resolve(host: HostSite, target: string): Resource | undefined {
    const fixed = host.resources.get(target);
    if (fixed !== undefined) return fixed;
    for (const make of host.dynamic) {
      const made = make(target);
      if (made !== undefined) return made;
    }
    return undefined;
  }

  /** An href from a page on `from` to `target` on `to`: root-relative on the same host, else absolute. */
  href(from: HostSite, to: HostSite, target: string): string {
    return from === to ? target : `${to.origin}${target}`;
  }

  page(host: HostSite, target: string): PageResource {
    const resource = host.resources.get(target);
    if (resource?.kind !== 'page') throw new Error(`test web: no page at ${host.origin}${target}`);
    return resource;
  }

  /** Adds a feature's entry page as a link of the home page of `host`. */
  linkFromHome(host: HostSite, target: string, text: string): void {
    this.page(host, '/').links.push({ href: target, text });
  }

  /** A small leaf page with filler text. */
  leaf(host: HostSite, target: string, title: string, links: LinkSpec[] = []): PageResource {
    const page: PageResource = { kind: 'page', title, links, textKey: `${host.index}${target}` };
    this.add(host, target, page);
    return page;
  }
}

export interface BuildContext {
  site: Site;
  opts: ResolvedOptions;
  enabled(feature: string): boolean;
}

export interface ResolvedOptions {
  seed: number;
  hosts: number;
  pagesPerHost: number;
  features: Record<string, boolean>;
  slowPageDelayMs: number;
  linksPerPage: number;
  oversizePageBytes: number;
  bigBinaryBytes: number;
  crawlDelaySeconds: number;
  port: number;
  profile: 'plain' | 'realistic';
  /** The address each host listens on (default 127.0.0.2 …). */
  addresses: string[];
}

/** 127.0.0.2 … 127.0.0.(count + 1): the test web's hosts on loopback. */
export function loopbackAddresses(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `127.0.0.${index + 2}`);
}

/** A generator module: adds its pages to the site. Features run in the order of features/index.ts. */
export interface FeatureModule {
  name: string;
  build(ctx: BuildContext): void;
}
