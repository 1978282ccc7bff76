import { AppError } from '../../kernel/errors.js';
import { MINUTE } from '../../kernel/clock.js';

/**
 * PINs (docs/design.md §5): 5 wrong tries lock that PIN for 15 minutes, doubling on each repeat lock. Transaction PIN 4
 * digits, login PIN 6 digits.
 *
 * The check and the count are one statement. A PIN is stored twice: as scrypt over pepper +
 * per-row salt (`hash`, docs/design.md §5) and as a check MAC, HMAC-SHA256 keyed by the pepper over (kind, user, PIN)
 * (`check_mac`). verify compares the MAC inside the UPDATE that counts the failure and sets the lock, under the
 * row's lock, so parallel guesses are checked one at a time and none is checked while the PIN is locked: at most
 * PIN_MAX_ATTEMPTS wrong guesses per lock, however many arrive at once. The user id in the MAC makes it unique per
 * account; a new PIN gets a new MAC. Without the pepper neither value can be
 * brute-forced from a database dump; with it, 10,000 candidates are quick to try against either (docs/security.md):
 * the attempt lock is the protection. A row written before the MAC existed is checked once with scrypt, the attempt
 * reserved before the comparison, and gets its MAC on success.
 */
export type PinKind = 'transaction' | 'login';
export const PIN_MAX_ATTEMPTS = 5;
export const PIN_LOCK_MS = 15 * MINUTE;

/**
 * The refusals of a PIN check, with what a client needs to say it in its own words (issue 29): `details.triesLeft`
 * on a wrong PIN, `details.lockedUntil` (and `triesLeft: 0`) on a lock. Also used by PIN login for identifiers
 * without a PIN, so both answers stay alike.
 */
export function wrongPinError(code: 'INVALID_PIN' | 'INVALID_CREDENTIALS', triesLeft?: number): AppError {
  const base = code === 'INVALID_PIN' ? 'The transaction PIN is wrong' : 'Wrong identifier or PIN';
  if (triesLeft === undefined) return new AppError(code, base);
  const left = Math.max(0, triesLeft);
  return new AppError(code, `${base}; ${left} ${left === 1 ? 'try' : 'tries'} left before it locks`, { details: { triesLeft: left } });
}

export function pinLockedError(retryAfterSeconds: number, now: Date): AppError {
  const s = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError('PIN_LOCKED', `Too many wrong PINs; try again in ${Math.ceil(s / 60)} minutes`, {
    retryAfter: s,
    details: { triesLeft: 0, lockedUntil: new Date(now.getTime() + s * 1000).toISOString() },
  });
}
