import { sql } from 'drizzle-orm';
import { rows, type Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { accessOf } from './access.js';
import type { KycStatus } from './rules.js';
import { userFacts } from './submissions.js';

/** The customer-facing text of a KYC refusal; anything but a KYC_TIER_REQUIRED is a fault and is thrown on. */
function refusalText(err: unknown): string {
  if (err instanceof AppError && err.code === 'KYC_TIER_REQUIRED') return err.message;
  throw err;
}

/** status: the caller's tier, each tier's latest submission and what the tier gives access to. */
export async function status(
  { db, assertTransferEligible }: { db: Db; assertTransferEligible: (userId: string) => Promise<unknown> },
  userId: string,
) {
  const u = await userFacts(db, userId);
  const latest = await rows<{ tier: number; status: KycStatus; reason: string | null }>(
    db,
    sql`SELECT DISTINCT ON (tier) tier, status, reason FROM kyc_submissions WHERE user_id = ${userId} ORDER BY tier, seq DESC`,
  );
  const byTier = new Map(latest.map((r) => [Number(r.tier), r]));
  const tier = Number(u.kyc_tier);
  const tiers = [1, 2, 3].map((t) => {
    const r = byTier.get(t);
    // A tier raised outside a submission (operator tooling, migration of old users) still reads approved.
    if (!r) return { tier: t, status: t <= tier ? ('approved' as const) : ('none' as const) };
    return { tier: t, status: r.status, ...(r.status === 'rejected' && r.reason ? { reason: r.reason } : {}) };
  });
  const transferRefusal =
    tier >= 2
      ? await assertTransferEligible(userId).then(
          () => undefined,
          (err: unknown) => refusalText(err),
        )
      : undefined;
  return { tier, tiers, access: accessOf(tier, tiers, transferRefusal) };
}
