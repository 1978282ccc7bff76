import { infiniteQueryOptions } from '@tanstack/react-query';
import { type GetInput } from '../client';
import * as api from '../calls';

/** The history's filter (issue 43): a range of Lagos days (YYYY-MM-DD) and a search, both optional. */
export type HistoryFilter = Pick<NonNullable<GetInput<'/_serverFn/listWalletActivityBearerWallet'>>, 'from' | 'to' | 'q'>;

/** Only the filter's set fields (an empty one is no filter). */
export const historyQuery = (f: HistoryFilter) => ({
  ...(f.from ? { from: f.from } : {}),
  ...(f.to ? { to: f.to } : {}),
  ...(f.q?.trim() ? { q: f.q.trim() } : {}),
});

/** The history's reads: the wallet's lines a page at a time (listWalletActivity). */
export const historyQueries = {
  all: () => ['wallet', 'history'] as const,
  activity: (filter: HistoryFilter, pageSize: number) =>
    infiniteQueryOptions({
      queryKey: [...historyQueries.all(), 'activity', filter, pageSize],
      initialPageParam: 0,
      queryFn: ({ pageParam }) => api.listWalletActivity({ limit: pageSize, offset: pageParam, ...historyQuery(filter) }),
      getNextPageParam: (last) => (last.hasMore ? last.offset + last.limit : undefined),
    }),
};
