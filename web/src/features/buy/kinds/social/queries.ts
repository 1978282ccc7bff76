import { queryOptions } from '@tanstack/react-query';
import * as api from '../../../../api/calls';

/** Social services: their catalogue (five minutes before the screen asks again; a purchase re-reads the price). */
export const socialQueries = {
  all: () => ['vtu', 'social'] as const,
  socialServices: () =>
    queryOptions({
      queryKey: [...socialQueries.all(), 'socialServices'],
      queryFn: () => api.listSocialServices(),
      staleTime: 5 * 60_000,
    }),
};
