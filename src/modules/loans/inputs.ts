import { nairaAmount } from '../../kernel/money.js';

/**
 * takeLoan's and repayLoan's amount, shared with the app's loan forms (web/src/api/schemas.ts): this file imports only
 * zod and the kernel.
 */
export const loanAmountInput = nairaAmount({ max: 100_000_000 });
