import { sql, type SQL } from 'drizzle-orm';

import { answerOf, readOf, type Read } from '../../platform/reads.js';

import type { Config } from '../../config.js';

import { one, rows, type Db, type Executor } from '../../db/client.js';

import { AppError, notFound } from '../../kernel/errors.js';

import type { AuthUser } from '../../kernel/actor.js';

import type { Clock } from '../../kernel/clock.js';

import type { Work } from '../../platform/change.js';

import type { Logger } from '../../lib/logger.js';

import { normalizePhone } from '../../kernel/phone.js';

import type { Notifier } from '../notifications/api.js';
import { setTier } from '../identity/api.js';

import { BANKS, bankByCode, type IdentityProvider } from '../../providers/identity.js';

import type { FileStorage } from '../../providers/storage.js';

import { createKycFiles } from './files.js';

import { createNinChecks } from './nin-checks.js';

import { createKycSubmissions } from './submissions.js';

import { createLivenessCheck } from './liveness.js';

import { accessOf } from './access.js';

import {
  CONTENT_TYPES,
  IMAGE_TYPES,
  mask,
  namesMatch,
  NIN_CHECK_TEXT,
  NIN_MISMATCH_REASON,
  ninCheckFailures,
  nameTokens,
  TIER_LABEL,
  type DocumentType,
  type EligibilityRow,
  type KycStatus,
  type SubmissionRow,
} from './rules.js';

// The rules and shapes live in rules.ts; importers keep using this module.
export * from './rules.js';

export interface KycDeps {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  identity: IdentityProvider;
  storage: FileStorage;
  work: Work;
  notifier: Notifier;
  /** Drops the cached session state of a user after this instance's own commit (identity/session-cache.ts). */
  forgetUser: (userId: string) => void;
}

export type KycService = ReturnType<typeof createKycService>;

/** The customer-facing text of a KYC refusal; anything but a KYC_TIER_REQUIRED is a fault and is thrown on. */
function refusalText(err: unknown): string {
  if (err instanceof AppError && err.code === 'KYC_TIER_REQUIRED') return err.message;
  throw err;
}

export const KYC_SORTS = ['newest', 'oldest', 'tier'] as const;
export type KycSort = (typeof KYC_SORTS)[number];
const KYC_ORDER: Record<KycSort, SQL> = {
  newest: sql`s.created_at DESC, s.seq DESC`,
  oldest: sql`s.created_at ASC, s.seq ASC`,
  tier: sql`s.tier ASC, s.created_at ASC, s.seq ASC`,
};

/** What assertTransferEligible reads (the tier, the profile name and the latest approved Tier 2 name). */
function eligibilityRead(userId: string): Read<EligibilityRow> {
  return readOf(`kyc.eligibility:${userId}`, sql`SELECT json_build_object('kyc_tier', u.kyc_tier, 'full_name', u.full_name, 'verified_name',
                   (SELECT s.verified_name FROM kyc_submissions s WHERE s.user_id = u.id AND s.tier = 2 AND s.status = 'approved' ORDER BY s.seq DESC LIMIT 1))
                 FROM users u WHERE u.id = ${userId}`);
}

export function createKycService(deps: KycDeps) {
  const { db, clock, config, log, identity, storage, work, notifier, forgetUser } = deps;
  const dataKey = config.secrets.dataEncryptionKey;
  const files = createKycFiles({ db, clock, config, storage });
  const { signUrl, fileRow, ownFiles } = files;

  const { submissionView, userFacts, assertCanSubmit, notifyDecision, record } = createKycSubmissions({
    db,
    clock,
    notifier,
    work,
    dataKey,
    files,
  });
  const checkLiveness = createLivenessCheck({ db, clock, log, identity, storage, files });

  const { ninHash, takeNinLookup, ninLinkedElsewhere, latestVerifiedName } = createNinChecks({ db, clock, dataKey });

  return {
    listBanks: () => BANKS.map((b) => ({ code: b.code, name: b.name })),
    uploadFile: files.uploadFile,
    fileUrl: files.fileUrl,
    openSignedFile: files.openSignedFile,

    async status(userId: string) {
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
          ? await this.assertTransferEligible(userId).then(
              () => undefined,
              (err: unknown) => refusalText(err),
            )
          : undefined;
      return { tier, tiers, access: accessOf(tier, tiers, transferRefusal) };
    },

    /**
     * Tier 1: liveness frames (submitTier3Kyc), checked by the identity provider at once (liveness.ts): approved,
     * refused with advice, or left pending for an operator. The new tier gates the next request at once.
     */
    async submitLiveness(userId: string, input: { frames: string[] }) {
      await assertCanSubmit(db, 1, await userFacts(db, userId));
      const frames = input.frames.map((path) => ({ role: 'frame' as const, path }));
      await ownFiles(db, userId, frames, IMAGE_TYPES);
      const verdict = await checkLiveness(userId, input.frames);
      const view = await record({
        userId,
        tier: 1,
        files: frames,
        details: verdict.details,
        payload: verdict.payload,
        rejectReason: verdict.rejectReason,
        approve: verdict.decision === 'approve',
      });
      if (view.status === 'approved') forgetUser(userId);
      return view;
    },

    /**
     * Tier 2: NIN with phone (submitNinKyc). The NIN look-up's name must match the profile name and its phone the
     * caller's verified phone, and no other account may hold it. Any failed check (an unknown NIN included) is
     * recorded as rejected with one general reason, the same for all; the failed checks are kept for operators
     * (details.failedChecks, the audit row). A match waits for an operator to review the NIN slip.
     */
    async submitNin(userId: string, input: { nin: string; slipPath: string; fullName?: string }) {
      const u = await userFacts(db, userId);
      await assertCanSubmit(db, 2, u);
      if (!u.phone || !u.phone_verified_at)
        throw new AppError('KYC_PROFILE_INCOMPLETE', 'Verify your phone number before the NIN tier (sendPhoneOtp, verifyPhoneOtp)');
      let profileName = u.full_name;
      let fillProfileName: string | undefined;
      if (input.fullName) {
        if (!profileName) {
          // The spec's optional fullName fills an empty profile name (the name then has to match the NIN record).
          profileName = fillProfileName = input.fullName;
        } else if (!namesMatch(input.fullName, profileName) || nameTokens(input.fullName).length !== nameTokens(profileName).length) {
          throw new AppError(
            'VALIDATION_FAILED',
            'fullName differs from your profile name; change the profile name with updateProfile first',
            {
              issues: [{ path: 'fullName', message: 'does not match the profile name' }],
            },
          );
        }
      }
      if (!profileName)
        throw new AppError('KYC_PROFILE_INCOMPLETE', 'Set your full name (updateProfile, or fullName here) before the NIN tier');
      await ownFiles(db, userId, [{ role: 'slip', path: input.slipPath }], [...CONTENT_TYPES]);

      await takeNinLookup(userId);
      const lookup = await identity.lookupNin(input.nin);
      const rec = (lookup.found && lookup.record) || undefined;
      const ninName = rec ? [rec.firstName, rec.middleName, rec.lastName].filter(Boolean).join(' ') : null;
      const hash = ninHash(input.nin);
      // Asked for an unknown NIN too: every submission does the same work, whatever the outcome.
      const duplicate = await ninLinkedElsewhere(db, userId, hash, ['pending', 'approved']);
      const nameMatched = ninName !== null && namesMatch(ninName, profileName);
      const phoneMatched = rec !== undefined && normalizePhone(rec.phone) === u.phone;
      const failedChecks = ninCheckFailures({ found: rec !== undefined, nameMatched, phoneMatched, duplicate });
      return record({
        userId,
        tier: 2,
        files: [{ role: 'slip', path: input.slipPath }],
        verifiedName: ninName ?? undefined,
        details: {
          nameMatched,
          phoneMatched,
          ninMasked: mask(input.nin),
          ...(failedChecks.length ? { failedChecks } : {}),
        },
        identifierHash: hash,
        payload: { nin: input.nin, lookup: lookup.payload },
        // One answer for every mismatch (the caller learns nothing about the NIN); the operator reads failedChecks.
        rejectReason: failedChecks.length ? NIN_MISMATCH_REASON : undefined,
        operatorReason: failedChecks.length ? failedChecks.map((c) => NIN_CHECK_TEXT[c]).join('; ') : undefined,
        profileName: fillProfileName,
      });
    },

    /** Tier 3: bank account (name enquiry must match the verified name) plus an ID document, operator-reviewed. */
    async submitBank(userId: string, input: { bankCode: string; accountNumber: string; documentType: DocumentType; documentPath: string }) {
      const u = await userFacts(db, userId);
      await assertCanSubmit(db, 3, u);
      await ownFiles(db, userId, [{ role: 'document', path: input.documentPath }], [...CONTENT_TYPES]);
      const bank = bankByCode(input.bankCode)!;
      const enquiry = await identity.resolveAccount(input.bankCode, input.accountNumber);
      if (!enquiry.found || !enquiry.accountName) {
        throw new AppError('VALIDATION_FAILED', `No account with this number was found at ${bank.name}`, {
          issues: [{ path: 'accountNumber', message: 'not found' }],
        });
      }
      const reference = (await latestVerifiedName(db, userId, 2)) ?? u.full_name;
      const nameMatched = namesMatch(enquiry.accountName, reference);
      return record({
        userId,
        tier: 3,
        files: [{ role: 'document', path: input.documentPath }],
        verifiedName: enquiry.accountName,
        details: {
          nameMatched,
          bankCode: bank.code,
          bankName: bank.name,
          accountNumberMasked: mask(input.accountNumber),
          documentType: input.documentType,
        },
        payload: { bankCode: input.bankCode, accountNumber: input.accountNumber, nameEnquiry: enquiry.payload },
        rejectReason: nameMatched ? undefined : 'The bank account name does not match the name on your verified NIN record',
      });
    },

    /**
     * lookupNin: whether the NIN's record matches the caller's profile name AND verified phone, which is what the
     * Tier 2 submission checks, as one flag: an unknown NIN, another person's NIN and a
     * name guess that misses all answer the same, and a NIN not registered to the caller's own verified phone never
     * says yes, whatever name the caller tries. Tier 1 (the operation's gate) and NIN_LOOKUPS_PER_DAY bound the rest.
     */
    async lookupNin(userId: string, nin: string) {
      const u = await userFacts(db, userId);
      await takeNinLookup(userId);
      const lookup = await identity.lookupNin(nin);
      const rec = lookup.found ? lookup.record : undefined;
      const matchesProfile = Boolean(
        rec &&
        u.phone &&
        u.phone_verified_at &&
        normalizePhone(rec.phone) === u.phone &&
        namesMatch([rec.firstName, rec.middleName, rec.lastName].filter(Boolean).join(' '), u.full_name),
      );
      return { matchesProfile };
    },

    async verifyBankAccount(bankCode: string, accountNumber: string) {
      const bank = bankByCode(bankCode)!;
      const enquiry = await identity.resolveAccount(bankCode, accountNumber);
      if (!enquiry.found || !enquiry.accountName) {
        throw new AppError('VALIDATION_FAILED', `No account with this number was found at ${bank.name}`, {
          issues: [{ path: 'accountNumber', message: 'not found' }],
        });
      }
      return { accountName: enquiry.accountName, bankCode: bank.code, bankName: bank.name };
    },

    eligibilityRead,

    /**
     * Spec 5.8: transfers and the dedicated virtual account need Tier 2 and a Tier 2 record whose name matches the
     * current profile name. Throws KYC_TIER_REQUIRED (403) otherwise. On eligibilityRead's answer: the request's
     * read-ahead's when it read it (registry `readAhead`), else read now.
     */
    async assertTransferEligible(userId: string, exec: Executor = db) {
      const u = await answerOf(exec, eligibilityRead(userId));
      if (!u) throw notFound('User');
      if (u.kyc_tier < 2)
        throw new AppError('KYC_TIER_REQUIRED', 'KYC Tier 2 (NIN and phone) is required for transfers and a dedicated account');
      const verified = u.verified_name;
      if (!verified)
        throw new AppError('KYC_TIER_REQUIRED', 'An approved Tier 2 (NIN) record is required for transfers and a dedicated account');
      if (!namesMatch(verified, u.full_name)) {
        throw new AppError(
          'KYC_TIER_REQUIRED',
          'Your profile name no longer matches the name on your verified NIN record; change it back to use transfers',
        );
      }
    },

    // ---- operators -------------------------------------------------------------------------------------------

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
      const decided = await db.transaction(async (tx) => {
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
        if (status === 'approved') {
          await setTier(tx, s.user_id, tier, now);
          await work.change(tx).emit('kyc.approved', { userId: s.user_id, tier }).commit();
        }
        await notifyDecision(tx, s, status, reason);
        return { view: submissionView(s), userId: s.user_id, approved: status === 'approved' };
      });
      // The new tier gates this user's next request on this instance at once (others hear the trigger).
      if (decided.approved) forgetUser(decided.userId);
      return decided.view;
    },
  };
}
