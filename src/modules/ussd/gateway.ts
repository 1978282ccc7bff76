import { BlockList, isIP } from 'node:net';

/**
 * The gateway's allow-list (USSD_ALLOWED_IPS, issue 46): Africa's Talking signs no USSD callback, so the callback is
 * open only to the gateway's published addresses. Null: any caller (the sandbox's default); empty: none.
 */
export function allowsGateway(allowed: readonly string[] | null): (ip: string) => boolean {
  if (allowed === null) return () => true;
  const list = new BlockList();
  for (const entry of allowed) {
    const [address, bits] = entry.split('/');
    const family = isIP(address ?? '') === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address!, family);
    else list.addSubnet(address!, Number(bits), family);
  }
  return (ip) => {
    const bare = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
    const family = isIP(bare);
    return family !== 0 && list.check(bare, family === 6 ? 'ipv6' : 'ipv4');
  };
}
