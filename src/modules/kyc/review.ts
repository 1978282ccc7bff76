import { sql, type SQL } from 'drizzle-orm';
import { one, rows } from '../../db/client.js';
import { notFound } from '../../kernel/errors.js';
import type { AuthUser } from '../../kernel/actor.js';
import type { KycReviewDeps } from './deps.js';
import { adminReview } from './review-decision.js';
import type { KycStatus, SubmissionRow } from './rules.js';

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
export function createKycReview(deps: KycReviewDeps) {
  return {
    adminList: (input: { status: KycStatus; tier?: number; sort?: KycSort; limit: number; offset: number }) => adminList(deps, input),
    adminGet: (submissionId: string) => adminGet(deps, submissionId),
    adminReview: (admin: AuthUser, input: { submissionId: string; decision: 'approve' | 'reject'; reason?: string }) =>
      adminReview(deps, admin, input),
  };
}

/** Sorted from a fixed list (KYC_SORTS): newest, oldest (the longest waiting) or by tier, lowest first. */
export async function adminList(
  { db, submissions }: KycReviewDeps,
  input: { status: KycStatus; tier?: number; sort?: KycSort; limit: number; offset: number },
) {
  const list = await rows<SubmissionRow & { email: string }>(
    db,
    sql`SELECT s.*, u.email FROM kyc_submissions s JOIN users u ON u.id = s.user_id
        WHERE s.status = ${input.status} ${input.tier ? sql`AND s.tier = ${input.tier}` : sql``}
        ORDER BY ${KYC_ORDER[input.sort ?? 'newest']} LIMIT ${input.limit + 1} OFFSET ${input.offset}`,
  );
  return list.map((s) => ({ ...submissions.submissionView(s), userId: s.user_id, email: s.email }));
}

/** adminGet: one submission with its owner's facts and its files' signed URLs. */
export async function adminGet(deps: KycReviewDeps, submissionId: string) {
  const { db } = deps;
  const { signUrl, fileRow } = deps.files;
  const { submissionView } = deps.submissions;
  const s = await one<SubmissionRow & { email: string; full_name: string | null; phone: string | null; phone_verified_at: Date | null }>(
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
}
