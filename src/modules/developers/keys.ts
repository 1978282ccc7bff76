import { randomToken, sha256 } from '../../lib/crypto.js';

/**
 * An API key's secret (issue 45): `<brand>_sk_<mode>_<32 random bytes, base64url>`. The brand and mode come first so a
 * secret scanner finds a leaked key by its pattern and the service tells a key from a session token without a query.
 * Only the SHA-256 of the secret is stored (like refresh tokens): 256 random bits need no pepper or slow hash.
 */
export type KeyMode = 'test' | 'live';

export const KEY_PATTERN = /^([a-z][a-z0-9]{1,15})_sk_(test|live)_([A-Za-z0-9_-]{43})$/;

export function newSecret(brand: string, mode: KeyMode): { secret: string; hash: string; prefix: string } {
  const secret = `${brand}_sk_${mode}_${randomToken(32)}`;
  return { secret, hash: sha256(secret), prefix: secret.slice(0, `${brand}_sk_${mode}_`.length + 4) };
}

/** The key's mode when `token` is shaped like one of this service's keys, else null (a session token). */
export function keyModeOf(token: string, brand: string): KeyMode | null {
  const m = KEY_PATTERN.exec(token);
  return m && m[1] === brand ? (m[2] as KeyMode) : null;
}

/** Whether a token is shaped like an API key of any brand (`*_sk_test_*`, `*_sk_live_*`). */
export const looksLikeKey = (token: string) => KEY_PATTERN.test(token);

export const hashOfSecret = (secret: string) => sha256(secret);
