import { z } from 'zod';
import { naira } from '../../kernel/money.js';

/** The wallet module's shared input and output shapes (other modules reach them through api.ts). */
export const ledgerRowOutput = z
  .object({
    id: z.string(),
    type: z.string(),
    amount: naira,
    balanceAfter: z.number(),
    reference: z.string(),
    description: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'LedgerRow' });

export const dedicatedAccountOutput = z
  .object({ accountNumber: z.string(), accountName: z.string(), bankName: z.string() })
  .meta({ id: 'DedicatedAccount' });

export const topupIntentOutput = z
  .object({
    id: z.string(),
    reference: z.string(),
    amount: naira,
    status: z.enum(['pending', 'success', 'failed', 'abandoned']),
    checkoutUrl: z.string(),
    processor: z.string(),
    createdAt: z.string(),
    amountPaid: z.number().nullable(),
    channel: z.string().nullable(),
    paidAt: z.string().nullable(),
    settledAt: z.string().nullable(),
    failureReason: z.string().nullable(),
  })
  .meta({ id: 'TopupIntent' });

export const referenceInput = z
  .string({ error: 'reference is required' })
  .trim()
  .min(1, 'reference is required')
  .max(100, 'reference is too long')
  .regex(/^[A-Za-z0-9_.:=-]+$/, 'reference has characters a reference never has');
