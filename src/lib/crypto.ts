import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export function sha256(s: string | Buffer): string {
  return createHash('sha256').update(s).digest('hex');
}

export function hmac(secret: string, data: string, algo: 'sha256' | 'sha512' = 'sha256'): string {
  return createHmac(algo, secret).update(data).digest('hex');
}

/** Constant-time comparison of two hex or text strings. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Uniform decimal digits: randomInt rejects the bytes a modulo would skew (a byte % 10 favours 0-5). */
export function randomDigits(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += randomInt(10).toString();
  return s;
}

/** AES-256-GCM with a key derived from the configured secret; output is iv.tag.ciphertext in base64url. */
export function encrypt(secret: string, plaintext: string): string {
  const key = createHash('sha256').update(secret).digest();
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return [iv, c.getAuthTag(), ct].map((b) => b.toString('base64url')).join('.');
}

export function decrypt(secret: string, token: string): string {
  const [iv, tag, ct] = token.split('.').map((p) => Buffer.from(p, 'base64url'));
  const key = createHash('sha256').update(secret).digest();
  const d = createDecipheriv('aes-256-gcm', key, iv);
  d.setAuthTag(tag);
  return Buffer.concat([d.update(ct), d.final()]).toString('utf8');
}
