import type { Db } from '../../db/client.js';
import { AppError } from '../../kernel/errors.js';
import { normalizePhone } from '../../kernel/phone.js';
import { bankByCode, type IdentityProvider } from '../../providers/identity.js';
import type { KycFiles } from './files.js';
import type { NinChecks } from './nin-checks.js';
import type { KycSubmissions } from './submissions.js';
import type { KycLivenessCheck } from './liveness.js';
import {
  CONTENT_TYPES,
  IMAGE_TYPES,
  mask,
  namesMatch,
  NIN_CHECK_TEXT,
  NIN_MISMATCH_REASON,
  ninCheckFailures,
  nameTokens,
  type DocumentType,
} from './rules.js';

/**
 * The applicant's side of KYC: a submission for each tier (liveness, NIN with phone, bank account with a document),
 * and the look-ups that help fill them in (a NIN's match with the profile, a bank account's name).
 */
export function createKycSubmit(deps: {
  db: Db;
  identity: IdentityProvider;
  files: KycFiles;
  submissions: KycSubmissions;
  nin: NinChecks;
  checkLiveness: KycLivenessCheck;
  /** Drops the cached session state of a user after this instance's own commit (identity/session-cache.ts). */
  forgetUser: (userId: string) => void;
}) {
  const { db, identity, forgetUser, checkLiveness } = deps;
  const { ownFiles } = deps.files;
  const { userFacts, assertCanSubmit, record } = deps.submissions;
  const { ninHash, takeNinLookup, ninLinkedElsewhere, latestVerifiedName } = deps.nin;
  return {
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
  };
}
