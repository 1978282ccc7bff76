import { isIP } from 'node:net';
import { isPublicAddress } from './public-address.js';

/**
 * The town an IPv4 address is in, as a sign-in alert names it (issue 43: "a new sign-in on Chrome on Android near
 * Ikeja"), from the offline GeoLite2 city data that fast-geoip ships (MIT code; the data is MaxMind's GeoLite2, CC BY-SA
 * 4.0). Nothing leaves the machine. fast-geoip keeps its data in small JSON chunks on disk and reads only the few a
 * look-up needs, and the module itself is imported on the first look-up, so a process that never alerts loads nothing
 * and the resident memory grows by about 6.5 MB after the first ones (measured: docs/decisions.md).
 *
 * No town (null) for a private, loopback, shared or reserved address (public-address.ts), an IPv6 address (the data
 * has IPv4 ranges only; an IPv4-mapped address is read as its IPv4 one), an address the data places in no town, or a
 * look-up that fails: the alert then names only the device. A town outside Nigeria carries its country's code.
 */
export type TownOf = (ip: string | undefined) => Promise<string | null>;

interface GeoRecord {
  country: string;
  city: string;
}
type Lookup = (ip: string) => Promise<GeoRecord | null>;

let loading: Promise<Lookup> | undefined;
const geoLookup = (): Promise<Lookup> => (loading ??= import('fast-geoip').then((m: { default: { lookup: Lookup } }) => m.default.lookup));

const MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

export const townOf: TownOf = async (ip) => {
  const v4 = ip?.replace(MAPPED, '$1');
  if (!v4 || isIP(v4) !== 4 || !isPublicAddress(v4)) return null;
  try {
    const found = await (await geoLookup())(v4);
    if (!found?.city) return null;
    return found.country === 'NG' || !found.country ? found.city : `${found.city}, ${found.country}`;
  } catch {
    return null;
  }
};
