import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';

/** Server state: no retry of refusals (they would answer the same), a few retries of transient failures. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
      refetchOnWindowFocus: true,
    },
    mutations: { retry: false },
  },
});
