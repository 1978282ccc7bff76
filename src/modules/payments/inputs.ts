import { nairaAmount } from '../../kernel/money.js';

/**
 * A top-up's amount (startProcessorTopup, the wallet's top-up intents), shared with the app's fund form
 * (web/src/api/schemas.ts): this file imports only zod and the kernel.
 */
export const TOPUP_MIN_NAIRA = 100;
export const TOPUP_MAX_NAIRA = 1_000_000;

export const topupAmountInput = nairaAmount({ min: TOPUP_MIN_NAIRA, max: TOPUP_MAX_NAIRA });
