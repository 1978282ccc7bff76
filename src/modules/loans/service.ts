import type { Db } from '../../db/client.js';
import type { Clock } from '../../kernel/clock.js';
import type { Work } from '../../platform/change.js';
import type { GrowthSettingsStore } from '../growth/api.js';
import type { WalletLimits } from '../wallet/api.js';
import { adminListLoans } from './admin-list-loans.js';
import { processAllDue, processDue, remindLoan } from './due.js';
import { hasOpenLoan } from './open-loan.js';
import { getLoanOverview } from './overview.js';
import { repayLoan, repayOnCredit } from './repay-loan.js';
import { takeLoan } from './take-loan.js';

export type LoanService = ReturnType<typeof createLoanService>;

/** The loans' use cases, each in its own file, bound to the module's dependencies. */
export function createLoanService(deps: { db: Db; clock: Clock; work: Work; settings: GrowthSettingsStore; walletLimits: WalletLimits }) {
  return {
    overview: (user: { id: string; kycTier: number }) => getLoanOverview(deps, user),
    take: (user: { id: string; kycTier: number }, amountNaira: number) => takeLoan(deps, user, amountNaira),
    repay: (userId: string, amountNaira: number | undefined) => repayLoan(deps, userId, amountNaira),
    hasOpenLoan,
    onWalletCredited: repayOnCredit.bind(null, deps),
    processDue: (loanId: string) => processDue(deps, loanId),
    adminList: adminListLoans.bind(null, deps),
    remind: (loanId: string) => remindLoan(deps, loanId),
    processAllDue: (limit?: number) => processAllDue(deps, limit),
  };
}
