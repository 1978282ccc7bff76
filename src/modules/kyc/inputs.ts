import { z } from 'zod';
import { secret } from '../../kernel/redaction.js';

/**
 * The KYC operations' typed fields, shared with the app's KYC forms (web/src/api/schemas.ts): this file imports only
 * zod and the kernel.
 */
/** Secret (kernel/redaction.ts): no audit record keeps an identity number. */
export const ninInput = secret(
  z
    .string({ error: 'nin is required' })
    .trim()
    .regex(/^\d{11}$/, 'nin must be 11 digits'),
);

/** The name to check the NIN record against when the profile has none (submitNinKyc). */
export const kycFullNameInput = z.string().trim().min(3, 'fullName is too short').max(100, 'fullName is too long');

/**
 * A bank code from listBanks. Which codes are known is the service's bank list (the providers' layer, which this file
 * may not import): the service passes its look-up, the app (which has only the list it fetched) that one was chosen.
 */
export const bankCodeInput = (known: (code: string) => boolean) =>
  z.string({ error: 'bankCode is required' }).trim().refine(known, 'bankCode must be a code from listBanks');

/** A 10-digit NUBAN (the check digit needs the bank: the service checks it with the bank's code). */
export const accountNumberInput = z
  .string({ error: 'accountNumber is required' })
  .trim()
  .regex(/^\d{10}$/, 'accountNumber must be a 10-digit NUBAN');
