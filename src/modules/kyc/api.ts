/**
 * What other modules may use of the kyc module. Modules reach one another only through these files
 * (checked by dependency-cruiser); everything else in the folder is the module's own.
 */
export type { EligibilityRow } from './rules.js';
/** The customer search's look-up by the name an approved KYC submission verified. */
export { userIdsWithVerifiedName } from './names.js';
/** Test mode's shadow accounts (issue 45): the live customer's verified Tier 2 name, recorded in the test world. */
export { recordVerifiedTier2, verifiedTier2Name } from './mirror.js';
