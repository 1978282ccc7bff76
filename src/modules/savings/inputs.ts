import { z } from 'zod';
import { nairaAmount } from '../../kernel/money.js';

/**
 * createSavingsLock's fields, shared with the app's savings form (web/src/api/schemas.ts): this file imports only zod
 * and the kernel.
 */

/** Lock length bounds (docs/design.md §10): fixed, because the interest formula and the UI assume them. */
export const SAVINGS_MIN_DAYS = 7;
export const SAVINGS_MAX_DAYS = 365;

export const savingsAmountInput = nairaAmount({ max: 100_000_000 });

export const savingsDaysInput = z
  .number({ error: 'days must be a number' })
  .int('days must be a whole number')
  .min(SAVINGS_MIN_DAYS, `days must be at least ${SAVINGS_MIN_DAYS}`)
  .max(SAVINGS_MAX_DAYS, `days must be at most ${SAVINGS_MAX_DAYS}`);
