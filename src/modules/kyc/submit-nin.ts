import { AppError } from '../../kernel/errors.js';
import { normalizePhone } from '../../kernel/phone.js';
import { CONTENT_TYPES, mask, namesMatch, NIN_CHECK_TEXT, NIN_MISMATCH_REASON, ninCheckFailures, nameTokens } from './rules.js';
import type { KycSubmitDeps } from './deps.js';

/**
 * Tier 2: NIN with phone (submitNinKyc). The NIN look-up's name must match the profile name and its phone the
 * caller's verified phone, and no other account may hold it. Any failed check (an unknown NIN included) is
 * recorded as rejected with one general reason, the same for all; the failed checks are kept for operators
 * (details.failedChecks, the audit row). A match waits for an operator to review the NIN slip.
 */
export async function submitNin(deps: KycSubmitDeps, userId: string, input: { nin: string; slipPath: string; fullName?: string }) {
  const { db, identity } = deps;
  const { ownFiles } = deps.files;
  const { userFacts, assertCanSubmit, record } = deps.submissions;
  const { ninHash, takeNinLookup, ninLinkedElsewhere } = deps.nin;
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
      throw new AppError('VALIDATION_FAILED', 'fullName differs from your profile name; change the profile name with updateProfile first', {
        issues: [{ path: 'fullName', message: 'does not match the profile name' }],
      });
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
}

/**
 * lookupNin: whether the NIN's record matches the caller's profile name AND verified phone, which is what the
 * Tier 2 submission checks, as one flag: an unknown NIN, another person's NIN and a
 * name guess that misses all answer the same, and a NIN not registered to the caller's own verified phone never
 * says yes, whatever name the caller tries. Tier 1 (the operation's gate) and NIN_LOOKUPS_PER_DAY bound the rest.
 */
export async function lookupNin(deps: KycSubmitDeps, userId: string, nin: string) {
  const { db, identity } = deps;
  const { userFacts } = deps.submissions;
  const { takeNinLookup } = deps.nin;
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
}
