import { queryOptions } from '@tanstack/react-query';
import * as api from '../../../../api/calls';

/** Airtime-to-cash (issue 32): networks with their rates, the caller's sending numbers and requests. */
export const airtimeCashQueries = {
  all: () => ['vtu', 'airtime-cash'] as const,
  networks: () =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'networks'],
      queryFn: () => api.listAirtimeCashNetworks(),
      staleTime: 5 * 60_000,
    }),
  numbers: () =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'numbers'],
      queryFn: () => api.listAirtimeCashNumbers(),
    }),
  recent: () =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'recent'],
      queryFn: () => api.listMyAirtimeCashRequests({ limit: 5, offset: 0 }),
    }),
  one: (id: string) =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'one', id],
      queryFn: async () => (await api.getMyAirtimeCashRequest({ id })).request,
    }),
};
