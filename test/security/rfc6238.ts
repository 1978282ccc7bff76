import { createHmac } from 'node:crypto';
import { call, emailGrant, type Harness, type TestUser } from '../helpers/harness.js';

/** An independent RFC 4226/6238 implementation (node:crypto only) to check the service's TOTP against. */
export function hotp(key: Buffer, counter: bigint, digits = 6): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(counter);
  const h = createHmac('sha1', key).update(msg).digest();
  const off = h[h.length - 1] & 0xf;
  const bin = ((h[off] & 0x7f) << 24) | (h[off + 1] << 16) | (h[off + 2] << 8) | h[off + 3];
  return String(bin % 10 ** digits).padStart(digits, '0');
}

export function rfcTotp(key: Buffer, unixSeconds: number, digits = 6, period = 30): string {
  return hotp(key, BigInt(Math.floor(unixSeconds / period)), digits);
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export function base32Decode(s: string): Buffer {
  const clean = s.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const c of clean) {
    const i = B32.indexOf(c);
    if (i < 0) throw new Error(`bad base32 ${c}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export const codeNow = (h: Harness, secret: string) => rfcTotp(base32Decode(secret), Math.floor(h.clock.now().getTime() / 1000));

/** Enrols and confirms TOTP for the user through the API; returns the base32 secret. */
export async function enrollTotp(h: Harness, u: TestUser): Promise<string> {
  // Enrolling is a credential change: a grant from an e-mailed code first.
  const headers = await emailGrant(h, u);
  const begin = await call(h, 'POST', '/_serverFn/beginTotpEnrollmentBearer2FA', {}, { token: u.token, headers });
  if (begin.statusCode !== 200) throw new Error(begin.body);
  const secret = begin.json().secret as string;
  const conf = await call(
    h,
    'POST',
    '/_serverFn/confirmTotpEnrollmentBearer2FA',
    { code: codeNow(h, secret) },
    { token: u.token, headers },
  );
  if (conf.statusCode !== 200) throw new Error(conf.body);
  return secret;
}

/** A fresh grant from a TOTP code of the next time step (the current one may already be spent). */
export async function grantFor(h: Harness, u: TestUser, secret: string): Promise<string> {
  h.clock.advance(30_000);
  const res = await call(h, 'POST', '/_serverFn/verifyStepupChallengeBearer2FA', { totpCode: codeNow(h, secret) }, { token: u.token });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().grantToken;
}
