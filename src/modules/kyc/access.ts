/**
 * What the caller's KYC lets them do, and the next step when it does not (getKycStatus `access`): the app says
 * what a purchase or a transfer needs before it asks for any PIN (issue 29). Spec 5.8: purchases need Tier 1,
 * transfers Tier 2 with a NIN name matching the profile.
 */
export const ACCESS_NEXT = ['submitLiveness', 'awaitReview', 'submitNin', 'matchProfileName'] as const;
export type AccessNext = (typeof ACCESS_NEXT)[number];

export interface Access {
  allowed: boolean;
  requiredTier: 1 | 2;
  /** The step that unlocks it: an operation to call (submitTier3Kyc is `submitLiveness`), or wait for an operator. */
  next?: AccessNext;
  message?: string;
}

type TierState = { tier: number; status: 'none' | 'pending' | 'approved' | 'rejected' };

/** `transferRefusal`: the transfer check's refusal for a Tier 2 user (a NIN name that no longer matches), if any. */
export function accessOf(tier: number, tiers: TierState[], transferRefusal?: string): { purchases: Access; transfers: Access } {
  const state = (t: number) => tiers.find((s) => s.tier === t)?.status ?? 'none';
  const selfie = (what: string): Access =>
    state(1) === 'pending'
      ? {
          allowed: false,
          requiredTier: 1,
          next: 'awaitReview',
          message: `${what}: your selfie is with our team for a check; we will notify you`,
        }
      : { allowed: false, requiredTier: 1, next: 'submitLiveness', message: `${what}: take a selfie (face check, a few seconds)` };

  const purchases: Access = tier >= 1 ? { allowed: true, requiredTier: 1 } : selfie('Purchases need Tier 1');
  let transfers: Access;
  if (tier < 1) transfers = { ...selfie('Transfers need Tier 2, after Tier 1'), requiredTier: 2 };
  else if (tier < 2)
    transfers =
      state(2) === 'pending'
        ? { allowed: false, requiredTier: 2, next: 'awaitReview', message: 'Transfers need Tier 2: your NIN is with our team for a check' }
        : { allowed: false, requiredTier: 2, next: 'submitNin', message: 'Transfers need Tier 2: verify your NIN and phone number' };
  else if (transferRefusal) transfers = { allowed: false, requiredTier: 2, next: 'matchProfileName', message: transferRefusal };
  else transfers = { allowed: true, requiredTier: 2 };
  return { purchases, transfers };
}
