import { queryOptions } from '@tanstack/react-query';
import { get } from '../client';

/** The wallet's reads. Every money screen invalidates `walletQueries.all()` after moving money. */
export const walletQueries = {
  all: () => ['wallet'] as const,
  state: () => queryOptions({ queryKey: [...walletQueries.all(), 'state'], queryFn: () => get('/_serverFn/getWalletStateBearerWallet') }),
  /** The KYC tier's limits and what is left of today's: checked before a purchase asks for the PIN. */
  limits: () =>
    queryOptions({ queryKey: [...walletQueries.all(), 'limits'], queryFn: () => get('/_serverFn/getWalletLimitsBearerWallet') }),
  topup: (reference: string) =>
    queryOptions({
      queryKey: [...walletQueries.all(), 'topup', reference],
      queryFn: () => get('/_serverFn/getTopupIntentBearerWallet', { reference }),
    }),
  /** Withdrawals to a bank account (Tier 2): the banks, the fee and the bounds. */
  withdrawalOptions: () =>
    queryOptions({
      queryKey: [...walletQueries.all(), 'withdrawal-options'],
      queryFn: () => get('/_serverFn/getWithdrawalOptionsBearerWallet'),
      retry: false,
    }),
  withdrawal: (reference: string) =>
    queryOptions({
      queryKey: [...walletQueries.all(), 'withdrawal', reference],
      queryFn: () => get('/_serverFn/getWithdrawalBearerWallet', { reference }),
    }),
};
