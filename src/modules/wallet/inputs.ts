import { z } from 'zod';
import { naira, nairaAmount } from '../../kernel/money.js';
import { ACTIVITY_KINDS } from './activity.js';

/** The wallet module's shared input and output shapes (other modules reach them through api.ts). */
export const ledgerRowOutput = z
  .object({
    id: z.string(),
    type: z.string(),
    kind: z.enum(ACTIVITY_KINDS).meta({ description: 'what the line is (a closed list), for a client that words it itself' }),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .meta({ description: 'the facts the kind is worded from (service, recipient, username, reason); description stays in English' }),
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

/**
 * Money moved on the customer's instruction, in naira: the limits and the transfer's fields, written once for the
 * service (transferWalletFn's input) and the app's transfer form (web/src/api/schemas.ts imports them).
 */
export const DEBIT_MIN_NAIRA = 50;
/** Spec 8 leaves transfer bounds open: the same floor as a debit. */
export const TRANSFER_MIN_NAIRA = 50;
/** Far above any tier's daily limit; keeps absurd amounts out of bigint arithmetic. */
export const MONEY_MAX_NAIRA = 100_000_000;
export const transferAmountInput = nairaAmount({ min: TRANSFER_MIN_NAIRA, max: MONEY_MAX_NAIRA });
export const transferNoteInput = z.string().trim().max(140, 'note must be at most 140 characters').optional();
