import { NETWORKS, networkOf, normalizePhone, type Network } from '../../../src/kernel/phone';

/** The network a Nigerian number belongs to, from its prefix (the service's own table); null when unknown. */
export function detectNetwork(phone: string): Network | null {
  const local = normalizePhone(phone);
  return local ? networkOf(local) : null;
}

export const NETWORK_NAMES: Record<Network, string> = { mtn: 'MTN', airtel: 'Airtel', glo: 'Glo', '9mobile': '9mobile' };
export { NETWORKS, normalizePhone, type Network };

/** Numbers from a pasted list or column: one per line, or separated by commas, semicolons or tabs; normalised, de-duplicated, bad ones apart. */
export function parseNumbers(text: string): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of text
    .split(/[\n\r,;\t]+/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const n = normalizePhone(raw);
    if (!n) invalid.push(raw);
    else if (!valid.includes(n)) valid.push(n);
  }
  return { valid, invalid };
}
