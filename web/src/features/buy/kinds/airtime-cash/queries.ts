import { queryOptions } from '@tanstack/react-query';
import { get, post } from '../../../../api/client';
import * as ops from '../../../../api/operations';

/** Airtime-to-cash (issue 32): networks with their rates, the caller's sending numbers and requests. */
export const airtimeCashQueries = {
  all: () => ['vtu', 'airtime-cash'] as const,
  networks: () =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'networks'],
      queryFn: () => get(ops.listAirtimeCashNetworks),
      staleTime: 5 * 60_000,
    }),
  numbers: () =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'numbers'],
      queryFn: () => get(ops.listAirtimeCashNumbers),
    }),
  recent: () =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'recent'],
      queryFn: () => get(ops.listMyAirtimeCashRequests, { limit: 5, offset: 0 }),
    }),
  one: (id: string) =>
    queryOptions({
      queryKey: [...airtimeCashQueries.all(), 'one', id],
      queryFn: async () => (await post(ops.getMyAirtimeCashRequest, { id })).request,
    }),
};
