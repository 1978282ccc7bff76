import type { KycSubmitDeps } from './deps.js';
import { submitBank, verifyBankAccount } from './submit-bank.js';
import { submitLiveness } from './submit-liveness.js';
import { lookupNin, submitNin } from './submit-nin.js';
import type { DocumentType } from './rules.js';

/**
 * The applicant's side of KYC: a submission for each tier (liveness, NIN with phone, bank account with a document),
 * and the look-ups that help fill them in (a NIN's match with the profile, a bank account's name).
 */
export function createKycSubmit(deps: KycSubmitDeps) {
  return {
    submitLiveness: (userId: string, input: { frames: string[] }) => submitLiveness(deps, userId, input),
    submitNin: (userId: string, input: { nin: string; slipPath: string; fullName?: string }) => submitNin(deps, userId, input),
    submitBank: (userId: string, input: { bankCode: string; accountNumber: string; documentType: DocumentType; documentPath: string }) =>
      submitBank(deps, userId, input),
    lookupNin: (userId: string, nin: string) => lookupNin(deps, userId, nin),
    verifyBankAccount: (bankCode: string, accountNumber: string) => verifyBankAccount(deps, bankCode, accountNumber),
  };
}
