import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { DAY } from '../../kernel/clock.js';
import { randomDigits } from '../../lib/crypto.js';
import { addressKey } from '../../lib/address-key.js';
import { OTP_REQUESTER_DAILY_CAP, OTP_TTL_MS, otpCooldownMs, otpHash, type OtpDeps, type OtpPurpose } from './otp-rules.js';

/** Seconds left of the identifier's cooldown (0: a code may be sent). */
export async function identifierCooldown(exec: Executor, purpose: OtpPurpose, identifier: string, now: Date): Promise<number> {
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

/** OtpService.issue: a new code for the caller to deliver, within the identifier's cooldown and the requester's cap. */
export async function issueOtp({ db, clock, pepper }: OtpDeps, purpose: OtpPurpose, identifier: string, address?: string) {
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
                         VALUES (${purpose}, ${identifier}, ${otpHash(pepper, purpose, identifier, code)}, ${requester ?? null}, ${now},
                                 ${new Date(now.getTime() + OTP_TTL_MS)})`);
    return code;
  });
}
