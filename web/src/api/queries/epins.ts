import { queryOptions } from '@tanstack/react-query';
import { get } from '../client';

/** Recharge cards (issue 45): the caller's e-PIN batches and one batch's cards. */
export const epinQueries = {
  all: () => ['epins'] as const,
  batches: () =>
    queryOptions({
      queryKey: [...epinQueries.all(), 'batches'],
      queryFn: () => get('/_serverFn/listEpinBatchesBearerVTU', { limit: 50 }).then((r) => r.items),
    }),
  batch: (id: string) =>
    queryOptions({
      queryKey: [...epinQueries.all(), 'batch', id],
      queryFn: () => get('/_serverFn/getEpinBatchBearerVTU', { id }),
    }),
};
