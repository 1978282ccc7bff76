import { queryOptions } from '@tanstack/react-query';
import { get, post } from '../../../../api/client';

/** Airtime-to-cash (issue 32): networks with their rates, the caller's sending numbers and requests. */
export const airtimeCashQueries = {
  all: () => ['vtu', 'airtime-cash'] as const,
  networks: () =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'networks'],
      queryFn: () => get('/_serverFn/listAirtimeCashNetworksBearerVTU'),
      staleTime: 5 * 60_000,
    }),
  numbers: () =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'numbers'],
      queryFn: () => get('/_serverFn/listAirtimeCashNumbersBearerVTU'),
    }),
  recent: () =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'recent'],
      queryFn: () => get('/_serverFn/listMyAirtimeCashRequestsBearerVTU', { limit: 5, offset: 0 }),
    }),
  one: (id: string) =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'one', id],
      queryFn: async () => (await post('/_serverFn/getMyAirtimeCashRequestBearerVTU', { id })).request,
    }),
};
