import { queryOptions } from '@tanstack/react-query';
import * as api from '../calls';

/** The wallet's reads. Every money screen invalidates `walletQueries.all()` after moving money. */
export const walletQueries = {
  all: () => ['wallet'] as const,
  state: () => queryOptions({ queryKey: [...walletQueries.all(), 'state'], queryFn: () => api.getWalletState() }),
  /** The KYC tier's limits and what is left of today's: checked before a purchase asks for the PIN. */
  limits: () => queryOptions({ queryKey: [...walletQueries.all(), 'limits'], queryFn: () => api.getWalletLimits() }),
  topup: (reference: string) =>
    queryOptions({
      queryKey: [...walletQueries.all(), 'topup', reference],
      queryFn: () => api.getTopupIntent({ reference }),
    }),
  /** Withdrawals to a bank account (Tier 2): the banks, the fee and the bounds. */
  withdrawalOptions: () =>
    queryOptions({
      queryKey: [...walletQueries.all(), 'withdrawal-options'],
      queryFn: () => api.getWithdrawalOptions(),
      retry: false,
    }),
  withdrawal: (reference: string) =>
    queryOptions({
      queryKey: [...walletQueries.all(), 'withdrawal', reference],
      queryFn: () => api.getWithdrawal({ reference }),
    }),
};
