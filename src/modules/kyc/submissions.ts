import { sql } from 'drizzle-orm';
import { writeAudit } from '../../db/audit.js';
import { one, type Db, type Executor } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import { AppError, notFound } from '../../kernel/errors.js';
import type { NotificationInput } from '../../kernel/notification.js';
import type { Work } from '../../platform/change.js';
import type { KycFiles } from './files.js';
import { uuid } from '../../kernel/ids.js';
import { encrypt } from '../../lib/crypto.js';
import { fillFullName, setTier } from '../identity/api.js';
import {
  CONTENT_TYPES,
  IMAGE_TYPES,
  TIER_LABEL,
  type KycFileRef,
  type KycStatus,
  type SubmissionDetails,
  type SubmissionRow,
} from './rules.js';

/** What the submission bookkeeping uses. */
export interface KycSubmissionsDeps {
  db: Db;
  clock: Clock;
  work: Work;
  dataKey: string;
  files: KycFiles;
}

/**
 * The submission bookkeeping every KYC tier shares: the applicant's facts, the ladder rule (previous tier approved,
 * one open submission per tier), recording a submission (with its files, under the user's row lock), the audit row
 * and the decision notice, and the submission as the API shows it.
 */
export function createKycSubmissions(deps: KycSubmissionsDeps) {
  return {
    iso,
    submissionView,
    userFacts,
    assertCanSubmit,
    audit: (
      exec: Executor,
      actorId: string | null,
      action: string,
      submission: { id: string; user_id: string; tier: number },
      extra: Record<string, unknown> = {},
    ) => audit(deps, exec, actorId, action, submission, extra),
    decided: (exec: Executor, s: { id: string; user_id: string; tier: number }, status: 'approved' | 'rejected', reason?: string | null) =>
      decided(deps, exec, s, status, reason),
    record: (n: NewSubmission) => record(deps, n),
  };
}

export type KycSubmissions = ReturnType<typeof createKycSubmissions>;

export const iso = (d: Date | string) => new Date(d).toISOString();
/** A submission as the API shows it. */
export const submissionView = (s: SubmissionRow) => ({
  id: s.id,
  tier: Number(s.tier),
  status: s.status,
  ...(s.reason ? { reason: s.reason } : {}),
  createdAt: iso(s.created_at),
  ...(s.reviewed_at ? { reviewedAt: iso(s.reviewed_at) } : {}),
});

export interface UserFacts {
  id: string;
  kyc_tier: number;
  full_name: string | null;
  phone: string | null;
  phone_verified_at: Date | null;
}

/** The applicant's facts the ladder rule and the tiers' checks read; `lock` takes the user's row lock. */
export async function userFacts(exec: Executor, userId: string, lock = false) {
  const u = await one<UserFacts>(
    exec,
    lock
      ? sql`SELECT id, kyc_tier, full_name, phone, phone_verified_at FROM users WHERE id = ${userId} FOR UPDATE`
      : sql`SELECT id, kyc_tier, full_name, phone, phone_verified_at FROM users WHERE id = ${userId}`,
  );
  if (!u) throw notFound('User');
  return u;
}

/** Spec 3 (KYC approval): a tier needs the previous one approved; one open submission per tier. */
export async function assertCanSubmit(exec: Executor, tier: number, u: UserFacts) {
  if (u.kyc_tier >= tier) throw new AppError('CONFLICT', `${TIER_LABEL[tier]} is already approved`);
  if (u.kyc_tier < tier - 1)
    throw new AppError('KYC_PREVIOUS_TIER_REQUIRED', `${TIER_LABEL[tier - 1]} must be approved before ${TIER_LABEL[tier]}`);
  const open = await one(exec, sql`SELECT id FROM kyc_submissions WHERE user_id = ${u.id} AND tier = ${tier} AND status = 'pending'`);
  if (open) throw new AppError('CONFLICT', `${TIER_LABEL[tier]} is already under review`);
}

/** The audit row of a submission's automatic decision. */
export async function audit(
  { clock }: KycSubmissionsDeps,
  exec: Executor,
  actorId: string | null,
  action: string,
  submission: { id: string; user_id: string; tier: number },
  extra: Record<string, unknown> = {},
) {
  await writeAudit(exec, {
    actorId,
    action,
    subjectType: 'kyc_submission',
    subjectId: submission.id,
    details: { userId: submission.user_id, tier: Number(submission.tier), ...extra },
    at: clock.now(),
  });
}

/**
 * A decided submission, in the deciding transaction `exec`: its notice, and on approval the new tier (set by the
 * caller before) announced as kyc.approved, one change.
 */
export async function decided(
  { work }: KycSubmissionsDeps,
  exec: Executor,
  s: { id: string; user_id: string; tier: number },
  status: 'approved' | 'rejected',
  reason?: string | null,
) {
  const change = work.change(exec);
  if (status === 'approved') change.emit('kyc.approved', { userId: s.user_id, tier: Number(s.tier) });
  await change.notify(decisionNotice(s, status, reason)).commit();
}

function decisionNotice(s: { id: string; user_id: string; tier: number }, status: 'approved' | 'rejected', reason?: string | null) {
  const label = TIER_LABEL[Number(s.tier)];
  return {
    userId: s.user_id,
    kind: 'kyc_decision',
    title: status === 'approved' ? `KYC ${label} approved` : `KYC ${label} not approved`,
    body:
      status === 'approved'
        ? `Your ${label} verification was approved.`
        : `Your ${label} verification was not approved: ${reason}. You can submit again.`,
    data: { submissionId: s.id, tier: Number(s.tier), status, ...(status === 'rejected' && reason ? { reason } : {}) },
  } satisfies NotificationInput;
}

/** A submission to record (record). */
export interface NewSubmission {
  userId: string;
  tier: 1 | 2 | 3;
  files: KycFileRef[];
  verifiedName?: string;
  details?: SubmissionDetails;
  identifierHash?: string;
  payload?: unknown;
  /** Set when an automatic check failed: the submission is recorded as rejected with this reason. */
  rejectReason?: string;
  /** The precise reason, when the applicant is told less (rejectReason): kept in the audit row for operators. */
  operatorReason?: string;
  /**
   * Set when an automatic check passed (Tier 1 liveness): recorded as approved with the effects of an operator's
   * approval (tier raised, kyc.approved, audit, notice); the caller forgets the user's cached tier after commit.
   */
  approve?: boolean;
  /** Fills an empty profile name (submitNinKyc's optional fullName) in the submission's transaction. */
  profileName?: string;
}

/** Locks the user, re-checks the ladder (look-ups ran outside the transaction) and records the submission. */
export async function record(deps: KycSubmissionsDeps, n: NewSubmission) {
  const { db, clock, dataKey } = deps;
  const { ownFiles } = deps.files;
  return db.transaction(async (tx) => {
    const u = await userFacts(tx, n.userId, true);
    await assertCanSubmit(tx, n.tier, u);
    await ownFiles(tx, n.userId, n.files, n.tier === 1 ? IMAGE_TYPES : [...CONTENT_TYPES]);
    const now = clock.now();
    if (n.profileName) await fillFullName(tx, n.userId, n.profileName, now);
    const status: KycStatus = n.rejectReason ? 'rejected' : n.approve ? 'approved' : 'pending';
    const s = await one<SubmissionRow>(
      tx,
      sql`INSERT INTO kyc_submissions (id, user_id, tier, status, files, verified_name, details, identifier_hash, payload_encrypted, reason, reviewed_at, created_at, updated_at)
          VALUES (${uuid()}, ${n.userId}, ${n.tier}, ${status}, ${JSON.stringify(n.files)}::jsonb, ${n.verifiedName ?? null},
                  ${JSON.stringify(n.details ?? {})}::jsonb, ${n.identifierHash ?? null},
                  ${n.payload === undefined ? null : encrypt(dataKey, JSON.stringify(n.payload))}, ${n.rejectReason ?? null},
                  ${status === 'approved' ? now : null}, ${now}, ${now})
          RETURNING *`,
    );
    if (status === 'rejected') {
      await audit(deps, tx, null, 'kyc.auto_reject', s!, {
        reason: n.rejectReason,
        ...(n.operatorReason ? { operatorReason: n.operatorReason } : {}),
      });
      await decided(deps, tx, s!, 'rejected', n.rejectReason);
    }
    if (status === 'approved') {
      await setTier(tx, n.userId, n.tier, now);
      await audit(deps, tx, null, 'kyc.auto_approve', s!);
      await decided(deps, tx, s!, 'approved');
    }
    return submissionView(s!);
  });
}
