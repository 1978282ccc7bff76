import { z } from 'zod';
import { nairaAmount } from '../../kernel/money.js';

/**
 * A top-up's amount (startProcessorTopup, the wallet's top-up intents), shared with the app's fund form
 * (web/src/api/schemas.ts): this file imports only zod and the kernel.
 */
export const TOPUP_MIN_NAIRA = 100;
export const TOPUP_MAX_NAIRA = 1_000_000;

export const topupAmountInput = nairaAmount({ min: TOPUP_MIN_NAIRA, max: TOPUP_MAX_NAIRA });

/** A correction's signed naira amount (adminAdjustWallet, adminCorrectSettlement): not 0, at most ₦10,000,000 either way, kobo precision. */
export const correctionAmountInput = z
  .number({ error: 'amount must be a number (naira, signed)' })
  .finite()
  .refine((n) => n !== 0, 'amount must not be 0')
  .refine((n) => Math.abs(n) <= 10_000_000, 'amount must be at most 10,000,000 naira either way')
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'amount must have at most 2 decimals');

/** A withdrawal to a bank account (issue 43): its amount, before the fee, and the account's fields. */
export const WITHDRAWAL_MIN_NAIRA = 100;
export const WITHDRAWAL_MAX_NAIRA = 5_000_000;
export const withdrawalAmountInput = nairaAmount({ min: WITHDRAWAL_MIN_NAIRA, max: WITHDRAWAL_MAX_NAIRA });
/** A 10-digit NUBAN. */
export const withdrawalAccountNumberInput = z
  .string({ error: 'accountNumber is required' })
  .trim()
  .regex(/^\d{10}$/, 'accountNumber must be 10 digits');
/** A bank code (the service checks it against its bank list). */
export const withdrawalBankCodeInput = z
  .string({ error: 'bankCode is required' })
  .trim()
  .regex(/^\d{3,6}$/, 'bankCode must be a code from the bank list');
