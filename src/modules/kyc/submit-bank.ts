import { AppError } from '../../kernel/errors.js';
import { bankByCode } from '../../providers/identity.js';
import { CONTENT_TYPES, mask, namesMatch, type DocumentType } from './rules.js';
import type { KycSubmitDeps } from './deps.js';

/** Tier 3: bank account (name enquiry must match the verified name) plus an ID document, operator-reviewed. */
export async function submitBank(
  deps: KycSubmitDeps,
  userId: string,
  input: { bankCode: string; accountNumber: string; documentType: DocumentType; documentPath: string },
) {
  const { db, identity } = deps;
  const { ownFiles } = deps.files;
  const { userFacts, assertCanSubmit, record } = deps.submissions;
  const { latestVerifiedName } = deps.nin;
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
}

/** verifyBankAccount: the account's name at the bank (name enquiry); an unknown account is a VALIDATION_FAILED. */
export async function verifyBankAccount({ identity }: KycSubmitDeps, bankCode: string, accountNumber: string) {
  const bank = bankByCode(bankCode)!;
  const enquiry = await identity.resolveAccount(bankCode, accountNumber);
  if (!enquiry.found || !enquiry.accountName) {
    throw new AppError('VALIDATION_FAILED', `No account with this number was found at ${bank.name}`, {
      issues: [{ path: 'accountNumber', message: 'not found' }],
    });
  }
  return { accountName: enquiry.accountName, bankCode: bank.code, bankName: bank.name };
}
