import { queryOptions } from '@tanstack/react-query';
import * as api from '../calls';

/** Recharge cards (issue 45): the caller's e-PIN batches and one batch's cards. */
export const epinQueries = {
  all: () => ['epins'] as const,
  batches: () =>
    queryOptions({
      queryKey: [...epinQueries.all(), 'batches'],
      queryFn: () => api.listEpinBatches({ limit: 50 }).then((r) => r.items),
    }),
  batch: (id: string) =>
    queryOptions({
      queryKey: [...epinQueries.all(), 'batch', id],
      queryFn: () => api.getEpinBatch({ id }),
    }),
};
