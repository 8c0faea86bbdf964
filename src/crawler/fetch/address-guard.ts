// SSRF guard: which IP addresses a crawl may connect to. Follows the IANA special-purpose address
// registries (RFC 6890 and successors): anything not globally reachable is refused, and IPv6 forms
// that embed an IPv4 address (mapped, NAT64, 6to4) are judged by the address they embed.

import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';

export interface AddressVerdict {
  blocked: boolean;
  range?: string;
}

type Family = 'ipv4' | 'ipv6';

// Order matters only for the name reported: narrower ranges come before the ranges that contain them.
const IPV4_RANGES: Array<[name: string, cidr: string]> = [
  ['broadcast', '255.255.255.255/32'],
  ['unspecified', '0.0.0.0/8'],
  ['private', '10.0.0.0/8'],
  ['cgnat', '100.64.0.0/10'],
  ['loopback', '127.0.0.0/8'],
  ['link-local', '169.254.0.0/16'],
  ['private', '172.16.0.0/12'],
  ['ietf-protocol', '192.0.0.0/24'],
  ['documentation', '192.0.2.0/24'],
  ['6to4-relay', '192.88.99.0/24'],
  ['private', '192.168.0.0/16'],
  ['benchmarking', '198.18.0.0/15'],
  ['documentation', '198.51.100.0/24'],
  ['documentation', '203.0.113.0/24'],
  ['multicast', '224.0.0.0/4'],
  ['reserved', '240.0.0.0/4'],
];

const IPV6_RANGES: Array<[name: string, cidr: string]> = [
  ['unspecified', '::/128'],
  ['loopback', '::1/128'],
  ['ipv4-compatible', '::/96'],
  // RFC 2765 (SIIT) IPv4-translated ::ffff:0:a.b.c.d: no public host is addressed this way, so all refused
  ['ipv4-translated', '::ffff:0:0:0/96'],
  ['nat64-local', '64:ff9b:1::/48'],
  ['discard', '100::/64'],
  ['ietf-protocol', '2001::/23'],
  ['documentation', '2001:db8::/32'],
  ['documentation', '3fff::/20'],
  // RFC 9602: segment identifiers of SRv6 domains, never routed on the internet
  ['srv6-sid', '5f00::/16'],
  ['unique-local', 'fc00::/7'],
  ['link-local', 'fe80::/10'],
  ['site-local', 'fec0::/10'],
  ['multicast', 'ff00::/8'],
];

function compile(ranges: Array<[string, string]>, family: Family): Array<{ name: string; list: BlockList }> {
  return ranges.map(([name, cidr]) => {
    const [net, bits] = cidr.split('/') as [string, string];
    const list = new BlockList();
    list.addSubnet(net, Number(bits), family);
    return { name, list };
  });
}

const V4 = compile(IPV4_RANGES, 'ipv4');
const V6 = compile(IPV6_RANGES, 'ipv6');

/** Expands an IPv6 address (no zone, may end in a dotted quad) into its eight 16-bit groups. */
function ipv6Groups(ip: string): number[] {
  let text = ip;
  const tail: number[] = [];
  if (text.includes('.')) {
    const lastColon = text.lastIndexOf(':');
    const o = text
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    tail.push(((o[0] ?? 0) << 8) | (o[1] ?? 0), ((o[2] ?? 0) << 8) | (o[3] ?? 0));
    text = text.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head, rest] = text.includes('::') ? (text.split('::') as [string, string]) : [text, undefined];
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part
          .split(':')
          .filter((g) => g !== '')
          .map((g) => Number.parseInt(g, 16));
  const headGroups = parse(head);
  const restGroups = rest === undefined ? [] : parse(rest);
  const groups = [...headGroups];
  const fill = 8 - headGroups.length - restGroups.length - tail.length;
  if (rest !== undefined) for (let i = 0; i < fill; i++) groups.push(0);
  groups.push(...restGroups, ...tail);
  return groups;
}

function v4FromGroups(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

function checkV4(ip: string): AddressVerdict {
  for (const { name, list } of V4) if (list.check(ip, 'ipv4')) return { blocked: true, range: name };
  return { blocked: false };
}

/** Is this IP address one a crawler must not connect to? Anything that is not an IP address is blocked. */
export function isBlockedAddress(ip: string): AddressVerdict {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const noZone = bare.split('%')[0] ?? '';
  const family = isIP(noZone);
  if (family === 4) return checkV4(noZone);
  if (family !== 6) return { blocked: true, range: 'not-an-ip' };

  const g = ipv6Groups(noZone);
  const isPrefix = (...prefix: number[]) => prefix.every((v, i) => g[i] === v);
  // IPv4-mapped ::ffff:a.b.c.d and NAT64 64:ff9b::a.b.c.d reach the embedded IPv4 address.
  const embedded =
    isPrefix(0, 0, 0, 0, 0, 0xffff) || isPrefix(0x64, 0xff9b, 0, 0, 0, 0)
      ? v4FromGroups(g[6] ?? 0, g[7] ?? 0)
      : // 6to4 2002:AABB:CCDD::/48 tunnels to the IPv4 address AA.BB.CC.DD.
        g[0] === 0x2002
        ? v4FromGroups(g[1] ?? 0, g[2] ?? 0)
        : null;
  if (embedded !== null) {
    const inner = checkV4(embedded);
    const kind = g[0] === 0x2002 ? '6to4' : g[0] === 0x64 ? 'nat64' : 'ipv4-mapped';
    return inner.blocked ? { blocked: true, range: `${kind}:${inner.range}` } : { blocked: false };
  }
  for (const { name, list } of V6) if (list.check(noZone, 'ipv6')) return { blocked: true, range: name };
  return { blocked: false };
}

/** One entry of ALLOW_PRIVATE_NETWORKS: a network (an address is a network of one) and, when given, its one port. */
export interface AllowedTarget {
  network: string;
  bits: number;
  family: 'ipv4' | 'ipv6';
  /** null: every port. */
  port: number | null;
}

const PORTED_V4 = /^([^:[\]]+):(\d+)$/;
const BRACKETED_V6 = /^\[([^\]]+)\](?::(\d+))?$/;

/**
 * Parses an entry of ALLOW_PRIVATE_NETWORKS: `10.1.0.0/16`, `127.0.0.2` (that address), `127.0.0.1:8080`
 * (that port only), `10.1.0.0/16:8080`; IPv6 bare (`fd00::/64`, `::1`) or, with a port, in brackets
 * (`[::1]:8080`, `[fd00::/64]:8080`). Null when the entry is none of these.
 */
export function parseAllowedTarget(entry: string): AllowedTarget | null {
  let target = entry.trim();
  let port: number | null = null;
  const bracketed = BRACKETED_V6.exec(target);
  const ported = bracketed ? null : PORTED_V4.exec(target);
  if (bracketed) {
    target = bracketed[1] ?? '';
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
  } else if (ported) {
    target = ported[1] ?? '';
    port = Number(ported[2]);
  }
  if (port !== null && (port < 1 || port > 65_535)) return null;
  const [network = '', bitsText, ...rest] = target.split('/');
  const family = isIP(network);
  if (family === 0 || rest.length > 0 || (bracketed && family !== 6) || (ported && family !== 4)) return null;
  const max = family === 6 ? 128 : 32;
  if (bitsText !== undefined && !/^\d+$/.test(bitsText)) return null;
  const bits = bitsText === undefined ? max : Number(bitsText);
  if (bits > max) return null;
  return { network, bits, family: family === 6 ? 'ipv6' : 'ipv4', port };
}

/**
 * The guard with some private targets let through (ALLOW_PRIVATE_NETWORKS as a list): an address in one of
 * `entries` (parseAllowedTarget) is allowed, on the entry's port when it names one; every other address, and an
 * allowed address on another port, is judged by `base`.
 */
export function guardAllowing(
  entries: readonly string[],
  base: AddressGuard = isBlockedAddress,
): AddressGuard {
  const targets = entries.map((entry) => {
    const target = parseAllowedTarget(entry);
    if (!target) throw new Error(`not an address, network or address:port: ${JSON.stringify(entry)}`);
    const list = new BlockList();
    list.addSubnet(target.network, target.bits, target.family);
    return { list, port: target.port };
  });
  return (ip, port) => {
    const bare = (ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip).split('%')[0] ?? '';
    const family = isIP(bare);
    if (family !== 0) {
      const kind = family === 6 ? 'ipv6' : 'ipv4';
      const allowed = targets.some(
        (target) => (target.port === null || target.port === port) && target.list.check(bare, kind),
      );
      if (allowed) return { blocked: false };
    }
    return base(ip, port);
  };
}

/** The error a guarded lookup or connect fails with; the fetcher maps its code to 'blocked-address'. */
export class BlockedAddressError extends Error {
  readonly code = 'ETRAWLBLOCKED';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`${host} resolves to ${address} (${range}), which the SSRF guard refuses`);
    this.name = 'BlockedAddressError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** `port`: the one the connection is for, when known (an entry of ALLOW_PRIVATE_NETWORKS may name one). */
export type AddressGuard = (ip: string, port?: number) => AddressVerdict;
export type LookupFunction = (
  hostname: string,
  options: LookupOneOptions | LookupAllOptions | number | undefined,
  callback: LookupCallback,
) => void;

/**
 * A `lookup` for net/tls connect options that drops blocked addresses from the DNS answer, so the
 * socket can only ever connect to an address that was checked (no window for DNS rebinding).
 */
export function createGuardedLookup(guard: AddressGuard = isBlockedAddress, port?: number): LookupFunction {
  const judge = (ip: string) => guard(ip, port);
  return (hostname, options, callback) => {
    const opts = typeof options === 'number' ? { family: options } : (options ?? {});
    dns.lookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, opts.all ? [] : '');
      const allowed = addresses.filter((a) => !judge(a.address).blocked);
      if (allowed.length === 0) {
        const first = addresses[0];
        const range = first ? (judge(first.address).range ?? 'blocked') : 'no-address';
        return callback(new BlockedAddressError(hostname, first?.address ?? '', range), opts.all ? [] : '');
      }
      if (opts.all) return callback(null, allowed);
      const one = allowed[0]!;
      callback(null, one.address, one.family);
    });
  };
}

export const guardedLookup: LookupFunction = createGuardedLookup();
