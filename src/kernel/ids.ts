import { randomFillSync, randomUUID } from 'node:crypto';

/**
 * Prefixed, time-ordered ids for references (docs/style.md rule 8): `vtu_01J...`.
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
  // 16 random bytes from a pool filled 4 KiB at a time (one getrandom call per id showed in profiles).
  if (poolAt + 16 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  let rand = '';
  for (let i = 0; i < 16; i++) rand += ALPHABET[pool[poolAt + i] % 32];
  poolAt += 16;
  return time + rand;
}

const pool = Buffer.alloc(4096);
let poolAt = pool.length;

export function prefixedId(prefix: string, now?: number): string {
  return `${prefix}_${ulid(now)}`;
}

export const uuid = (): string => randomUUID();
