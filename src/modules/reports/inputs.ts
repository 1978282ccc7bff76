import { z } from 'zod';

/** createTransactionReport's text fields, written once for the service and the app's report form (web/src/api/schemas.ts). */
export const reportReferenceInput = z
  .string({ error: 'reference is required' })
  .trim()
  .min(3, 'reference must be at least 3 characters')
  .max(200, 'reference must be at most 200 characters (a ledger reference, top-up reference or VTU transaction id)');

export const reportDescriptionInput = z
  .string({ error: 'description is required' })
  .trim()
  .min(10, 'description must be at least 10 characters')
  .max(2000, 'description must be at most 2000 characters');
