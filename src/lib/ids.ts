import { randomBytes, randomUUID } from 'node:crypto';

/**
 * Prefixed, time-ordered ids for references (STYLE rule 8): `vtu_01J...`.
 * 48-bit millisecond time in Crockford base32 followed by 80 random bits, like a ULID.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function ulid(now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = '';
  for (let i = 0; i < 16; i++) rand += ALPHABET[bytes[i] % 32];
  return time + rand;
}

export function prefixedId(prefix: string, now?: number): string {
  return `${prefix}_${ulid(now)}`;
}

export const uuid = (): string => randomUUID();
