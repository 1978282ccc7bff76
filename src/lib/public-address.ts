import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Is an address on the public internet? (SSRF through push subscriptions.) Everything else is
 * refused: private, loopback, link-local, shared (CGNAT), benchmarking, documentation, multicast, reserved and
 * unspecified ranges, and IPv6 forms that embed an IPv4 address (mapped, translated, compatible, NAT64, 6to4) when
 * the embedded address is not public itself. Teredo (2001::/32) and the local-use NAT64 prefix (64:ff9b:1::/48, where
 * the operator picks where the IPv4 address sits) are refused whole.
 */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

const v4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  v4.addSubnet(net, prefix, 'ipv4');

const v6 = new BlockList();
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  v6.addSubnet(net, prefix, 'ipv6');

/** IPv6 prefixes whose last 32 bits (or bits 16-47 for 6to4) are an IPv4 address: judged by that address. */
const embedding: [string, number, (words: number[]) => number[]][] = [
  ['::ffff:0:0', 96, (w) => w.slice(6)], // IPv4-mapped
  ['::ffff:0:0:0', 96, (w) => w.slice(6)], // IPv4-translated (RFC 2765)
  ['::', 96, (w) => w.slice(6)], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96, (w) => w.slice(6)], // NAT64 well-known prefix
  ['2002::', 16, (w) => w.slice(1, 3)], // 6to4
];

/** The eight 16-bit words of an IPv6 address (with or without an embedded dotted quad or a zone id). */
export function ipv6Words(ip: string): number[] {
  let s = ip.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    s = s.slice(0, quad.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((x) => parseInt(x || '0', 16));
}

const inPrefix = (w: number[], net: string, prefix: number) => {
  const n = ipv6Words(net);
  for (let bit = 0; bit < prefix; bit += 16) {
    const take = Math.min(16, prefix - bit);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if ((w[bit / 16] & mask) !== (n[bit / 16] & mask)) return false;
  }
  return true;
};

export function isPublicAddress(ip: string): boolean {
  const kind = isIP(ip.replace(/%.*$/, ''));
  if (kind === 4) return !v4.check(ip, 'ipv4');
  if (kind !== 6) return false;
  const w = ipv6Words(ip);
  for (const [net, prefix, pick] of embedding) {
    if (inPrefix(w, net, prefix)) {
      const [hi, lo] = pick(w);
      if (net === '::' && hi === 0 && lo <= 1) return false; // :: and ::1
      return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
  }
  return !v6.check(ip, 'ipv6');
}

export class NotPublicError extends Error {}

/**
 * Resolves `host` (a name or a literal address) and returns one of its addresses, checked. Refused when it does not
 * resolve or when ANY of its addresses is not public: a name with one private address among public ones is refused
 * rather than tried, since the connection could land on either.
 */
export async function resolvePublic(host: string, resolver: Resolver = systemResolver): Promise<{ address: string; family: number }> {
  const bare = host.replace(/^\[|\]$/g, '');
  const kind = isIP(bare);
  let addresses: { address: string; family: number }[];
  if (kind) addresses = [{ address: bare, family: kind }];
  else {
    try {
      addresses = await resolver(bare);
    } catch {
      throw new NotPublicError(`${bare} does not resolve`);
    }
  }
  if (!addresses.length) throw new NotPublicError(`${bare} does not resolve`);
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (bad) throw new NotPublicError(`${bare} resolves to a non-public address`);
  return addresses[0];
}

/** An operator's allow-list of host names (`push.example.com`, `*.example.com`); empty allows any host. */
export const hostAllowed = (host: string, allowed: string[]) =>
  !allowed.length || allowed.some((a) => (a.startsWith('*.') ? host.endsWith(a.slice(1)) : host === a));
