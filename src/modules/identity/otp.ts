import { sql } from 'drizzle-orm';
import { one, type Db } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import { DAY, MINUTE, SECOND, type Clock } from '../../lib/clock.js';
import { hmac, randomDigits, safeEqual } from '../../lib/crypto.js';

/**
 * One-time codes (DESIGN §5): 6 digits, 10 minutes, single use, hashed at rest, 5 wrong tries burn the code,
 * 60 s resend cooldown and a daily cap of 10 per identifier and purpose. All counters live in the database.
 */
export type OtpPurpose = 'login' | 'phone' | 'stepup';

export const OTP_TTL_MS = 10 * MINUTE;
export const OTP_COOLDOWN_MS = 60 * SECOND;
export const OTP_DAILY_CAP = 10;
export const OTP_MAX_ATTEMPTS = 5;

export interface OtpService {
  /** Creates a code and returns it for the caller to deliver; throws OTP_COOLDOWN or OTP_DAILY_LIMIT. */
  issue(purpose: OtpPurpose, identifier: string): Promise<string>;
  cooldownSeconds(purpose: OtpPurpose, identifier: string): Promise<number>;
  /** Consumes a valid code; throws OTP_INVALID or OTP_EXPIRED. */
  verify(purpose: OtpPurpose, identifier: string, code: string): Promise<void>;
}

export function createOtpService({ db, clock, pepper }: { db: Db; clock: Clock; pepper: string }): OtpService {
  const hash = (purpose: string, identifier: string, code: string) => hmac(pepper, `otp:${purpose}:${identifier}:${code}`);

  async function cooldownSeconds(purpose: OtpPurpose, identifier: string): Promise<number> {
    const last = await one<{ created_at: Date }>(
      db,
      sql`SELECT created_at FROM otp_codes WHERE purpose = ${purpose} AND identifier = ${identifier} ORDER BY created_at DESC LIMIT 1`,
    );
    if (!last) return 0;
    const left = new Date(last.created_at).getTime() + OTP_COOLDOWN_MS - clock.now().getTime();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  return {
    cooldownSeconds,
    async issue(purpose, identifier) {
      const now = clock.now();
      return db.transaction(async (tx) => {
        // Serialise sends per identifier so two parallel requests cannot both pass the cooldown.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`otp:${purpose}:${identifier}`}))`);
        const stats = await one<{ last: Date | null; n: number }>(
          tx,
          sql`SELECT max(created_at) AS last, count(*)::int AS n FROM otp_codes
              WHERE purpose = ${purpose} AND identifier = ${identifier} AND created_at > ${new Date(now.getTime() - DAY)}`,
        );
        if (stats?.last) {
          const left = new Date(stats.last).getTime() + OTP_COOLDOWN_MS - now.getTime();
          if (left > 0) {
            const s = Math.ceil(left / 1000);
            throw new AppError('OTP_COOLDOWN', `Please wait ${s} seconds before requesting another code`, { retryAfter: s });
          }
        }
        if ((stats?.n ?? 0) >= OTP_DAILY_CAP) {
          throw new AppError('OTP_DAILY_LIMIT', `At most ${OTP_DAILY_CAP} codes a day can be sent; try again tomorrow`, {
            retryAfter: 3600,
          });
        }
        const code = randomDigits(6);
        // A new code replaces any older one still open.
        await tx.execute(
          sql`UPDATE otp_codes SET consumed_at = ${now} WHERE purpose = ${purpose} AND identifier = ${identifier} AND consumed_at IS NULL`,
        );
        await tx.execute(sql`INSERT INTO otp_codes (purpose, identifier, code_hash, created_at, expires_at)
                             VALUES (${purpose}, ${identifier}, ${hash(purpose, identifier, code)}, ${now}, ${new Date(now.getTime() + OTP_TTL_MS)})`);
        return code;
      });
    },
    async verify(purpose, identifier, code) {
      const now = clock.now();
      const row = await one<{ id: string; code_hash: string; expires_at: Date; attempts: number }>(
        db,
        sql`SELECT id::text AS id, code_hash, expires_at, attempts FROM otp_codes
            WHERE purpose = ${purpose} AND identifier = ${identifier} AND consumed_at IS NULL
            ORDER BY created_at DESC LIMIT 1`,
      );
      if (!row) throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
      if (new Date(row.expires_at).getTime() <= now.getTime()) throw new AppError('OTP_EXPIRED', 'The code has expired; request a new one');
      if (!safeEqual(row.code_hash, hash(purpose, identifier, code))) {
        await db.execute(sql`UPDATE otp_codes SET attempts = attempts + 1,
                               consumed_at = CASE WHEN attempts + 1 >= ${OTP_MAX_ATTEMPTS} THEN ${now}::timestamptz ELSE consumed_at END
                             WHERE id = ${row.id}`);
        throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
      }
      // Single use: only one concurrent verification can consume the code.
      const consumed = await one(db, sql`UPDATE otp_codes SET consumed_at = ${now} WHERE id = ${row.id} AND consumed_at IS NULL RETURNING id`);
      if (!consumed) throw new AppError('OTP_INVALID', 'The code is wrong or has already been used');
    },
  };
}
