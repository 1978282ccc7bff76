import type { AuthUser } from '../../kernel/actor.js';
import { WITHDRAWAL_MAX_NAIRA, WITHDRAWAL_MIN_NAIRA } from './inputs.js';
import { resolveWithdrawalAccount, withdraw, withdrawalOptions, type WithdrawalDeps } from './withdraw.js';
import { adminListWithdrawals, adminRequeryWithdrawal, type AdminWithdrawalSearch } from './withdrawal-admin.js';
import { pollWithdrawal, sendWithdrawal, transferEvent } from './withdrawal-jobs.js';
import { ownWithdrawal, withdrawalView } from './withdrawal-model.js';

export type { WithdrawalDeps } from './withdraw.js';

/** Withdrawals to a bank account (issue 43), bound to what they use: the operations' and the jobs' functions. */
export function createWithdrawals(deps: WithdrawalDeps) {
  return {
    /** getWithdrawalOptions: the banks, the fee and the amount's bounds. */
    withdrawalOptions: () => withdrawalOptions(deps, { min: WITHDRAWAL_MIN_NAIRA, max: WITHDRAWAL_MAX_NAIRA }),
    resolveWithdrawalAccount: (bankCode: string, accountNumber: string) => resolveWithdrawalAccount(deps, bankCode, accountNumber),
    withdrawToBank: (user: AuthUser, input: { bankCode: string; accountNumber: string; amount: number }) => withdraw(deps, user, input),
    getWithdrawal: async (userId: string, reference: string) => ({
      withdrawal: withdrawalView(await ownWithdrawal(deps.db, userId, reference)),
    }),
    sendWithdrawal: (id: string, isLastAttempt: boolean) => sendWithdrawal(deps, id, isLastAttempt),
    pollWithdrawal: (id: string, polls?: number) => pollWithdrawal(deps, id, polls),
    adminListWithdrawals: (input: AdminWithdrawalSearch) => adminListWithdrawals(deps, input),
    adminRequeryWithdrawal: (reference: string) => adminRequeryWithdrawal(deps, reference),
    transferEvent: (processor: string, event: string, reference: string) => transferEvent(deps, processor, event, reference),
  };
}
