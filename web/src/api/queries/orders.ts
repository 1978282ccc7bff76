import { queryOptions } from '@tanstack/react-query';
import * as api from '../calls';

/** Marketplace and subscription orders, scheduled purchases, support messages and reports. */
export const ordersQueries = {
  all: () => ['orders'] as const,
  products: () =>
    queryOptions({
      queryKey: [...ordersQueries.all(), 'products'],
      queryFn: () => api.listMarketplaceProducts({ limit: 50 }),
    }),
  marketOrders: () =>
    queryOptions({
      queryKey: [...ordersQueries.all(), 'market'],
      queryFn: () => api.listMyMarketplaceOrders({ limit: 20 }),
    }),
  subscriptionPlans: () =>
    queryOptions({
      queryKey: [...ordersQueries.all(), 'subscriptionPlans'],
      queryFn: () => api.listSubscriptionPlans({}),
    }),
  subscriptionOrders: () =>
    queryOptions({
      queryKey: [...ordersQueries.all(), 'subscriptions'],
      queryFn: () => api.listMySubscriptionOrders({ limit: 20 }),
    }),
  schedules: () => queryOptions({ queryKey: [...ordersQueries.all(), 'schedules'], queryFn: () => api.listSchedules() }),
};

export const supportQueries = {
  all: () => ['support'] as const,
  thread: () =>
    queryOptions({
      queryKey: [...supportQueries.all(), 'thread'],
      queryFn: () => api.getOrCreateThread({}).then((r) => r.thread),
      staleTime: Infinity,
    }),
  messages: (threadId: string | undefined) =>
    queryOptions({
      queryKey: [...supportQueries.all(), 'thread', threadId, 'messages'],
      queryFn: () => api.listThreadMessages({ threadId: threadId!, limit: 100 }),
      enabled: Boolean(threadId),
    }),
  reports: () =>
    queryOptions({
      queryKey: [...supportQueries.all(), 'reports'],
      queryFn: () => api.listMyReports({ limit: 20 }),
    }),
};
