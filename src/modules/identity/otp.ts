import { sql } from 'drizzle-orm';
import { one, type Db, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { DAY, MINUTE, SECOND, type Clock } from '../../kernel/clock.js';
import { hmac, randomDigits } from '../../lib/crypto.js';
import { addressKey } from '../../lib/address-key.js';
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
const ACCOUNT_PURPOSES: ReadonlySet<OtpPurpose> = new Set(['login', 'stepup']);

/** Where a guess comes from: the caller's address, and the account's known device when it presented one. */
export interface GuessSource {
  ip?: string;
  /** The id of a known device of the account the identifier names (devices.ts `recognise`). */
  device?: string | null;
}

export interface OtpService {
  /**
   * Creates a code and returns it for the caller to deliver; throws OTP_COOLDOWN or OTP_DAILY_LIMIT (this requester,
   * this identifier). `requester`: the caller's IP, counted by its address key (an IPv6 /64).
   */
  issue(purpose: OtpPurpose, identifier: string, requester?: string): Promise<string>;
  cooldownSeconds(purpose: OtpPurpose, identifier: string): Promise<number>;
  /** Consumes a valid code; throws OTP_INVALID, OTP_EXPIRED or RATE_LIMITED (unrecognised sources locked out). */
  verify(purpose: OtpPurpose, identifier: string, code: string, from?: GuessSource): Promise<void>;
}

/** The cooldown after the n-th code of the last 24 hours. */
export function otpCooldownMs(sentToday: number): number {
  if (sentToday <= OTP_FREE_SENDS) return OTP_COOLDOWN_MS;
  return Math.min(OTP_COOLDOWN_MS * 2 ** (sentToday - OTP_FREE_SENDS), OTP_MAX_COOLDOWN_MS);
}

const NO_REQUESTER = '-';
const invalid = () => new AppError('OTP_INVALID', 'The code is wrong or has already been used');
const untrustedLocked = (s: number) =>
  new AppError(
    'RATE_LIMITED',
    `Too many wrong codes for this account; try again in ${Math.ceil(s / 60)} minutes, or on a device you have signed in on before`,
    { retryAfter: s },
  );

export function createOtpService({
  db,
  clock,
  pepper,
  attempts,
}: {
  db: Db;
  clock: Clock;
  pepper: string;
  attempts: AttemptLimits;
}): OtpService {
  const hash = (purpose: string, identifier: string, code: string) => hmac(pepper, `otp:${purpose}:${identifier}:${code}`);

  async function identifierCooldown(exec: Executor, purpose: OtpPurpose, identifier: string, now: Date): Promise<number> {
    const stats = await one<{ last: Date | null; n: number }>(
      exec,
      sql`SELECT max(created_at) AS last, count(*)::int AS n FROM otp_codes
          WHERE purpose = ${purpose} AND identifier = ${identifier} AND created_at > ${new Date(now.getTime() - DAY)}`,
    );
    if (!stats?.last) return 0;
    const left = new Date(stats.last).getTime() + otpCooldownMs(stats.n) - now.getTime();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  async function assertRequesterAllowed(exec: Executor, purpose: OtpPurpose, identifier: string, requester: string, now: Date) {
    const r = await one<{ n: number }>(
      exec,
      sql`SELECT count(*)::int AS n FROM otp_codes
          WHERE purpose = ${purpose} AND identifier = ${identifier} AND requester = ${requester} AND created_at > ${new Date(now.getTime() - DAY)}`,
    );
    if ((r?.n ?? 0) >= OTP_REQUESTER_DAILY_CAP) {
      throw new AppError('OTP_DAILY_LIMIT', `At most ${OTP_REQUESTER_DAILY_CAP} codes a day can be sent from here; try again tomorrow`, {
        retryAfter: 3600,
      });
    }
  }

  return {
    cooldownSeconds: (purpose, identifier) => identifierCooldown(db, purpose, identifier, clock.now()),

    async issue(purpose, identifier, address) {
      const now = clock.now();
      const requester = address && addressKey(address);
      return db.transaction(async (tx) => {
        // Serialise sends per identifier so parallel requests cannot pass a cooldown or a cap together.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`otp:${purpose}:${identifier}`}))`);
        const s = await identifierCooldown(tx, purpose, identifier, now);
        if (s > 0) throw new AppError('OTP_COOLDOWN', `Please wait ${s} seconds before requesting another code`, { retryAfter: s });
        if (requester) await assertRequesterAllowed(tx, purpose, identifier, requester, now);
        const code = randomDigits(6);
        // A new code replaces any older one still open.
        await tx.execute(
          sql`UPDATE otp_codes SET consumed_at = ${now} WHERE purpose = ${purpose} AND identifier = ${identifier} AND consumed_at IS NULL`,
        );
        await tx.execute(sql`INSERT INTO otp_codes (purpose, identifier, code_hash, requester, created_at, expires_at)
                             VALUES (${purpose}, ${identifier}, ${hash(purpose, identifier, code)}, ${requester ?? null}, ${now},
                                     ${new Date(now.getTime() + OTP_TTL_MS)})`);
        return code;
      });
    },

    async verify(purpose, identifier, code, from = {}) {
      const now = clock.now();
      const row = await one<{ id: string; expires_at: Date }>(
        db,
        sql`SELECT id::text AS id, expires_at FROM otp_codes
            WHERE purpose = ${purpose} AND identifier = ${identifier} AND consumed_at IS NULL
            ORDER BY created_at DESC LIMIT 1`,
      );
      if (!row) throw invalid();
      if (new Date(row.expires_at).getTime() <= now.getTime()) throw new AppError('OTP_EXPIRED', 'The code has expired; request a new one');
      // Reserve this source's try at this code before comparing: a source that used its tries is refused unchecked.
      const guesser = from.device ? `device:${from.device}` : from.ip ? addressKey(from.ip) : NO_REQUESTER;
      const reserved = await one(
        db,
        sql`INSERT INTO otp_guesses (code_id, requester, wrong) VALUES (${row.id}, ${guesser}, 1)
            ON CONFLICT (code_id, requester) DO UPDATE SET wrong = otp_guesses.wrong + 1 WHERE otp_guesses.wrong < ${OTP_MAX_ATTEMPTS}
            RETURNING wrong`,
      );
      if (!reserved) throw new AppError('OTP_INVALID', 'Too many wrong codes; request a new code');
      const h = hash(purpose, identifier, code);
      if (from.device) {
        // A known device: compare and consume in one statement; its wrong tries count only against its own budget.
        const r = await one<{ ok: boolean }>(
          db,
          sql`UPDATE otp_codes SET consumed_at = CASE WHEN code_hash = ${h} THEN ${now}::timestamptz ELSE NULL END
              WHERE id = ${row.id} AND consumed_at IS NULL AND expires_at > ${now}
              RETURNING code_hash = ${h} AS ok`,
        );
        if (!r?.ok) throw invalid();
        return;
      }
      const accountKey = ACCOUNT_PURPOSES.has(purpose) ? `otp-untrusted:${purpose}:${hmac(pepper, `otp-id:${identifier}`)}` : null;
      let tries = 0;
      if (accountKey) {
        const r = await attempts.reserve(accountKey, OTP_UNTRUSTED_LIMIT);
        if (!r.ok) throw untrustedLocked(r.retryAfter);
        tries = r.tries;
      }
      // Compare, count and consume in one statement: single use, and no more than OTP_MAX_WRONG_PER_CODE wrong tries.
      const r = await one<{ ok: boolean }>(
        db,
        sql`UPDATE otp_codes SET attempts = attempts + CASE WHEN code_hash = ${h} THEN 0 ELSE 1 END,
              consumed_at = CASE WHEN code_hash = ${h} THEN ${now}::timestamptz ELSE NULL END
            WHERE id = ${row.id} AND consumed_at IS NULL AND expires_at > ${now} AND attempts < ${OTP_MAX_WRONG_PER_CODE}
            RETURNING code_hash = ${h} AS ok`,
      );
      if (accountKey) {
        if (!r) await attempts.release(accountKey);
        else if (r.ok) await attempts.succeed(accountKey);
        else await attempts.fail(accountKey, tries, OTP_UNTRUSTED_LIMIT);
      }
      if (!r?.ok) throw invalid();
    },
  };
}
