import { isIPv6, SocketAddress } from 'node:net';
import { ipv6Words } from './public-address.js';

/**
 * The client a per-address limit or budget counts (issue 41). An IPv4 address is itself. An IPv4-mapped or
 * IPv4-translated IPv6 address (`::ffff:a.b.c.d`, `::ffff:0:a.b.c.d`, any case) is its IPv4 address: a dual-stack
 * listener sees IPv4 clients that way, and one client must not hold two budgets. Any other IPv6 address is its /64 in
 * canonical form (`2001:db8:1:2::/64`): a subscriber gets a whole /64 and picks new addresses in it at will (privacy
 * addresses, RFC 8981), so an address of its own would be a fresh budget per request. A zone id is dropped. Only
 * limit keys use it; audit rows, logs and notices keep the exact address.
 */
export function addressKey(ip: string): string {
  const bare = ip.replace(/%.*$/, '');
  if (!isIPv6(bare)) return ip;
  const w = ipv6Words(bare);
  const leadingZeros = w[0] === 0 && w[1] === 0 && w[2] === 0 && w[3] === 0;
  const mapped = w[4] === 0 && w[5] === 0xffff;
  const translated = w[4] === 0xffff && w[5] === 0;
  if (leadingZeros && (mapped || translated)) return `${w[6] >> 8}.${w[6] & 255}.${w[7] >> 8}.${w[7] & 255}`;
  const prefix = w.slice(0, 4).map((x) => x.toString(16));
  return `${new SocketAddress({ address: `${prefix.join(':')}::`, family: 'ipv6' }).address}/64`;
}
