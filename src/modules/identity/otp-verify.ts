import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { hmac } from '../../lib/crypto.js';
import { addressKey } from '../../lib/address-key.js';
import {
  ACCOUNT_PURPOSES,
  OTP_MAX_ATTEMPTS,
  OTP_MAX_WRONG_PER_CODE,
  OTP_UNTRUSTED_LIMIT,
  otpHash,
  type GuessSource,
  type OtpDeps,
  type OtpPurpose,
} from './otp-rules.js';

const NO_REQUESTER = '-';
const invalid = () => new AppError('OTP_INVALID', 'The code is wrong or has already been used');
const untrustedLocked = (s: number) =>
  new AppError(
    'RATE_LIMITED',
    `Too many wrong codes for this account; try again in ${Math.ceil(s / 60)} minutes, or on a device you have signed in on before`,
    { retryAfter: s },
  );

/** OtpService.verify: consumes a valid code; throws OTP_INVALID, OTP_EXPIRED or RATE_LIMITED. */
export async function verifyOtp(
  { db, clock, pepper, attempts }: OtpDeps,
  purpose: OtpPurpose,
  identifier: string,
  code: string,
  from: GuessSource = {},
) {
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
  const h = otpHash(pepper, purpose, identifier, code);
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
}
