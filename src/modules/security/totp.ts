import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as docs/design.md §5 fixes it: SHA-1, 6 digits, 30 s steps, window ±1. */
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secretBase32: string, label = 'account', issuer = '') {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });
}

export function totpUri(secretBase32: string, label: string, issuer: string): string {
  return totpOf(secretBase32, label, issuer).toString();
}

export function totpCode(secretBase32: string, atMs: number): string {
  return totpOf(secretBase32).generate({ timestamp: atMs });
}

/**
 * Returns the time step the code belongs to (within ±1 step of atMs), or null. The caller stores the step
 * and refuses any step not greater than the last accepted one (replay).
 */
export function matchTotpStep(secretBase32: string, code: string, atMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: atMs, window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(atMs / 1000 / TOTP_PERIOD_S) + delta;
}
