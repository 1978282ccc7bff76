import { queryOptions } from '@tanstack/react-query';
import * as api from '../calls';

/** A webhook endpoint's mode: it takes test keys' events (test) or the live service's (live). */
export type WebhookMode = 'test' | 'live';

/** The developer page's API keys (issue 45). */
export const developerQueries = {
  all: () => ['developers'] as const,
  keys: () =>
    queryOptions({
      queryKey: [...developerQueries.all(), 'keys'],
      queryFn: () => api.listApiKeys().then((r) => r.keys),
    }),
  endpoints: () =>
    queryOptions({
      queryKey: [...developerQueries.all(), 'endpoints'],
      queryFn: () => api.listWebhookEndpoints().then((r) => r.endpoints),
    }),
  /** One mode's delivery log: test endpoints' (test keys' events) or live endpoints'. */
  deliveries: (mode: WebhookMode) =>
    queryOptions({
      queryKey: [...developerQueries.all(), 'deliveries', mode],
      queryFn: () => api.listWebhookDeliveries({ limit: 20, mode }).then((r) => r.items),
    }),
  /** Purchases and spend by key and Lagos day, the last 14 days (issue 45). */
  usage: () =>
    queryOptions({
      queryKey: [...developerQueries.all(), 'usage'],
      queryFn: () => api.getMyApiUsage({ days: 14 }).then((r) => r.items),
    }),
  testWallet: () =>
    queryOptions({
      queryKey: [...developerQueries.all(), 'testWallet'],
      queryFn: () => api.getTestWallet().then((r) => r.balance),
    }),
};
