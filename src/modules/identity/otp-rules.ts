import type { Db } from '../../db/client.js';
import { DAY, MINUTE, SECOND, type Clock } from '../../kernel/clock.js';
import { hmac } from '../../lib/crypto.js';
import type { AttemptLimit, AttemptLimits } from './attempt-limits.js';

/**
 * One-time codes (docs/design.md §5): 6 digits, 10 minutes, single use, hashed at rest. All counters live in the database.
 *
 * Nobody but the owner can spend the owner's ability to get and use a code.
 * - Sending: per identifier a cooldown of 60 s for the first OTP_FREE_SENDS codes of a day, then doubling with
 *   each further code up to OTP_MAX_COOLDOWN_MS: no per-identifier daily cap a stranger could use up, and every code
 *   a stranger asks for goes to the owner, whose newest code works. Per requester (IP, an IPv6 address by its /64:
 *   lib/address-key.ts) and identifier: OTP_REQUESTER_DAILY_CAP codes a day. (No per-IP cap across identifiers beyond
 *   the route's rate limit: carrier-grade NAT puts many customers behind one address.)
 * - Guessing (issue #28): a known device of the account (devices.ts) has OTP_MAX_ATTEMPTS wrong tries at each code
 *   of its own, which no other source spends. Every other source is unrecognised: each requester (IP) has
 *   OTP_MAX_ATTEMPTS wrong tries at a code; together they have OTP_UNTRUSTED_LIMIT wrong login (or step-up) codes per
 *   account before all of them are refused for a while; and a code answers at most OTP_MAX_WRONG_PER_CODE wrong
 *   tries from them, after which it works only for known devices. Tries are reserved before the comparison
 *   (conditional upserts) and the comparison and the count are one UPDATE: parallel guesses pass no limit.
 */
export type OtpPurpose = 'login' | 'phone' | 'stepup' | 'sending_number';

export const OTP_TTL_MS = 10 * MINUTE;
export const OTP_COOLDOWN_MS = 60 * SECOND;
export const OTP_FREE_SENDS = 5;
export const OTP_MAX_COOLDOWN_MS = 60 * MINUTE;
export const OTP_REQUESTER_DAILY_CAP = 10;
/** Wrong tries at one code from one requester. */
export const OTP_MAX_ATTEMPTS = 5;
/** Wrong tries at one code from all unrecognised sources together; the code then works only for known devices. */
export const OTP_MAX_WRONG_PER_CODE = 10;
/**
 * Wrong login (or step-up) codes per account from all unrecognised sources together, across codes: the next wrong
 * one locks them out for 15 minutes, doubling up to a day. Known devices keep signing in meanwhile.
 */
export const OTP_UNTRUSTED_LIMIT: AttemptLimit = { max: 10, lockMs: 15 * MINUTE, doubling: true, maxLockMs: DAY };
/** The purposes whose identifier is an account's e-mail address, so the account's shared budget applies. */
export const ACCOUNT_PURPOSES: ReadonlySet<OtpPurpose> = new Set(['login', 'stepup']);

/** Where a guess comes from: the caller's address, and the account's known device when it presented one. */
export interface GuessSource {
  ip?: string;
  /** The id of a known device of the account the identifier names (devices.ts `recognise`). */
  device?: string | null;
}

/** The cooldown after the n-th code of the last 24 hours. */
export function otpCooldownMs(sentToday: number): number {
  if (sentToday <= OTP_FREE_SENDS) return OTP_COOLDOWN_MS;
  return Math.min(OTP_COOLDOWN_MS * 2 ** (sentToday - OTP_FREE_SENDS), OTP_MAX_COOLDOWN_MS);
}

/** What the code use cases (otp-issue.ts, otp-verify.ts) use. */
export interface OtpDeps {
  db: Db;
  clock: Clock;
  pepper: string;
  attempts: AttemptLimits;
}

/** A code's hash at rest. */
export const otpHash = (pepper: string, purpose: string, identifier: string, code: string) =>
  hmac(pepper, `otp:${purpose}:${identifier}:${code}`);
