import { queryOptions } from '@tanstack/react-query';
import { type GetInput } from '../client';
import * as api from '../calls';

type Kind = NonNullable<NonNullable<GetInput<'/_serverFn/listBeneficiariesBearerBeneficiaries'>>['kind']>;

/** Saved beneficiaries of one kind, the customer's own verified number ("my number") first. */
export const beneficiaryQueries = {
  all: () => ['beneficiaries'] as const,
  list: (kind: Kind) =>
    queryOptions({
      queryKey: [...beneficiaryQueries.all(), kind],
      queryFn: () => api.listBeneficiaries({ kind }),
      staleTime: 60_000,
    }),
};
