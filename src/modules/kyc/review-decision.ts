import { sql } from 'drizzle-orm';
import { one } from '../../db/client.js';
import type { AuthUser } from '../../kernel/actor.js';
import { AppError, notFound } from '../../kernel/errors.js';
import { setTier } from '../identity/api.js';
import type { KycReviewDeps } from './deps.js';
import { TIER_LABEL, type KycStatus, type SubmissionRow } from './rules.js';

/** Operator decision: audited, notified, and on approval raises users.kyc_tier and emits kyc.approved. */
export async function adminReview(
  deps: KycReviewDeps,
  admin: AuthUser,
  input: { submissionId: string; decision: 'approve' | 'reject'; reason?: string },
) {
  const { db, clock, forgetUser, ninLinkedElsewhere } = deps;
  const { submissionView, userFacts, decided } = deps.submissions;
  const outcome = await db.transaction(async (tx) => {
    const current = await one<SubmissionRow>(tx, sql`SELECT * FROM kyc_submissions WHERE id = ${input.submissionId} FOR UPDATE`);
    if (!current) throw notFound('KYC submission');
    if (current.status !== 'pending') throw new AppError('CONFLICT', `This submission was already ${current.status}`);
    const tier = Number(current.tier);
    const u = await userFacts(tx, current.user_id, true);
    if (input.decision === 'approve') {
      if (u.kyc_tier < tier - 1) throw new AppError('CONFLICT', `The user no longer holds ${TIER_LABEL[tier - 1]}`);
      if (tier === 2 && current.identifier_hash && (await ninLinkedElsewhere(tx, current.user_id, current.identifier_hash, ['approved']))) {
        throw new AppError('CONFLICT', 'This NIN is already approved on another account; reject this submission');
      }
    }
    const now = clock.now();
    const status: KycStatus = input.decision === 'approve' ? 'approved' : 'rejected';
    const reason = status === 'rejected' ? input.reason!.trim() : null;
    const s = await one<SubmissionRow>(
      tx,
      sql`UPDATE kyc_submissions SET status = ${status}, reason = ${reason}, reviewed_by = ${admin.id}, reviewed_at = ${now}, updated_at = ${now}
          WHERE id = ${current.id} AND status = 'pending' RETURNING *`,
    );
    if (!s) throw new AppError('CONFLICT', 'This submission was already decided');
    if (status === 'approved') await setTier(tx, s.user_id, tier, now);
    await decided(tx, s, status, reason);
    return { view: submissionView(s), userId: s.user_id, approved: status === 'approved' };
  });
  // The new tier gates this user's next request on this instance at once (others hear the trigger).
  if (outcome.approved) forgetUser(outcome.userId);
  return outcome.view;
}
