import { queryOptions } from '@tanstack/react-query';
import { get } from '../client';

/** The wallet's reads. Every money screen invalidates `walletQueries.all()` after moving money. */
export const walletQueries = {
  all: () => ['wallet'] as const,
  state: () => queryOptions({ queryKey: [...walletQueries.all(), 'state'], queryFn: () => get('/_serverFn/getWalletStateBearerWallet') }),
  topup: (reference: string) =>
    queryOptions({
      queryKey: [...walletQueries.all(), 'topup', reference],
      queryFn: () => get('/_serverFn/getTopupIntentBearerWallet', { reference }),
    }),
};
