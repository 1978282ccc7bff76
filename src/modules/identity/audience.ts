import { sql } from 'drizzle-orm';
import { one, type Executor } from '../../db/client.js';

/** Who a broadcast's audience names (notifications' `Audience`): every condition given holds; none is everyone. */
export interface AccountsFilter {
  minKycTier?: number;
  joinedAfter?: string;
  joinedBefore?: string;
}

/**
 * How many accounts a broadcast's audience holds now, for its preview (issue 44): the same conditions as the inbox's
 * (notifications' `inAudience`): the KYC tier at least `minKycTier`, joined at or after `joinedAfter` and before
 * `joinedBefore`.
 */
export async function countAccounts(db: Executor, f: AccountsFilter): Promise<number> {
  const row = await one<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM users
         WHERE kyc_tier >= ${f.minKycTier ?? 0}
           AND (${f.joinedAfter ?? null}::timestamptz IS NULL OR created_at >= ${f.joinedAfter ?? null}::timestamptz)
           AND (${f.joinedBefore ?? null}::timestamptz IS NULL OR created_at < ${f.joinedBefore ?? null}::timestamptz)`,
  );
  return Number(row?.n ?? 0);
}
