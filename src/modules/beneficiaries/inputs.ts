import { z } from 'zod';

/** A beneficiary's label, written once for the service and the app's "save this number" field (web/src/api/schemas.ts). */
export const beneficiaryLabelInput = z
  .string({ error: 'Enter a name for this beneficiary' })
  .trim()
  .min(1, 'Enter a name for this beneficiary')
  .max(40, 'The name can be at most 40 characters');
