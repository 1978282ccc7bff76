import { sql } from 'drizzle-orm';
import { one, type Db, type Executor } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { DAY, HOUR, lagosDate, type Clock } from '../../kernel/clock.js';
import { hmac } from '../../lib/crypto.js';
import { NIN_LOOKUPS_PER_DAY, type KycStatus } from './rules.js';

/** Tier 2's NIN checks: the keyed NIN hash, the daily look-up quota, and who else holds a NIN or a verified name. */
export function createNinChecks(deps: { db: Db; clock: Clock; dataKey: string }) {
  const { db, clock, dataKey } = deps;
  const ninHash = (nin: string) => hmac(dataKey, `kyc-nin\n${nin}`);

  /**
   * Takes one of the caller's NIN look-ups for today, before the provider is asked: one conditional upsert, so
   * parallel requests cannot pass the quota. RATE_LIMITED until the next Lagos midnight when none is left.
   */
  async function takeNinLookup(userId: string) {
    const now = clock.now();
    const taken = await one<{ used: number }>(
      db,
      sql`INSERT INTO kyc_nin_lookups (user_id, day, used) VALUES (${userId}, ${lagosDate(now)}::date, 1)
          ON CONFLICT (user_id, day) DO UPDATE SET used = kyc_nin_lookups.used + 1 WHERE kyc_nin_lookups.used < ${NIN_LOOKUPS_PER_DAY}
          RETURNING used`,
    );
    if (taken) return;
    const lagosMs = now.getTime() + HOUR; // Lagos is UTC+1, no DST (kernel/clock.ts)
    const untilMidnight = (Math.floor(lagosMs / DAY) + 1) * DAY - lagosMs;
    throw new AppError('RATE_LIMITED', `At most ${NIN_LOOKUPS_PER_DAY} NIN look-ups a day; try again tomorrow`, {
      retryAfter: Math.ceil(untilMidnight / 1000),
    });
  }

  async function ninLinkedElsewhere(exec: Executor, userId: string, hash: string, statuses: KycStatus[]) {
    const r = await one(
      exec,
      sql`SELECT id FROM kyc_submissions WHERE tier = 2 AND identifier_hash = ${hash} AND user_id <> ${userId}
          AND status IN (${sql.join(
            statuses.map((s) => sql`${s}`),
            sql`, `,
          )}) LIMIT 1`,
    );
    return Boolean(r);
  }

  async function latestVerifiedName(exec: Executor, userId: string, tier: number) {
    const r = await one<{ verified_name: string | null }>(
      exec,
      sql`SELECT verified_name FROM kyc_submissions WHERE user_id = ${userId} AND tier = ${tier} AND status = 'approved' ORDER BY seq DESC LIMIT 1`,
    );
    return r?.verified_name ?? null;
  }

  return { ninHash, takeNinLookup, ninLinkedElsewhere, latestVerifiedName };
}

export type NinChecks = ReturnType<typeof createNinChecks>;
