import { sql, type SQL } from 'drizzle-orm';
import { one, rows, type Db } from '../../db/client.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { Clock } from '../../kernel/clock.js';
import { setTier } from '../identity/api.js';
import type { KycFiles } from './files.js';
import type { NinChecks } from './nin-checks.js';
import type { KycSubmissions } from './submissions.js';
import { TIER_LABEL, type KycStatus, type SubmissionRow } from './rules.js';

export const KYC_SORTS = ['newest', 'oldest', 'tier'] as const;
export type KycSort = (typeof KYC_SORTS)[number];
const KYC_ORDER: Record<KycSort, SQL> = {
  newest: sql`s.created_at DESC, s.seq DESC`,
  oldest: sql`s.created_at ASC, s.seq ASC`,
  tier: sql`s.tier ASC, s.created_at ASC, s.seq ASC`,
};

/**
 * The operators' side of KYC: the queue of submissions, one submission with its files, and the decision (audited by
 * the registry, notified, and on approval the raised tier announced as kyc.approved).
 */
export function createKycReview(deps: {
  db: Db;
  clock: Clock;
  files: KycFiles;
  submissions: KycSubmissions;
  ninLinkedElsewhere: NinChecks['ninLinkedElsewhere'];
  /** Drops the cached session state of a user after this instance's own commit (identity/session-cache.ts). */
  forgetUser: (userId: string) => void;
}) {
  const { db, clock, forgetUser, ninLinkedElsewhere } = deps;
  const { signUrl, fileRow } = deps.files;
  const { submissionView, userFacts, decided } = deps.submissions;
  return {
    /** Sorted from a fixed list (KYC_SORTS): newest, oldest (the longest waiting) or by tier, lowest first. */
    async adminList(input: { status: KycStatus; tier?: number; sort?: KycSort; limit: number; offset: number }) {
      const list = await rows<SubmissionRow & { email: string }>(
        db,
        sql`SELECT s.*, u.email FROM kyc_submissions s JOIN users u ON u.id = s.user_id
            WHERE s.status = ${input.status} ${input.tier ? sql`AND s.tier = ${input.tier}` : sql``}
            ORDER BY ${KYC_ORDER[input.sort ?? 'newest']} LIMIT ${input.limit + 1} OFFSET ${input.offset}`,
      );
      return list.map((s) => ({ ...submissionView(s), userId: s.user_id, email: s.email }));
    },

    async adminGet(submissionId: string) {
      const s = await one<
        SubmissionRow & { email: string; full_name: string | null; phone: string | null; phone_verified_at: Date | null }
      >(
        db,
        sql`SELECT s.*, u.email, u.full_name, u.phone, u.phone_verified_at FROM kyc_submissions s JOIN users u ON u.id = s.user_id WHERE s.id = ${submissionId}`,
      );
      if (!s) throw notFound('KYC submission');
      const files = [];
      for (const ref of s.files) {
        const f = await fileRow(db, ref.path);
        if (f) files.push({ role: ref.role, path: ref.path, contentType: f.content_type, sizeBytes: f.size_bytes, ...signUrl(ref.path) });
      }
      return {
        ...submissionView(s),
        userId: s.user_id,
        email: s.email,
        profileName: s.full_name,
        phone: s.phone,
        phoneVerified: Boolean(s.phone_verified_at),
        verifiedName: s.verified_name,
        details: s.details,
        files,
        reviewedBy: s.reviewed_by,
      };
    },

    /** Operator decision: audited, notified, and on approval raises users.kyc_tier and emits kyc.approved. */
    async adminReview(admin: AuthUser, input: { submissionId: string; decision: 'approve' | 'reject'; reason?: string }) {
      const outcome = await db.transaction(async (tx) => {
        const current = await one<SubmissionRow>(tx, sql`SELECT * FROM kyc_submissions WHERE id = ${input.submissionId} FOR UPDATE`);
        if (!current) throw notFound('KYC submission');
        if (current.status !== 'pending') throw new AppError('CONFLICT', `This submission was already ${current.status}`);
        const tier = Number(current.tier);
        const u = await userFacts(tx, current.user_id, true);
        if (input.decision === 'approve') {
          if (u.kyc_tier < tier - 1) throw new AppError('CONFLICT', `The user no longer holds ${TIER_LABEL[tier - 1]}`);
          if (
            tier === 2 &&
            current.identifier_hash &&
            (await ninLinkedElsewhere(tx, current.user_id, current.identifier_hash, ['approved']))
          ) {
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
    },
  };
}
