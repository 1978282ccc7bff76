import { queryOptions } from '@tanstack/react-query';
import { get } from '../client';

/** The developer page's API keys (issue 45). */
export const developerQueries = {
  all: () => ['developers'] as const,
  keys: () =>
    queryOptions({
      queryKey: [...developerQueries.all(), 'keys'],
      queryFn: () => get('/_serverFn/listApiKeysBearerDevelopers').then((r) => r.keys),
    }),
  testWallet: () =>
    queryOptions({
      queryKey: [...developerQueries.all(), 'testWallet'],
      queryFn: () => get('/_serverFn/getTestWalletBearerDevelopers').then((r) => r.balance),
    }),
};
