import { queryOptions } from '@tanstack/react-query';
import { get, post } from '../client';

/** Marketplace and subscription orders, scheduled purchases, support messages and reports. */
export const ordersQueries = {
  all: () => ['orders'] as const,
  products: () =>
    queryOptions({
      queryKey: [...ordersQueries.all(), 'products'],
      queryFn: () => get('/_serverFn/listMarketplaceProductsBearerMarketplace', { limit: 50 }),
    }),
  marketOrders: () =>
    queryOptions({
      queryKey: [...ordersQueries.all(), 'market'],
      queryFn: () => get('/_serverFn/listMyMarketplaceOrdersBearerMarketplace', { limit: 20 }),
    }),
  subscriptionPlans: () =>
    queryOptions({
      queryKey: [...ordersQueries.all(), 'subscriptionPlans'],
      queryFn: () => get('/_serverFn/listSubscriptionPlansBearerSubscriptions', {}),
    }),
  subscriptionOrders: () =>
    queryOptions({
      queryKey: [...ordersQueries.all(), 'subscriptions'],
      queryFn: () => get('/_serverFn/listMySubscriptionOrdersBearerSubscriptions', { limit: 20 }),
    }),
  schedules: () =>
    queryOptions({ queryKey: [...ordersQueries.all(), 'schedules'], queryFn: () => get('/_serverFn/listSchedulesBearerSchedules') }),
};

export const supportQueries = {
  all: () => ['support'] as const,
  thread: () =>
    queryOptions({
      queryKey: [...supportQueries.all(), 'thread'],
      queryFn: () => post('/_serverFn/getOrCreateThreadBearerSupport', {}).then((r) => r.thread),
      staleTime: Infinity,
    }),
  messages: (threadId: string | undefined) =>
    queryOptions({
      queryKey: [...supportQueries.all(), 'thread', threadId, 'messages'],
      queryFn: () => get('/_serverFn/listThreadMessagesBearerSupport', { threadId: threadId!, limit: 100 }),
      enabled: Boolean(threadId),
    }),
  reports: () =>
    queryOptions({
      queryKey: [...supportQueries.all(), 'reports'],
      queryFn: () => get('/_serverFn/listMyReportsBearerReports', { limit: 20 }),
    }),
};
